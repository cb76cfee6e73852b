/**
 * Paired runs against another checkout: `npm run bench:paired -- --against DIR [--benchmarks
 * rest,churn,webhooks] [--pairs N] [--node PATH]`.
 *
 * Does a change keep the benchmarks' ratios? Runs each named benchmark (`npm run bench:NAME`) in
 * the checkout at DIR and in this one, one after the other, N times (the order flipped every pair:
 * other, this; this, other; …), and reads the ratios each run wrote to its results file (REST
 * against the bare node:http ceiling, churn's phase-to-phase rates, the webhook dispatcher against
 * the bare undici loop). Each benchmark runs on its own checkout's Node and dependencies, so an
 * older checkout runs as it was released (its scripts, its loader, its Node). With --node PATH the
 * other checkout runs on that Node instead (put first on its PATH; a checkout whose dependencies
 * carry a `node` package still runs its own, and every run prints the version it ran on): the
 * code's own effect, apart from the runtime's.
 *
 * Per ratio, per latency target (churn's p99s) and per rate behind the ratios (Packline's and the
 * ceiling's own, per second: a new runtime moves the bare ceilings too): every run's value, the two
 * medians, their change, a 90 % bootstrap interval of that change (resampling whole pairs, so that
 * the machine's drift between pairs stays inside a pair), and a verdict against a move of 5 % of
 * the value the wrong way (a ratio or rate falling, a latency rising): holds (the whole interval
 * on the right side of 5 %), worse (the whole interval beyond it), or undecided (more pairs narrow
 * the interval; fewer than three pairs give no verdict).
 *
 * DIR: a checkout with its dependencies installed, e.g. `git worktree add /tmp/before <commit> &&
 * (cd /tmp/before && npm ci)`. Every BENCH_* variable passes through to both sides. Each run's
 * output goes to a log file and its results file is copied beside it (the folder is printed).
 * Results: printed, and written to bench/results-paired.json. The exit code is 1 when a run failed, 0 otherwise.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutOptions, commitOf, nodeExecutable, otherCheckoutEnv, runScript, UsageError } from './support/other-checkout.ts';
import { ROOT } from './support/processes.ts';
import { figuresOf, PAIRED_BENCHES, pairedTable, pairUp, RESULTS_FILES, type Figure, type PairedBench } from './support/paired.ts';
import { formatPercent, machine, writeResults } from './support/report.ts';
import { positive } from './support/settings.ts';

const say = (line = '') => process.stdout.write(`${line}\n`);

interface Options {
  against: string;
  benches: PairedBench[];
  pairs: number;
  /** The Node the other checkout runs on, when not its own. */
  node: string | undefined;
}

function options(argv: string[]): Options {
  const { other, values } = checkoutOptions(argv, ['benchmarks', 'pairs', 'node']);
  let benches: PairedBench[] = [...PAIRED_BENCHES];
  if (values.benchmarks !== undefined) {
    const names = values.benchmarks.split(',').map((n) => n.trim());
    const unknown = names.filter((n) => !(PAIRED_BENCHES as readonly string[]).includes(n));
    if (unknown.length > 0 || names.length === 0)
      throw new UsageError(`--benchmarks takes ${PAIRED_BENCHES.join(', ')} (got '${unknown.join(', ') || '(none)'}')`);
    benches = names as PairedBench[];
  }
  const pairs = values.pairs === undefined ? positive('BENCH_PAIRS', 3, { integer: true }) : Number(values.pairs);
  if (!Number.isInteger(pairs) || pairs < 1) throw new UsageError(`--pairs takes a positive whole number (got '${values.pairs}')`);
  const missing = benches.filter((b) => !other.scripts[`bench:${b}`]);
  if (missing.length > 0) throw new UsageError(`${other.dir} has no ${missing.map((b) => `bench:${b}`).join(', ')} script`);
  return {
    against: other.dir,
    benches,
    pairs,
    node: values.node === undefined ? undefined : nodeExecutable(values.node, { onPath: true }),
  };
}

interface Run {
  bench: PairedBench;
  side: 'against' | 'current';
  pair: number;
  exitCode: number | null;
  seconds: number;
  log: string;
  node?: string;
  figures: Map<string, Figure>;
}

