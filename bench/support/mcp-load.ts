// MCP load: N SDK clients (Client + StreamableHTTPClientTransport), each connected once, calling
// tools/call in a closed loop for a duration; latencies of successful calls.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cpuShare, cpuSnapshot } from './load.ts';

export interface McpLoadResult {
  tool: string;
  clients: number;
  durationS: number;
  callsPerSec: number;
  total: number;
  errors: number;
  toolErrors: number;
  firstError: string;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  machineCpuPercent: number;
  otherCpuPercent: number;
  /** CPU of this (load generator) process, % of ONE core. */
  benchCpuPercentOfCore: number;
  /** CPU of the server process, % of one core. */
  serverCpuPercentOfCore: number;
}

export async function connectClients(url: string, n: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const client = new Client({ name: 'packline-bench', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
}

export async function closeClients(clients: Client[]): Promise<void> {
  await Promise.allSettled(clients.map((c) => c.close()));
}

const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (n: number) => Math.round(n * 100) / 100;

/** A tool's arguments: the same for every call, or made for each call from its number. */
export type McpArgs = Record<string, unknown> | ((call: number) => Record<string, unknown>);

export async function mcpLoad(
  clients: Client[],
  tool: string,
  args: McpArgs,
  durationS: number,
  serverPid: number,
  otherPids: number[] = [],
): Promise<McpLoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let toolErrors = 0;
  let firstError = '';
  const watched = [process.pid, serverPid, ...otherPids];
  const before = cpuSnapshot(watched);
  const selfBefore = cpuSnapshot([process.pid]);
  const serverBefore = cpuSnapshot([serverPid]);
  const start = performance.now();
  const end = start + durationS * 1000;
  let calls = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const result = await client.callTool({ name: tool, arguments: typeof args === 'function' ? args(calls++) : args });
          if (result.isError) {
            toolErrors++;
            firstError ||= JSON.stringify(result.content).slice(0, 300);
          } else latencies.push(performance.now() - t0);
        } catch (error) {
          errors++;
          firstError ||= String(error).slice(0, 300);
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu = cpuShare(before, cpuSnapshot(watched));
  const selfAfter = cpuSnapshot([process.pid]);
  const serverAfter = cpuSnapshot([serverPid]);
  latencies.sort((a, b) => a - b);
  return {
    tool,
    clients: clients.length,
    durationS: round(elapsed),
    callsPerSec: round(latencies.length / elapsed),
    total: latencies.length,
    errors,
    toolErrors,
    firstError,
    p50Ms: round(pct(latencies, 50)),
    p90Ms: round(pct(latencies, 90)),
    p99Ms: round(pct(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? 0),
    machineCpuPercent: cpu.machinePercent,
    otherCpuPercent: cpu.otherPercent,
    benchCpuPercentOfCore: Math.round(((selfAfter.watchedMs - selfBefore.watchedMs) / (elapsed * 1000)) * 1000) / 10,
    serverCpuPercentOfCore: Math.round(((serverAfter.watchedMs - serverBefore.watchedMs) / (elapsed * 1000)) * 1000) / 10,
  };
}
