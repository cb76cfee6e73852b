// The measured rounds of bench:computed: Packline and the hand-written server in turn on the same
// paths, and their comparison.
import { cpus } from 'node:os';
import { clean, load, type LoadResult } from './load.ts';
import { cpuMs } from './computed.ts';
import { formatInt, formatMs } from './report.ts';

export interface Endpoint {
  name: string;
  kind: 'by-id' | 'list';
  /** Paths every request takes in turn: more than any cache holds. */
  paths: string[];
  /** Least Packline/hand-written ratio of req/s. */
  target: number;
}

type ServerName = 'packline' | 'hand';

export interface Round {
  endpoint: Endpoint['kind'];
  server: ServerName;
  round: number;
  load: LoadResult;
  /** CPU the server process used in the round, µs per answer. */
  cpuUsPerAnswer: number;
  /** CPU of the database's server processes (PostgreSQL backends) in the round, µs per answer. */
  databaseCpuUsPerAnswer?: number;
}

const rotated = <T>(items: T[], by: number) => [...items.slice(by), ...items.slice(0, by)];

/**
 * Per endpoint, `rounds` rounds of each server, the order flipped every round (A B, B A, …) so a
 * drift of the machine's load falls on both; each round starts further along the paths, so that
 * no round asks what the one before it asked.
 */
export async function measureRounds({
  endpoints,
  servers,
  rounds,
  duration,
  connections,
  phaseAuth,
  databasePids,
  say,
}: {
  endpoints: Endpoint[];
  servers: Record<ServerName, { origin: string; pid: number }>;
  rounds: number;
  duration: number;
  connections: number;
  phaseAuth: (phase: number) => string[];
  /**
   * PostgreSQL's backends serving the servers, now: their CPU is the benchmark's (not noise) and
   * is shown per answer. Read at each round's start and end, as the pools open and close them.
   */
  databasePids?: () => number[];
  say: (line: string) => void;
}): Promise<Round[]> {
  const out: Round[] = [];
  for (const [e, endpoint] of endpoints.entries()) {
    for (let round = 0; round < rounds; round++) {
      const paths = rotated(endpoint.paths, Math.floor((round * endpoint.paths.length) / rounds));
      const order: ServerName[] = round % 2 === 0 ? ['packline', 'hand'] : ['hand', 'packline'];
      for (const server of order) {
        const { origin, pid } = servers[server];
        const before = cpuMs(pid);
        const backends = databasePids?.() ?? [];
        const databaseBefore = new Map(backends.map((p) => [p, cpuMs(p)]));
        const pids = [servers.packline.pid, servers.hand.pid, ...backends];
        const r = await load({
          url: origin + paths[0],
          connections,
          duration,
          pids,
          rotate: { paths, authorizations: phaseAuth(e * rounds + round) },
        });
        const perAnswer = (ms: number) => (ms * 1000) / Math.max(1, r.total);
        const cpuUsPerAnswer = perAnswer(cpuMs(pid) - before);
        // A backend opened during the round counts from its start; one closed during it is lost.
        const backendsAfter = databasePids?.() ?? [];
        const databaseMs = backendsAfter.reduce((sum, p) => sum + cpuMs(p) - (databaseBefore.get(p) ?? 0), 0);
        // The server's pool opens backends during a round when its connections idled out during
        // the other server's: not watched by the load run, they are this benchmark's work, not
        // another process's.
        const openedMs = backendsAfter.reduce((sum, p) => sum + (databaseBefore.has(p) ? 0 : cpuMs(p)), 0);
        r.otherCpuPercent = Math.max(
          0,
          Math.round((r.otherCpuPercent - (openedMs / (r.durationS * 1000 * cpus().length)) * 100) * 10) / 10,
        );
        const databaseCpuUsPerAnswer = databasePids ? perAnswer(databaseMs) : undefined;
        out.push({ endpoint: endpoint.kind, server, round: round + 1, load: r, cpuUsPerAnswer, databaseCpuUsPerAnswer });
        say(
          `${endpoint.kind} round ${round + 1} ${server === 'hand' ? 'hand-written' : 'Packline'}: ${formatInt(r.reqPerSec)} req/s, p50 ${formatMs(r.p50Ms)} ms, p99 ${formatMs(r.p99Ms)} ms, ${formatInt(cpuUsPerAnswer)} µs CPU/answer${databaseCpuUsPerAnswer === undefined ? '' : ` (+ ${formatInt(databaseCpuUsPerAnswer)} µs in PostgreSQL)`}, others ${r.otherCpuPercent} % CPU` +
            (r.otherCpuPercent > 1 && r.otherProcesses ? ` (${r.otherProcesses})` : '') +
            (clean(r) ? '' : `, NON-2XX ${JSON.stringify(r.statusCodes)}, errors ${r.errors}, timeouts ${r.timeouts}`),
        );
      }
    }
  }
  return out;
}