async function runOnce(
  bench: PairedBench,
  dir: string,
  env: NodeJS.ProcessEnv,
  logDir: string,
  label: string,
): Promise<Omit<Run, 'side' | 'pair'>> {
  const log = join(logDir, `${label}.log`);
  const out = createWriteStream(log);
  const started = Date.now();
  const child = spawn('npm', ['run', '--silent', `bench:${bench}`], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  const exitCode = await new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  out.end();
  const file = join(dir, RESULTS_FILES[bench]);
  const fresh = existsSync(file) && statSync(file).mtimeMs >= started;
  const results = fresh ? (JSON.parse(readFileSync(file, 'utf8')) as { machine?: { node?: string } }) : undefined;
  if (fresh) copyFileSync(file, join(logDir, `${label}.json`));
  return {
    bench,
    exitCode,
    seconds: Math.round((Date.now() - started) / 1000),
    log,
    ...(results?.machine?.node ? { node: results.machine.node } : {}),
    figures: results ? figuresOf(bench, results) : new Map(),
  };
}

async function main(): Promise<number> {
  const { against, benches, pairs, node } = options(process.argv.slice(2));
  const logDir = mkdtempSync(join(tmpdir(), 'packline-paired-'));
  const sides = {
    against: { dir: against, commit: commitOf(against), ...(node ? { node } : {}) },
    current: { dir: ROOT, commit: commitOf(ROOT) },
  };
  const envs = { against: otherCheckoutEnv(node), current: otherCheckoutEnv() };
  say('# Paired benchmark runs');
  say();
  say(`Machine: ${machine().cpu}, ${machine().cores} cores`);
  say(
    `Other checkout: ${against} (${sides.against.commit}${node ? `, on ${node}` : ''}); this checkout: ${ROOT} (${sides.current.commit})`,
  );
  say(`${pairs} pair(s) of ${benches.map((b) => `bench:${b}`).join(', ')}, the order flipped every pair; logs in ${logDir}`);
  say();

  const runs: Run[] = [];
  for (const bench of benches) {
    for (let pair = 1; pair <= pairs; pair++) {
      const order: Run['side'][] = pair % 2 === 1 ? ['against', 'current'] : ['current', 'against'];
      for (const side of order) {
        const run = { ...(await runOnce(bench, sides[side].dir, envs[side], logDir, `${bench}-${pair}-${side}`)), side, pair };
        runs.push(run);
        const ratios = [...run.figures]
          .flatMap(([name, f]) => (f.kind === 'ratio' ? [`${name} ${formatPercent(f.value)}`] : []))
          .join('; ');
        say(
          `bench:${bench} pair ${pair}/${pairs}, ${side === 'against' ? 'other' : 'this'} checkout (Node ${run.node ?? '?'}), ${run.seconds} s: ` +
            (run.exitCode === 0 && run.figures.size > 0 ? ratios : `FAILED (exit ${run.exitCode}, no fresh results; see ${run.log})`),
        );
      }
    }
  }

  say();
  say('## Ratios, paired');
  say();
  const tables: Record<string, string> = {};
  const judgements = benches.flatMap((bench) => {
    const of = (side: Run['side']) =>
      Array.from(
        { length: pairs },
        (_, i) => runs.find((r) => r.bench === bench && r.side === side && r.pair === i + 1)?.figures ?? new Map<string, Figure>(),
      );
    const judged = pairUp(of('against'), of('current'));
    tables[bench] = pairedTable(bench, judged);
    say(tables[bench]);
    say();
    return judged.map((j) => ({ bench, ...j }));
  });
  const failed = runs.filter((r) => r.exitCode !== 0 || r.figures.size === 0);
  if (failed.length > 0) say(`FAILED runs: ${failed.map((r) => `${r.bench} pair ${r.pair} ${r.side} (${r.log})`).join('; ')}`);
  const judged = judgements.filter((j) => j.kind !== 'rate');
  const worse = judged.filter((j) => j.verdict === 'worse');
  const undecided = judged.filter((j) => j.verdict === 'undecided');
  say(
    worse.length === 0 && undecided.length === 0
      ? 'Every ratio and latency holds within 5 % of its value.'
      : `Ratios and latencies: ${worse.length} worse by more than 5 % (${worse.map((j) => `${j.bench} ${j.figure}`).join('; ') || 'none'}), ` +
          `${undecided.length} undecided (${pairs} pairs; more pairs narrow the intervals).`,
  );
  const packlineWorse = judgements.filter((j) => j.kind === 'rate' && j.verdict === 'worse' && /Packline/.test(j.figure));
  if (packlineWorse.length > 0) say(`Packline's own rates that fell: ${packlineWorse.map((j) => `${j.bench} ${j.figure}`).join('; ')}.`);
  const file = join(ROOT, 'bench/results-paired.json');
  writeResults(file, {
    benchmark: 'paired',
    at: new Date().toISOString(),
    machine: machine(),
    sides,
    pairs,
    runs: runs.map((r) => ({ ...r, figures: Object.fromEntries(r.figures) })),
    judgements,
    tables,
  });
  say(`Written to ${file}`);
  return failed.length > 0 ? 1 : 0;
}

runScript('bench:paired', main);
