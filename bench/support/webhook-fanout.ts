// Phase 2: one need to many destinations, on a fresh server so earlier rows do not interfere.
import { setTimeout as sleep } from 'node:timers/promises';
import { checkDeliveries, type DeliveryCheck } from './webhook-analysis.ts';
import { cpuWatch, type PhaseCpu, type WaitIdle } from './webhook-cpu.ts';
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
import { sqlSummary, type SqlSummary } from './webhook-profile.ts';
import { waitForReceipts, type WebhookReceiver } from './webhook-receiver.ts';
import { startWebhookServer, type SourceState } from './webhook-servers.ts';

type Say = (line?: string) => void;

export interface FanoutRound {
  /** `cold`: the server's first signal (lanes, connections and JIT all new); `warm`: the next one. */
  label: 'cold' | 'warm';
  check: DeliveryCheck;
  complete: boolean;
  /** From the publishNeed request leaving the bench to the last receipt. */
  fromRequestMs: number;
  /** From the commit (`occurred_at`) to the last receipt. */
  fromCommitMs: number;
  cpu: PhaseCpu;
  /** With BENCH_SQL_TRACE: SQLite statements from the publish to the last receipt (per unit: per delivery). */
  sql?: SqlSummary;
}

export interface FanoutPhase {
  destinations: number;
  organizations: number;
  setupMs: number;
  rounds: FanoutRound[];
  recorded: RecordedCheck & { settledAt: number | null };
  serverExit: number | null;
  serverLog: { lines: number; byLevel: Record<string, number>; problems: string[] };
  /** The delivery code the server ran. */
  sources: SourceState;
}

/** Fresh server, `destinationCount` destinations; one need (cold), a pause, one more need (warm). */
export async function runFanoutPhase(
  receiver: WebhookReceiver,
  {
    destinationCount,
    sqlTrace = false,
    say,
    waitIdle = async () => undefined,
  }: { destinationCount: number; sqlTrace?: boolean; say: Say; waitIdle?: WaitIdle },
): Promise<FanoutPhase> {
  const token = benchInternalToken();
  say(`Starting a second Packline server (fresh SQLite data directory${sqlTrace ? ', SQL trace' : ''})...`);
  const packline = await startWebhookServer({ token, sqlTrace, label: 'fanout' });
  const client = graphqlClient(packline.server.origin, token);
  let stopped: Awaited<ReturnType<typeof packline.stop>> | undefined;
  try {
    const setupStart = Date.now();
    const destinations = await createDestinations(client, {
      prefix: 'bench-fan',
      count: destinationCount,
      receiverOrigin: receiver.origin,
    });
    const organizations = [...new Set(destinations.map((d) => d.organizationId))];
    const setupMs = Date.now() - setupStart;
    say(`  ${destinations.length} destinations in ${organizations.length} Clan organizations (${setupMs} ms)`);
    const rounds: FanoutRound[] = [];
    for (const label of ['cold', 'warm'] as const) {
      await sleep(1_000);
      await waitIdle(`fan-out ${label}`);
      await receiver.reset();
      say(`Fan-out (${label}): 1 need → ${destinations.length} deliveries...`);
      const sqlBefore = await packline.sqlReading();
      const cpu = cpuWatch({ server: packline.server.child.pid!, receiver: receiver.child.pid!, bench: process.pid });
      const sentAt = wallNow();
      const published = await publishNeeds(client, { organizations: [organizations[0]!], count: 1, offset: rounds.length });
      const wait = await waitForReceipts(receiver, destinations.length, { stallMs: 30_000 });
      const phaseCpu = cpu.stop();
      const sqlAfter = await packline.sqlReading();
      await sleep(500);
      const check = checkDeliveries(await receiver.dump(), destinations, published.needIds.map(createdEventId), 1);
      const round: FanoutRound = {
        label,
        check,
        complete: wait.reached,
        fromRequestMs: Math.round(check.lastReceiptAt - sentAt),
        fromCommitMs: check.spanMs,
        cpu: phaseCpu,
        ...(sqlBefore && sqlAfter ? { sql: sqlSummary(sqlBefore, sqlAfter, destinations.length) } : {}),
      };
      rounds.push(round);
      say(
        `  last receipt ${round.fromCommitMs} ms after the commit (${round.fromRequestMs} ms after the request), lag p50 ${check.lag.p50Ms} ms, p99 ${check.lag.p99Ms} ms; ` +
          `${check.unique} unique of ${check.expected}, ${check.duplicates} duplicates, signatures ${check.signatures.valid}/${check.signatures.checked} valid`,
      );
      await waitRecorded(client, destinations, 'organization', 30_000);
    }
    const recorded = await waitRecorded(client, destinations, 'organization', 30_000);
    await receiver.reset();
    stopped = await packline.stop();
    return {
      destinations: destinations.length,
      organizations: organizations.length,
      setupMs,
      rounds,
      recorded,
      serverExit: stopped.exitCode,
      serverLog: stopped.log,
      sources: packline.sources,
    };
  } finally {
    await client.close();
    if (!stopped) await packline.stop();
  }
}