export interface Side {
  /** Means over the rounds. */
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** All the rounds' CPU over all their answers. */
  cpuUsPerAnswer: number;
  /** The same for PostgreSQL's backends, when watched. */
  databaseCpuUsPerAnswer?: number;
  answers: number;
}

export interface Summary {
  endpoint: string;
  kind: Endpoint['kind'];
  packline: Side;
  hand: Side;
  /** Packline's req/s over the hand-written server's. */
  ratio: number;
  /**
   * The hand-written server's CPU per answer over Packline's: the same comparison by the work each
   * answer costs, which other processes on the machine disturb less than they disturb req/s.
   */
  cpuRatio: number;
  target: number;
  valid: boolean;
  met: boolean;
  verdict: string;
}

function side(rounds: Round[]): Side {
  const mean = (f: (r: Round) => number) => rounds.reduce((sum, r) => sum + f(r), 0) / rounds.length;
  const answers = rounds.reduce((sum, r) => sum + r.load.total, 0);
  const cpu = rounds.reduce((sum, r) => sum + r.cpuUsPerAnswer * r.load.total, 0);
  const database = rounds.reduce((sum, r) => sum + (r.databaseCpuUsPerAnswer ?? 0) * r.load.total, 0);
  return {
    reqPerSec: Math.round(mean((r) => r.load.reqPerSec)),
    p50Ms: Math.round(mean((r) => r.load.p50Ms) * 10) / 10,
    p99Ms: Math.round(mean((r) => r.load.p99Ms) * 10) / 10,
    cpuUsPerAnswer: Math.round(cpu / Math.max(1, answers)),
    ...(rounds.some((r) => r.databaseCpuUsPerAnswer !== undefined)
      ? { databaseCpuUsPerAnswer: Math.round(database / Math.max(1, answers)) }
      : {}),
    answers,
  };
}

export function summarize(endpoint: Endpoint, rounds: Round[], noisePercent: number): Summary {
  const mine = rounds.filter((r) => r.endpoint === endpoint.kind);
  const packline = side(mine.filter((r) => r.server === 'packline'));
  const hand = side(mine.filter((r) => r.server === 'hand'));
  const ratio = Math.round((packline.reqPerSec / Math.max(1, hand.reqPerSec)) * 100) / 100;
  const cpuRatio = Math.round((hand.cpuUsPerAnswer / Math.max(1, packline.cpuUsPerAnswer)) * 100) / 100;
  const valid = mine.every((r) => clean(r.load));
  const met = valid && ratio >= endpoint.target;
  let verdict = !valid ? 'INVALID (non-2xx answers or errors)' : met ? 'OK' : `MISSED (${ratio.toFixed(2)} < ${endpoint.target})`;
  const noisiest = mine.reduce((a, b) => (b.load.otherCpuPercent > a.load.otherCpuPercent ? b : a));
  const noise = noisiest.load.otherCpuPercent;
  if (noise > noisePercent) verdict += `, NOISY (others took up to ${noise} % of the CPU: ${noisiest.load.otherProcesses})`;
  return { endpoint: endpoint.name, kind: endpoint.kind, packline, hand, ratio, cpuRatio, target: endpoint.target, valid, met, verdict };
}
