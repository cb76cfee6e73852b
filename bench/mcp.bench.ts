/**
 * MCP benchmark: `npm run bench:mcp`.
 *
 * Loads the public assistant connector (`/mcp`, stateless Streamable HTTP) of Packline, running as
 * a child process (demo data, fresh DATA_DIR, LOG_LEVEL=warn, MCP limits set so high they run but
 * refuse nothing), and compares it with a bare MCP SDK server in another child process (McpServer +
 * stateless StreamableHTTPServerTransport on node:http, fresh server and transport per request as
 * Packline does, one tool answering a constant structuredContent: the one search_organizations
 * returned). The load: BENCH_CLIENTS (default 50) SDK clients in this process, each connected
 * once, calling tools/call in a closed loop.
 *
 * Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3), BENCH_CLIENTS
 * (default 50), BENCH_WAIT_IDLE (s, default 60). Results: printed, and bench/results-mcp.json.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeClients, connectClients, mcpLoad, type McpArgs, type McpLoadResult } from './support/mcp-load.ts';
import { waitForIdle } from './support/load.ts';
import { ROOT, logSummary, startPackline, stopChild, tempDir, track } from './support/processes.ts';
import { formatInt, formatMs, formatPercent, machine, markdownTable, writeResults } from './support/report.ts';

const num = (name: string, fallback: number) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
  return n;
};
const DURATION = num('BENCH_DURATION', 10);
const WARMUP = num('BENCH_WARMUP', 3);
const CLIENTS = num('BENCH_CLIENTS', 50);
const WAIT_IDLE = num('BENCH_WAIT_IDLE', 60);
const RATIO_TARGET = 0.5;
const NOISE_PERCENT = 5;
const RESULTS_FILE = join(ROOT, 'bench/results-mcp.json');
const say = (line = '') => process.stdout.write(`${line}\n`);

const TOOLS = [
  { name: 'search_organizations', args: { capability: 'interior design' } },
  { name: 'get_organization', args: { id: 'atelier-nord' } },
];

/**
 * `text` with the case of its letters set by the bits of `n` (2^14 spellings of "interior
 * design"): the same search, but a key the connector's answer cache has not seen within its
 * 5-second window, so every call runs the GraphQL operation.
 */
function spelling(text: string, n: number): string {
  let bit = 0;
  return [...text].map((c) => (/[a-z]/.test(c) ? ((n >> bit++) & 1 ? c.toUpperCase() : c) : c)).join('');
}
const UNCACHED = {
  label: 'Packline search_organizations, new spelling per call (no kept answer)',
  name: 'search_organizations',
  args: (call: number) => ({ capability: spelling('interior design', call + 1) }),
};

async function startBare(payload: unknown) {
  const dir = tempDir('packline-bench-mcp-');
  const file = join(dir, 'payload.json');
  writeFileSync(file, JSON.stringify(payload));
  const child = track(
    spawn(process.execPath, [join(ROOT, 'bench/support/mcp-bare-server.ts')], {
      cwd: ROOT,
      env: { ...process.env, PACKLINE_BENCH_MCP_PAYLOAD: file, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const port = await new Promise<number>((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error('the bare MCP server did not start in 30 s')), 30_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        done(Number(m[1]));
      }
    });
    child.once('exit', (code) => fail(new Error(`the bare MCP server exited (${code})`)));
  });
  return { child, url: `http://127.0.0.1:${port}/mcp`, stop: () => stopChild(child) };
}

