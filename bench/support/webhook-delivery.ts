// Phase 1: many needs to many destinations through the real dispatcher, then the same requests
// replayed by a bare undici loop (the ceiling) to the same receiver.
import { setTimeout as sleep } from 'node:timers/promises';
import { captureRequests, checkDeliveries, type CapturedRequest, type DeliveryCheck } from './webhook-analysis.ts';
import { replay, type ReplayResult } from './webhook-ceiling.ts';
import {
  benchInternalToken,
  createDestinations,
  createdEventId,
  graphqlClient,
  publishNeeds,
  waitRecorded,
  wallNow,
  type RecordedCheck,
} from './webhook-graphql.ts';
import { monotonicUs, sqlSummary, summarizeProfile, type ProfileSummary, type SqlSummary } from './webhook-profile.ts';
import { waitForReceipts, type WebhookReceiver } from './webhook-receiver.ts';
import { runBacklogPhase, type BacklogPhase } from './webhook-backlog.ts';
import { cpuWatch, type PhaseCpu, type WaitIdle } from './webhook-cpu.ts';
import { type MemoryPeak, watchMemory } from './memory.ts';
import { startWebhookServer, type SourceState } from './webhook-servers.ts';

type Say = (line?: string) => void;
const noWait: WaitIdle = async () => undefined;

export interface DeliveryPhase {
  destinations: number;
  organizations: number;
  needs: number;
  warmupNeeds: number;
  setupMs: number;
  warmup: DeliveryCheck | undefined;
  /** publishNeed calls: wall time and rate, as the bench process saw them. */
  publish: { ms: number; perSecond: number; concurrency: number };
  check: DeliveryCheck;
  /** Deliveries received after the last publishNeed answer, over the time from it to the last receipt: the rate without publishing competing for the server. */
  drain: { deliveries: number; ms: number; perSecond: number };
  /** False when the receiver stopped getting requests before the expected count. */
  complete: boolean;
  /** The server's own record, newest 50 deliveries of each destination, once nothing was pending. */
  recorded: RecordedCheck & { settledAfterLastReceiptMs: number | null };
  cpu: PhaseCpu;
  serverExit: number | null;
  serverLog: { lines: number; byLevel: Record<string, number>; problems: string[] };
  /** The server's resident memory over its whole life (warm-up, live phase, backlogs). */
  memory: MemoryPeak;
  profiles: ProfileSummary[];
  /** With BENCH_SQL_TRACE: SQLite statements the server ran from the first publish to the last receipt. */
  sql: SqlSummary | undefined;
  /** The delivery code the server ran. */
  sources: SourceState;
}

const PUBLISH_CONCURRENCY = 8;

/**
 * Fresh server, `destinationCount` destinations, `warmupNeeds` needs delivered untimed (JIT,
 * connections), then `needs` published as fast as PUBLISH_CONCURRENCY allows; waits for every
 * delivery at the receiver and for the server's record of them. Returns the figures and the
 * captured requests (bodies + headers per path) for the ceiling.
 */
