/**
 * Operations benchmark: `npm run bench:operations`.
 *
 * CPU time of one computed REST operation, run by graphql-js's `execute` and by graphql-jit's
 * compiled query (what facades/operation-runner.ts runs), side by side in one process over one SQLite
 * database of BENCH_OPERATIONS_NEEDS public needs (default 20,000): a list page with a distinct
 * cursor and limit (1–50) each time, and a by-id answer for a distinct id each time. No HTTP, no
 * cache: the GraphQL execution and the read path only. Three rounds; the median is reported.
 */
import { execute, type DocumentNode } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { RestOpportunitiesDocument, RestOpportunityDocument } from '../facades/generated/rest.ts';
import { Contexts, schema } from '../schema/index.ts';
import { openBenchCore, positions, seed } from './support/deep-page.ts';
import { packlineEnv, removeTempDir, tempDir } from './support/processes.ts';
import { formatPercent, machine, markdownTable, median } from './support/report.ts';
import { positive } from './support/settings.ts';

const NEEDS = positive('BENCH_OPERATIONS_NEEDS', 20_000, { integer: true });
const ROUNDS = 3;
const say = (line = '') => process.stdout.write(`${line}\n`);

function compiled(document: DocumentNode, name: string) {
  const query = compileQuery(schema, document, name);
  if (!isCompiledQuery(query)) throw new Error(`${name} does not compile`);
  return query;
}

async function main() {
  const host = machine();
  say('# Packline operations benchmark');
  say(`Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}; ${NEEDS.toLocaleString('en')} public needs on SQLite`);
  const dataDir = tempDir('packline-operations-');
  const env = packlineEnv({ DATA_DIR: dataDir });
  await seed(env, NEEDS, 10);
  const core = await openBenchCore(env);
  try {
    const contexts = new Contexts(core, 'bench-internal-token-0123456789');
    const grant = {
      keyId: 'bench',
      organizationId: 'bench',
      plan: 'clan',
      scopes: ['opportunities:read'],
      expiresAt: Date.now() + 3_600_000,
    } as const;
    const context = () => contexts.forApiKey(grant);
    const cursors = (await positions(core, 'opportunities', 1_000, 3_000)).deepCursors;
    const ids = (
      (await core.db.em.getConnection().execute("select id from needs where state = 'public' and demo = false")) as { id: string }[]
    ).map((r) => r.id);
    const list = compiled(RestOpportunitiesDocument, 'RestOpportunities');
    const byId = compiled(RestOpportunityDocument, 'RestOpportunity');
    const listVariables = (i: number) => ({ first: 1 + (i % 50), after: cursors[i % cursors.length] });
    const byIdVariables = (i: number) => ({ id: ids[i % ids.length] });
    const cases = [
      {
        operation: 'list page (distinct cursor, limit 1–50)',
        runs: 1_500,
        engine: 'graphql-js',
        run: (i: number) =>
          execute({ schema, document: RestOpportunitiesDocument, variableValues: listVariables(i), contextValue: context() }),
      },
      {
        operation: 'list page (distinct cursor, limit 1–50)',
        runs: 1_500,
        engine: 'graphql-jit',
        run: (i: number) => list.query(undefined, context(), listVariables(i)),
      },
      {
        operation: 'by-id (distinct id)',
        runs: 4_000,
        engine: 'graphql-js',
        run: (i: number) =>
          execute({ schema, document: RestOpportunityDocument, variableValues: byIdVariables(i), contextValue: context() }),
      },
      {
        operation: 'by-id (distinct id)',
        runs: 4_000,
        engine: 'graphql-jit',
        run: (i: number) => byId.query(undefined, context(), byIdVariables(i)),
      },
    ];
    // Both engines must give the same answer before their times mean anything.
    for (let i = 0; i < 20; i++) {
      const [js, jit] = await Promise.all([cases[0]!.run(i), cases[1]!.run(i)]);
      if (JSON.stringify(js) !== JSON.stringify(jit) || 'errors' in js) throw new Error('graphql-js and graphql-jit disagree');
    }
    const micros = new Map<(typeof cases)[number], number[]>(cases.map((c) => [c, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of cases) {
        const before = process.cpuUsage();
        for (let i = 0; i < c.runs; i++) await c.run(round * c.runs + i);
        const used = process.cpuUsage(before);
        micros.get(c)!.push((used.user + used.system) / c.runs);
      }
    }
    const rows = cases.map((c) => {
      const base = median(micros.get(cases.find((o) => o.operation === c.operation && o.engine === 'graphql-js')!)!);
      const own = median(micros.get(c)!);
      return [c.operation, c.engine, own.toFixed(0), formatPercent(own / base)];
    });
    say();
    say(markdownTable(['operation', 'engine', 'CPU µs per run (median of 3)', 'of graphql-js'], rows));
  } finally {
    await core.close();
    removeTempDir(dataDir);
  }
}

await main();