async function main() {
  const host = machine();
  say('# Packline MCP benchmark (public connector /mcp)');
  say();
  say(`Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}, ${host.platform}, ${host.memoryGb} GB`);
  say(`Load: ${CLIENTS} MCP SDK clients in one process, closed loop, ${DURATION} s per phase after ${WARMUP} s warm-up`);
  const idle = await waitForIdle(WAIT_IDLE * 1000, NOISE_PERCENT, (p) => say(`Waiting for an idle machine: ${p} % busy...`));
  say(`Machine busy before start: ${idle.machinePercent} % (load average ${idle.loadAverage.join(', ')})`);
  const notes: string[] = [];
  if (idle.machinePercent > NOISE_PERCENT) notes.push(`the machine was ${idle.machinePercent} % busy before the start`);

  say('Starting Packline (demo data, LOG_LEVEL=warn)...');
  const server = await startPackline({
    env: {
      LOG_LEVEL: 'warn',
      MCP_RATE_LIMIT_PER_MINUTE: '1000000000',
      MCP_COMPOSE_LIMIT_PER_HOUR: '1000000000',
      RATE_LIMIT_PER_MINUTE: '1000000000',
    },
  });
  say(`  ${server.origin}`);
  let bare: Awaited<ReturnType<typeof startBare>> | undefined;
  const results: Record<string, McpLoadResult> = {};
  const warmups: Record<string, McpLoadResult> = {};
  try {
    const mcpUrl = `${server.origin}/mcp`;
    const [probe] = await connectClients(mcpUrl, 1);
    const sizes: Record<string, number> = {};
    let payload: unknown;
    for (const tool of TOOLS) {
      const r = await probe!.callTool({ name: tool.name, arguments: tool.args });
      if (r.isError || !r.structuredContent) throw new Error(`${tool.name} failed: ${JSON.stringify(r.content).slice(0, 500)}`);
      sizes[tool.name] = JSON.stringify(r.structuredContent).length;
      if (tool.name === 'search_organizations') payload = r.structuredContent;
    }
    // The uncached phase must do the same work: its spellings find what the plain search finds.
    const plain = JSON.stringify((await probe!.callTool({ name: 'search_organizations', arguments: TOOLS[0]!.args })).structuredContent);
    for (const call of [0, 5_000, 16_382]) {
      const r = await probe!.callTool({ name: UNCACHED.name, arguments: UNCACHED.args(call) });
      if (JSON.stringify(r.structuredContent) !== plain)
        throw new Error(`search_organizations ${JSON.stringify(UNCACHED.args(call))} answers differently from the plain spelling`);
    }
    await probe!.close();
    say(`  structuredContent sizes: ${JSON.stringify(sizes)}`);

    say('Starting the bare MCP SDK server (constant search_organizations result)...');
    bare = await startBare(payload);
    const pids = [server.child.pid!, bare.child.pid!];

    say(`Connecting ${CLIENTS} clients to each server...`);
    const packClients = await connectClients(mcpUrl, CLIENTS);
    const bareClients = await connectClients(bare.url, CLIENTS);

    const phases = [
      ...TOOLS.map((t) => ({
        label: `Packline ${t.name}`,
        clients: packClients,
        tool: t.name,
        args: t.args as McpArgs,
        pid: server.child.pid!,
      })),
      { label: UNCACHED.label, clients: packClients, tool: UNCACHED.name, args: UNCACHED.args as McpArgs, pid: server.child.pid! },
      { label: 'bare SDK constant', clients: bareClients, tool: 'constant', args: { capability: 'interior design' }, pid: bare.child.pid! },
    ];
    for (const p of phases) {
      say(`Warm-up ${p.label} (${WARMUP} s)...`);
      warmups[p.label] = await mcpLoad(
        p.clients,
        p.tool,
        p.args,
        WARMUP,
        p.pid,
        pids.filter((x) => x !== p.pid),
      );
    }
    for (const p of phases) {
      await sleep(1000);
      say(`Measuring ${p.label} (${DURATION} s)...`);
      const r = await mcpLoad(
        p.clients,
        p.tool,
        p.args,
        DURATION,
        p.pid,
        pids.filter((x) => x !== p.pid),
      );
      results[p.label] = r;
      say(
        `  ${formatInt(r.callsPerSec)} calls/s, p50 ${formatMs(r.p50Ms)} ms, p99 ${formatMs(r.p99Ms)} ms, errors ${r.errors + r.toolErrors}, bench CPU ${r.benchCpuPercentOfCore} % of a core, server CPU ${r.serverCpuPercentOfCore} % of a core`,
      );
      if (r.errors + r.toolErrors > 0)
        notes.push(`${p.label}: ${r.errors} transport errors, ${r.toolErrors} tool errors, e.g. ${r.firstError}`);
    }
    await closeClients([...packClients, ...bareClients]);
  } finally {
    await bare?.stop();
    await server.stop();
  }
  const logs = logSummary(server.logFile);
  for (const level of ['warn', 'error', 'fatal'])
    if (logs.byLevel[level]) notes.push(`server log: ${logs.byLevel[level]} ${level} line(s), e.g. ${logs.problems[0] ?? ''}`);

  const ceiling = results['bare SDK constant']!;
  const rows = Object.entries(results).map(([label, r]) => {
    const ratio = label.startsWith('Packline') ? r.callsPerSec / ceiling.callsPerSec : undefined;
    // The uncached phase shows what a kept answer saves; the target is the tools' as served.
    const targeted = ratio !== undefined && label !== UNCACHED.label;
    const verdict =
      ratio === undefined ? 'ceiling' : !targeted ? 'measured' : ratio >= RATIO_TARGET ? 'OK' : `MISSED (< ${formatPercent(RATIO_TARGET)})`;
    return { label, r, ratio, targeted, verdict };
  });
  const saturated = Object.values(results).some((r) => r.benchCpuPercentOfCore >= 85);
  if (saturated)
    notes.push(
      `the load generator (${CLIENTS} SDK clients in one process) used ≥ 85 % of a core in at least one phase: it is likely saturated and the ceiling understated (see bench CPU column)`,
    );

  say();
  say('## Results');
  say();
  say(`Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}; ${CLIENTS} SDK clients, ${DURATION} s per phase.`);
  say();
  say(
    markdownTable(
      [
        'tool',
        'calls/s',
        'p50 ms',
        'p99 ms',
        'ratio to bare',
        'target',
        'bench CPU % core',
        'server CPU % core',
        'machine CPU %',
        'verdict',
      ],
      rows.map(({ label, r, ratio, targeted, verdict }) => [
        label,
        formatInt(r.callsPerSec),
        formatMs(r.p50Ms),
        formatMs(r.p99Ms),
        ratio === undefined ? '-' : formatPercent(ratio),
        targeted ? `≥ ${formatPercent(RATIO_TARGET)}` : '-',
        r.benchCpuPercentOfCore,
        r.serverCpuPercentOfCore,
        r.machineCpuPercent,
        verdict,
      ]),
    ),
  );
  say();
  for (const note of notes) say(`Note: ${note}`);
  writeResults(RESULTS_FILE, {
    benchmark: 'mcp',
    at: new Date().toISOString(),
    machine: host,
    idleBefore: idle,
    settings: { clients: CLIENTS, durationS: DURATION, warmupS: WARMUP, ratioTarget: RATIO_TARGET, logLevel: 'warn', tools: TOOLS },
    results: rows.map(({ label, r, ratio, targeted, verdict }) => ({ label, ratio, targeted, verdict, ...r })),
    warmups,
    serverLog: logs,
    notes,
  });
  say(`Results written to ${RESULTS_FILE}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