export async function runDeliveryPhase(
  receiver: WebhookReceiver,
  {
    needs,
    destinationCount,
    warmupNeeds,
    profile,
    sqlTrace = false,
    say,
    waitIdle = noWait,
    backlogRepeats = 0,
  }: {
    needs: number;
    destinationCount: number;
    warmupNeeds: number;
    profile: boolean;
    sqlTrace?: boolean;
    say: Say;
    waitIdle?: WaitIdle;
    /** Backlogs to run after the live phase (0: none); the median run is the dispatcher's rate. */
    backlogRepeats?: number;
  },
): Promise<{ phase: DeliveryPhase; captured: Map<string, CapturedRequest[]>; backlogs: BacklogPhase[] }> {
  const token = benchInternalToken();
  say(`Starting a Packline server (fresh SQLite data directory${profile ? ', --cpu-prof' : ''}${sqlTrace ? ', SQL trace' : ''})...`);
  const packline = await startWebhookServer({ token, profile, sqlTrace, label: 'delivery' });
  const memory = watchMemory(packline.server.child.pid!);
  const client = graphqlClient(packline.server.origin, token);
  let stopped: Awaited<ReturnType<typeof packline.stop>> | undefined;
  try {
    const setupStart = Date.now();
    const destinations = await createDestinations(client, {
      prefix: 'bench-dlv',
      count: destinationCount,
      receiverOrigin: receiver.origin,
    });
    const organizations = [...new Set(destinations.map((d) => d.organizationId))];
    const setupMs = Date.now() - setupStart;
    say(`  ${destinations.length} destinations in ${organizations.length} Clan organizations (${setupMs} ms)`);

    let warmup: DeliveryCheck | undefined;
    if (warmupNeeds > 0) {
      say(`Warm-up: ${warmupNeeds} needs → ${warmupNeeds * destinations.length} deliveries (untimed)...`);
      await receiver.reset();
      const published = await publishNeeds(client, {
        organizations,
        count: warmupNeeds,
        concurrency: PUBLISH_CONCURRENCY,
        offset: 1_000_000,
      });
      const wait = await waitForReceipts(receiver, warmupNeeds * destinations.length, { stallMs: 30_000 });
      if (!wait.reached) throw new Error(`warm-up: the receiver got ${wait.count} of ${warmupNeeds * destinations.length} deliveries`);
      await waitRecorded(client, destinations, 'destination', 30_000);
      warmup = checkDeliveries(await receiver.dump(), destinations, published.needIds.map(createdEventId), 0.01);
      say(`  ${brief(warmup)}`);
      await sleep(1_000);
    }

    await waitIdle('phase 1 dispatcher');
    await receiver.reset();
    const expected = needs * destinations.length;
    say(`Measuring: ${needs} needs → ${expected} deliveries...`);
    const sqlBefore = await packline.sqlReading();
    const cpu = cpuWatch({ server: packline.server.child.pid!, receiver: receiver.child.pid!, bench: process.pid });
    const startUs = monotonicUs();
    const startWall = wallNow();
    const published = await publishNeeds(client, { organizations, count: needs, concurrency: PUBLISH_CONCURRENCY });
    const publishMs = published.endedAt - published.startedAt;
    say(`  published in ${Math.round(publishMs)} ms (${Math.round((needs / publishMs) * 1000)} needs/s)`);
    const wait = await waitForReceipts(receiver, expected, {
      stallMs: 60_000,
      onProgress: (count) => say(`  ... ${count} / ${expected} received`),
    });
    const phaseCpu = cpu.stop();
    const sqlAfter = await packline.sqlReading();
    const endUs = startUs + (wait.lastAt - startWall) * 1000;
    // Late duplicates would arrive now.
    await sleep(1_000);
    const recorded = await waitRecorded(client, destinations, 'destination', 60_000);
    const receipts = await receiver.dump();
    const check = checkDeliveries(receipts, destinations, published.needIds.map(createdEventId), 1);
    say(`  ${brief(check)}`);
    const drained = receipts.filter((r) => r.at > published.endedAt).length;
    const drainMs = check.lastReceiptAt - published.endedAt;
    const drain = { deliveries: drained, ms: Math.round(drainMs), perSecond: drainMs > 0 ? Math.round((drained / drainMs) * 1000) : 0 };

    // Then, on the same (warm) server, the dispatcher's own rate on backlogs: one run lasts about
    // two seconds, so it is repeated as the ceiling is.
    const afterwards = [];
    for (let i = 0; i < backlogRepeats; i++) {
      if (backlogRepeats > 1) say(`Backlog run ${i + 1}/${backlogRepeats}:`);
      afterwards.push(
        await runBacklogPhase(receiver, { packline, client, destinations, needIds: published.needIds, version: i + 2, say, waitIdle }),
      );
    }

    const memoryPeak = memory.read();
    memory.stop();
    stopped = await packline.stop();
    const profiles = stopped.profiles.map((file) => summarizeProfile(file, { startUs, endUs }));
    for (const run of afterwards) run.phase.profiles = stopped.profiles.map((file) => summarizeProfile(file, run.window));
    return {
      phase: {
        destinations: destinations.length,
        organizations: organizations.length,
        needs,
        warmupNeeds,
        setupMs,
        warmup,
        publish: { ms: Math.round(publishMs), perSecond: Math.round((needs / publishMs) * 1000), concurrency: PUBLISH_CONCURRENCY },
        check,
        drain,
        complete: wait.reached,
        recorded: {
          ...recorded,
          settledAfterLastReceiptMs: recorded.settledAt === null ? null : Math.round(recorded.settledAt - check.lastReceiptAt),
        },
        cpu: phaseCpu,
        serverExit: stopped.exitCode,
        serverLog: stopped.log,
        memory: memoryPeak,
        profiles,
        sql: sqlBefore && sqlAfter ? sqlSummary(sqlBefore, sqlAfter, expected) : undefined,
        sources: packline.sources,
      },
      captured: captureRequests(receipts),
      backlogs: afterwards.map((run) => run.phase),
    };
  } finally {
    await client.close();
    if (!stopped) await packline.stop();
  }
}

