// 10,000 webhook deliveries shared by three dispatcher processes over one PostgreSQL database,
// while the dispatcher holding the most lanes is killed with SIGKILL three times and restarted:
// every signal arrives at least once, exactly once after the consumer drops repeats by id, and
// each destination sees its signals in publication order.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../consumer-kit/index.ts';
import { eventually } from '../cli/run-cli.ts';
import { Receiver, type Received } from '../support/receiver.ts';
import { WEBHOOK_TEST_ENV } from '../support/webhooks.ts';
import type { MutationData } from '../support/graphql-data.ts';
import { Cluster, type Instance } from './cluster.ts';

const ORGANIZATIONS = 2;
/** The Clan plan's allowance, per organization. */
const DESTINATIONS_PER_ORGANIZATION = 10;
const DESTINATIONS = ORGANIZATIONS * DESTINATIONS_PER_ORGANIZATION;
const ROUNDS = 5;
const NEEDS_PER_ROUND = 100;
const NEEDS = ROUNDS * NEEDS_PER_ROUND;
const KILLS = 3;

describe('three dispatcher processes, one of them killed three times', () => {
  const cluster = new Cluster({ ...WEBHOOK_TEST_ENV, WEBHOOK_LEASE_SECONDS: '3' });
  const receiver = new Receiver();
  let api: Instance;
  const dispatchers: Instance[] = [];
  const secrets = new Map<string, string>();
  let sql: pg.Client;

  beforeAll(async () => {
    await cluster.start();
    await receiver.start();
    sql = new pg.Client({ connectionString: cluster.databaseUrl });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await cluster.close();
    await receiver.close();
  });

  /** Distinct (destination path, event id) pairs received so far, and every request. */
  const firstSeen = new Map<string, string[]>();
  let counted = 0;
  function count(received: Received[]): number {
    for (; counted < received.length; counted++) {
      const { path, headers } = received[counted]!;
      const id = String(headers['webhook-id']);
      const seen = firstSeen.get(path) ?? [];
      if (!seen.includes(id)) seen.push(id);
      firstSeen.set(path, seen);
    }
    return [...firstSeen.values()].reduce((sum, ids) => sum + ids.length, 0);
  }

  async function publishRound(round: number): Promise<void> {
    for (let i = 0; i < NEEDS_PER_ROUND; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          cluster.graphql(api, `mutation($input: NewNeedInput!) { publishNeed(input: $input) { id } }`, {
            input: {
              organizationId: 'fleet-0',
              title: `Survey ${round}-${i + j}`,
              description: 'River survey',
              requiredExpertise: ['sql'],
              remoteAllowed: true,
            },
          }),
        ),
      );
    }
  }

  /** The dispatcher holding the most lanes with work waiting, read from the leases. */
  async function busiestDispatcher(): Promise<Instance | undefined> {
    const { rows } = await sql.query<{ owner: string; lanes: string }>(
      `select lease_owner as owner, count(*) as lanes from webhook_destinations d
        where lease_owner is not null and lease_expires_at > now()
          and exists (select 1 from webhook_deliveries w where w.destination_id = d.id and w.status = 'pending')
        group by lease_owner order by count(*) desc`,
    );
    for (const { owner } of rows) {
      const pid = Number(owner.split(':')[1]);
      const found = dispatchers.find((d) => d.proc.child.pid === pid && d.proc.child.exitCode === null);
      if (found) return found;
    }
    return undefined;
  }

  it('delivers every signal to every destination exactly once after deduplication, in order', async () => {
    [api] = await Promise.all([
      cluster.spawn('api'),
      ...Array.from({ length: 3 }, async () => dispatchers.push(await cluster.spawn('dispatcher'))),
    ]);
    for (let o = 0; o < ORGANIZATIONS; o++) {
      await cluster.graphql(api, `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`, {
        input: { id: `fleet-${o}`, profile: { name: `Fleet ${o}`, plan: 'clan' } },
      });
      for (let i = 0; i < DESTINATIONS_PER_ORGANIZATION; i++) {
        const path = `/fleet-${o}/${i}`;
        const created = await cluster.graphql<MutationData<'createWebhookDestination'>>(
          api,
          `mutation($input: NewWebhookDestinationInput!) { createWebhookDestination(input: $input) { secret } }`,
          {
            input: {
              organizationId: `fleet-${o}`,
              format: 'standard-json',
              url: receiver.url(path),
              kinds: ['need.created'],
              scope: 'platform',
            },
          },
        );
        secrets.set(path, created.createWebhookDestination.secret!);
      }
    }

    const killed: { pid: number; signal: string | null; lanes: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await publishRound(round);
      if (round >= KILLS) continue;
      // Mid-round: the busiest dispatcher dies without a chance to record or release anything.
      await receiver.waitFor((received) => count(received) >= round * NEEDS_PER_ROUND * DESTINATIONS + 500, `deliveries of round ${round}`);
      const victim = await eventually(busiestDispatcher, (found) => found !== undefined, {
        timeoutMs: 30_000,
        what: 'a dispatcher holding lanes with work',
      });
      const { rows } = await sql.query<{ n: string }>('select count(*) as n from webhook_destinations where lease_owner like $1', [
        `%:${victim!.proc.child.pid}:%`,
      ]);
      const exit = await victim!.proc.stop('SIGKILL');
      killed.push({ pid: victim!.proc.child.pid!, signal: exit.signal, lanes: Number(rows[0]!.n) });
      dispatchers.splice(dispatchers.indexOf(victim!), 1);
      // The survivors take its lanes with work over once its leases lapse, before any restart.
      await eventually(
        async () =>
          (
            await sql.query(
              `select 1 from webhook_destinations d where lease_owner like $1
                and exists (select 1 from webhook_deliveries w where w.destination_id = d.id and w.status = 'pending')`,
              [`%:${victim!.proc.child.pid}:%`],
            )
          ).rowCount,
        (held) => held === 0,
        { timeoutMs: 30_000, intervalMs: 100, what: "the killed dispatcher's lanes taken over" },
      );
      dispatchers.push(await cluster.spawn('dispatcher'));
    }
    expect(killed).toHaveLength(KILLS);
    expect(killed.every((k) => k.signal === 'SIGKILL' && k.lanes > 0)).toBe(true);

    await eventually(
      async () => count(receiver.received),
      (n) => n >= NEEDS * DESTINATIONS,
      {
        timeoutMs: 180_000,
        intervalMs: 250,
        what: `${NEEDS * DESTINATIONS} distinct deliveries`,
      },
    );

    // Publication order, as the outbox numbered the changes.
    const { rows: published } = await sql.query<{ event_id: string }>(
      `select event_id from outbox_events where type = 'need.created' order by seq`,
    );
    expect(published).toHaveLength(NEEDS);
    const order = published.map((row) => row.event_id);
    expect(firstSeen.size).toBe(DESTINATIONS);
    for (const [path, ids] of firstSeen) {
      expect(ids, path).toEqual(order);
    }
    // Every request is genuine: signed with its destination's secret, the id matching the body.
    for (const { path, headers, body } of receiver.received) {
      const envelope = verifyWebhook(body, headers as Record<string, string>, secrets.get(path)!);
      expect(envelope.id).toBe(headers['webhook-id']);
    }
    const repeats = receiver.received.length - NEEDS * DESTINATIONS;
    expect(repeats).toBeGreaterThanOrEqual(0);
    // Nothing is left waiting once every signal is in.
    await eventually(
      async () => (await sql.query(`select 1 from webhook_deliveries where status <> 'succeeded'`)).rowCount,
      (n) => n === 0,
      { timeoutMs: 30_000, what: 'no delivery left pending' },
    );
    console.info(
      `cluster deliveries: ${receiver.received.length} requests for ${NEEDS * DESTINATIONS} deliveries (${repeats} repeats after ${KILLS} SIGKILLs)`,
    );
  }, 600_000);
});
