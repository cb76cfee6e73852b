// Phase 1b: the dispatcher's own rate, on the live phase's server (warm, its destinations in
// place). A backlog of signals appears in the outbox at once: every need of the live phase
// updated, written by another process in one transaction, as a bulk change made through the CLI
// would be. The clock runs from that commit to the last receipt: noticing the change (the
// server polls for other processes' changes every 100 ms), fan-out, lane reads, signing, sending
// and recording are all in it; publishing through GraphQL (about 5 ms of server time per need,
// which bounds the live phase) is not.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkDeliveries, type DeliveryCheck } from './webhook-analysis.ts';
import { cpuWatch, type PhaseCpu, type WaitIdle } from './webhook-cpu.ts';
import { waitRecorded, wallNow, type BenchDestination, type GraphqlClient, type RecordedCheck } from './webhook-graphql.ts';
import { monotonicUs, sqlSummary, type ProfileSummary, type SqlSummary } from './webhook-profile.ts';
import { waitForReceipts, type WebhookReceiver } from './webhook-receiver.ts';
import type { WebhookServer } from './webhook-servers.ts';

type Say = (line?: string) => void;

interface Connection {
  prepare(sql: string): { run(params: unknown[]): unknown; all(params: unknown[]): unknown[] };
  exec(sql: string): void;
  close(): void;
}
const LibSql = createRequire(import.meta.url)('libsql') as new (path: string) => Connection;

export interface BacklogPhase {
  needs: number;
  destinations: number;
  check: DeliveryCheck;
  complete: boolean;
  /** From the commit of the backlog to the last receipt. */
  spanMs: number;
  /** Deliveries over `spanMs`: the figure compared with the ceiling. */
  perSecond: number;
  /** From the commit to the first receipt. */
  firstReceiptMs: number;
  recorded: RecordedCheck & { settledAfterLastReceiptMs: number | null };
  cpu: PhaseCpu;
  /** Filled in once the server stopped (its profiles are written at exit). */
  profiles: ProfileSummary[];
  sql: SqlSummary | undefined;
}

/** The envelope id of a backlog's signal for a need of the live phase. */
export const backlogEventId = (needId: string, version: number) => `evt-need.updated-${needId}-v${version}`;

/**
 * On the running `packline`: `need.updated` signals of `needIds` at `version` (2 for the first
 * backlog, one more for each repeat), with the data of their `need.created` rows, committed to
 * the outbox in one transaction; then every delivery.
 */
export async function runBacklogPhase(
  receiver: WebhookReceiver,
  {
    packline,
    client,
    destinations,
    needIds,
    version,
    say,
    waitIdle,
  }: {
    packline: WebhookServer;
    client: GraphqlClient;
    destinations: BenchDestination[];
    needIds: string[];
    version: number;
    say: Say;
    waitIdle: WaitIdle;
  },
): Promise<{ phase: BacklogPhase; window: { startUs: number; endUs: number } }> {
  const expected = needIds.length * destinations.length;
  const db = new LibSql(join(packline.server.dataDir, 'packline.sqlite'));
  try {
    db.exec('pragma busy_timeout = 10000');
    const created = needIds.map((id) => `evt-need.created-${id}-v1`);
    const rows = db
      .prepare(
        `select resource_id, organization_id, deliverable, data from outbox_events where event_id in (${created.map(() => '?').join(', ')}) order by seq`,
      )
      .all(created) as { resource_id: string; organization_id: string; deliverable: number; data: string }[];
    if (rows.length !== needIds.length) throw new Error(`backlog: found ${rows.length} of the live phase's ${needIds.length} outbox rows`);

    await sleep(1_000);
    await waitIdle('backlog');
    await receiver.reset();
    say(`Backlog: ${needIds.length} need.updated signals committed at once → ${expected} deliveries...`);
    const sqlBefore = await packline.sqlReading();
    const cpu = cpuWatch({ server: packline.server.child.pid!, receiver: receiver.child.pid!, bench: process.pid });
    const insert = db.prepare(
      'insert into outbox_events (event_id, type, resource_id, resource_version, organization_id, deliverable, occurred_at, data) values (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const startUs = monotonicUs();
    const startWall = wallNow();
    db.exec('begin immediate');
    for (const row of rows)
      insert.run([
        backlogEventId(row.resource_id, version),
        'need.updated',
        row.resource_id,
        version,
        row.organization_id,
        row.deliverable,
        Date.now(),
        row.data,
      ]);
    // What every outbox writer does in its transaction: other processes see the change by it.
    db.exec('update change_epoch set value = value + 1 where id = 1');
    db.exec('commit');
    const committedAt = wallNow();

    const wait = await waitForReceipts(receiver, expected, {
      stallMs: 60_000,
      onProgress: (count) => say(`  ... ${count} / ${expected} received`),
    });
    const phaseCpu = cpu.stop();
    const sqlAfter = await packline.sqlReading();
    await sleep(1_000); // late duplicates would arrive now
    const recorded = await waitRecorded(client, destinations, 'destination', 60_000);
    const check = checkDeliveries(
      await receiver.dump(),
      destinations,
      needIds.map((id) => backlogEventId(id, version)),
      1,
    );
    const spanMs = wait.lastAt - committedAt;
    const perSecond = Math.round((check.received / spanMs) * 1000);
    say(
      `  ${check.received} received (${check.unique} unique of ${check.expected}, ${check.duplicates} duplicates, ${check.missing} missing) ` +
        `in ${Math.round(spanMs)} ms from the commit: ${perSecond} deliveries/s`,
    );
    return {
      phase: {
        needs: needIds.length,
        destinations: destinations.length,
        check,
        complete: wait.reached,
        spanMs: Math.round(spanMs),
        perSecond,
        firstReceiptMs: Math.round(check.firstReceiptAt - committedAt),
        recorded: {
          ...recorded,
          settledAfterLastReceiptMs: recorded.settledAt === null ? null : Math.round(recorded.settledAt - check.lastReceiptAt),
        },
        cpu: phaseCpu,
        profiles: [],
        sql: sqlBefore && sqlAfter ? sqlSummary(sqlBefore, sqlAfter, expected) : undefined,
      },
      window: { startUs, endUs: startUs + (wait.lastAt - startWall) * 1000 },
    };
  } finally {
    db.close();
  }
}
