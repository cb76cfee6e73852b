// Preloaded into the Packline server by the webhook benchmark (BENCH_SQL_TRACE=1) with
// NODE_OPTIONS=--require: counts and times every SQLite statement libsql runs, on the main thread
// and on worker threads (the dispatcher's SQLite thread), grouped by statement text (literals
// masked: knex inlines values for this driver; IN lists and multi-row VALUES collapsed). It
// changes no behaviour.
// On SIGUSR2 the main thread writes the cumulative figures of every thread to
// `${PACKLINE_BENCH_SQL_TRACE}.<n>.json`, so the benchmark can take a reading before and after its
// timed part and subtract them. Worker threads hand theirs over through a file each, refreshed
// every 50 ms.
'use strict';
const { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { isMainThread, threadId } = require('node:worker_threads');

const out = process.env.PACKLINE_BENCH_SQL_TRACE;
if (out) {
  const libsql = require('libsql');
  /** sql -> { count, ms } */
  const stats = new Map();
  const SQL = Symbol('sql');
  // knex inlines bound values into the SQL text for this driver, so literals are masked first.
  const normalize = (sql) =>
    sql
      .replace(/\s+/g, ' ')
      .replace(/'(?:[^']|'')*'/g, '?')
      .replace(/(?<![\w.`])-?\d+(?:\.\d+)?(?![\w`])/g, '?')
      .replace(/\((?:\s*(?:\?|NULL)\s*,)+\s*(?:\?|NULL)\s*\)/gi, '(?…)')
      .replace(/((?:values|VALUES) \((?:\?…|\?)\))(?:\s*,\s*\((?:\?…|\?)\))+/g, '$1, …')
      .trim()
      .slice(0, 240);
  const add = (sql, ms) => {
    const entry = stats.get(sql);
    if (entry) {
      entry.count++;
      entry.ms += ms;
    } else stats.set(sql, { count: 1, ms });
  };
  const addTime = (sql, ms) => {
    const entry = stats.get(sql);
    if (entry) entry.ms += ms;
    else stats.set(sql, { count: 0, ms });
  };
  let patched = false;
  // `all` reads its rows through `iterate`: only the outermost call is counted and timed.
  let depth = 0;
  const patchStatement = (proto) => {
    for (const name of ['run', 'get', 'all']) {
      const original = proto[name];
      proto[name] = function (...args) {
        const outer = depth === 0;
        const start = performance.now();
        depth++;
        try {
          return original.apply(this, args);
        } finally {
          depth--;
          if (outer) add(this[SQL], performance.now() - start);
        }
      };
    }
    const iterate = proto.iterate;
    proto.iterate = function (...args) {
      if (depth > 0) return iterate.apply(this, args);
      const start = performance.now();
      const sql = this[SQL];
      const iter = iterate.apply(this, args);
      add(sql, performance.now() - start);
      const next = iter.next;
      iter.next = function () {
        const t = performance.now();
        try {
          return next.call(this);
        } finally {
          addTime(sql, performance.now() - t);
        }
      };
      return iter;
    };
  };
  const prepare = libsql.prototype.prepare;
  libsql.prototype.prepare = function (sql) {
    const start = performance.now();
    const statement = prepare.call(this, sql);
    const key = normalize(sql);
    add(`(prepare) ${key}`, performance.now() - start);
    statement[SQL] = key;
    if (!patched) {
      patched = true;
      patchStatement(Object.getPrototypeOf(statement));
    }
    return statement;
  };
  const workerPrefix = `${basename(out)}.thread-`;
  if (!isMainThread) {
    const file = join(dirname(out), `${workerPrefix}${process.pid}-${threadId}.json`);
    const timer = setInterval(() => {
      writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(stats)));
      renameSync(`${file}.tmp`, file);
    }, 50);
    timer.unref();
  } else {
    let readings = 0;
    process.on('SIGUSR2', () => {
      const merged = new Map([...stats].map(([sql, entry]) => [sql, { ...entry }]));
      for (const name of readdirSync(dirname(out))) {
        if (!name.startsWith(`${workerPrefix}${process.pid}-`) || !name.endsWith('.json')) continue;
        const path = join(dirname(out), name);
        if (!existsSync(path)) continue;
        for (const [sql, entry] of Object.entries(JSON.parse(readFileSync(path, 'utf8')))) {
          const into = merged.get(sql);
          if (into) {
            into.count += entry.count;
            into.ms += entry.ms;
          } else merged.set(sql, { ...entry });
        }
      }
      writeFileSync(`${out}.${++readings}.json`, JSON.stringify({ at: Date.now(), statements: Object.fromEntries(merged) }));
    });
  }
}