export interface CeilingRun {
  result: ReplayResult;
  /** Requests the receiver counted during this replay. */
  receivedByReceiver: number;
  cpu: PhaseCpu;
}

export interface CeilingPhase {
  warmup: ReplayResult;
  /** Every measured replay, in order. */
  runs: CeilingRun[];
  /** The run with the median rate (the ceiling figure). */
  median: CeilingRun;
}

/**
 * Replays every captured request, one sequential loop per path, after an untimed warm-up;
 * `repeats` times (a replay of 20,000 requests lasts about two seconds, so one run is noisy),
 * keeping the median.
 */
export async function runCeilingPhase(
  receiver: WebhookReceiver,
  captured: Map<string, CapturedRequest[]>,
  { warmupPerLane, repeats, say, waitIdle = noWait }: { warmupPerLane: number; repeats: number; say: Say; waitIdle?: WaitIdle },
): Promise<CeilingPhase> {
  const total = [...captured.values()].reduce((sum, list) => sum + list.length, 0);
  say(`Ceiling warm-up: ${warmupPerLane} requests per lane, ${captured.size} lanes (untimed)...`);
  await receiver.reset();
  const warmup = await replay(receiver.origin, captured, warmupPerLane);
  const runs: CeilingRun[] = [];
  for (let i = 1; i <= repeats; i++) {
    await sleep(1_000);
    await waitIdle('phase 1 ceiling');
    await receiver.reset();
    say(`Measuring the ceiling (${i}/${repeats}): ${total} captured requests replayed, ${captured.size} sequential lanes...`);
    const cpu = cpuWatch({ receiver: receiver.child.pid!, bench: process.pid });
    const result = await replay(receiver.origin, captured);
    const phaseCpu = cpu.stop();
    const count = await receiver.count();
    say(`  ${result.perSecond} req/s, ${result.requests} requests in ${result.wallMs} ms, statuses ${JSON.stringify(result.statuses)}`);
    runs.push({ result, receivedByReceiver: count.count, cpu: phaseCpu });
  }
  await receiver.reset();
  const sorted = [...runs].sort((a, b) => a.result.perSecond - b.result.perSecond);
  return { warmup, runs, median: sorted[Math.floor((sorted.length - 1) / 2)]! };
}

export const brief = (c: DeliveryCheck) =>
  `${c.received} received (${c.unique} unique of ${c.expected}, ${c.duplicates} duplicates, ${c.missing} missing), ` +
  `${c.perSecond} deliveries/s over ${c.spanMs} ms, lag p50 ${c.lag.p50Ms} ms p99 ${c.lag.p99Ms} ms, ` +
  `signatures ${c.signatures.valid}/${c.signatures.checked} valid`;
