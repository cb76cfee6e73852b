// The internal GraphQL calls of the webhook benchmark: organizations, destinations, needs, deliveries.
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { mentionsAmount } from '../../core/webhooks/amount-detector.ts';

/** A fresh internal token for one benchmark run (the server takes it from INTERNAL_API_TOKEN). */
export const benchInternalToken = () => `bench-internal-${randomBytes(16).toString('hex')}`;

/** Destinations one Clan organization may have (PLAN_ALLOWANCES.clan.destinations). */
export const DESTINATIONS_PER_ORG = 10;

export interface GraphqlClient {
  /** The `data` of the answer, typed by the caller after the query's selection. */
  call<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

/** POST /graphql with the internal token over keep-alive connections; throws on GraphQL errors. */
export function graphqlClient(origin: string, token: string): GraphqlClient {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 16 });
  return {
    async call<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
      const res = await request(`${origin}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
        dispatcher: agent,
      });
      const body = (await res.body.json()) as { data?: T; errors?: { message: string }[] };
      if (body.errors?.length) throw new Error(`GraphQL: ${body.errors.map((e) => e.message).join('; ')}`);
      if (res.statusCode !== 200) throw new Error(`GraphQL answered ${res.statusCode}`);
      if (body.data === undefined) throw new Error('GraphQL answered without data');
      return body.data;
    },
    close: () => agent.close(),
  };
}

/** Runs `task` over `items` with at most `concurrency` in flight; results in item order. */
export async function inParallel<T, R>(items: T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

export interface BenchDestination {
  organizationId: string;
  id: string;
  /** Path on the receiver, distinct per destination. */
  path: string;
  /** The signing secret returned at creation. */
  secret: string;
}

/**
 * Creates `count` standard-JSON destinations (platform scope, every kind), `DESTINATIONS_PER_ORG`
 * per Clan organization `<prefix>-<n>`, each pointing at its own path on the receiver.
 */
export async function createDestinations(
  client: GraphqlClient,
  { prefix, count, receiverOrigin, concurrency = 4 }: { prefix: string; count: number; receiverOrigin: string; concurrency?: number },
): Promise<BenchDestination[]> {
  const orgCount = Math.ceil(count / DESTINATIONS_PER_ORG);
  const orgs = Array.from({ length: orgCount }, (_, o) => `${prefix}-${o + 1}`);
  await inParallel(orgs, concurrency, (id) =>
    client.call(`mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`, {
      input: { id, profile: { name: `Bench ${id}`, plan: 'clan' } },
    }),
  );
  const wanted = Array.from({ length: count }, (_, n) => ({
    organizationId: orgs[Math.floor(n / DESTINATIONS_PER_ORG)]!,
    path: `/hook/${prefix}/${n + 1}`,
  }));
  return inParallel(wanted, concurrency, async ({ organizationId, path }) => {
    const data = await client.call<{ createWebhookDestination: { secret: string | null; destination: { id: string } } }>(
      `mutation($input: NewWebhookDestinationInput!) { createWebhookDestination(input: $input) { secret destination { id } } }`,
      { input: { organizationId, format: 'standard-json', scope: 'platform', url: `${receiverOrigin}${path}` } },
    );
    const { secret } = data.createWebhookDestination;
    if (!secret) throw new Error(`createWebhookDestination returned no secret for ${path}`);
    return { organizationId, id: data.createWebhookDestination.destination.id, path, secret };
  });
}

/** A need title without any money amount (amounts keep a need out of webhooks). */
export function needTitle(n: number): string {
  const title = `Bench need ${n}: hydrologist for a river survey`;
  if (mentionsAmount(title)) throw new Error(`The benchmark title '${title}' reads as a money amount`);
  return title;
}

export interface Published {
  /** Need ids, in publish order. */
  needIds: string[];
  /** Wall clock (ms since the epoch) when the first request left and the last answer came back. */
  startedAt: number;
  endedAt: number;
}

/** Publishes `count` needs round-robin over `organizations`, `concurrency` requests at a time. */
export async function publishNeeds(
  client: GraphqlClient,
  { organizations, count, concurrency = 8, offset = 0 }: { organizations: string[]; count: number; concurrency?: number; offset?: number },
): Promise<Published> {
  const startedAt = wallNow();
  const needIds = await inParallel(
    Array.from({ length: count }, (_, n) => n + offset),
    concurrency,
    async (n) => {
      const data = await client.call<{ publishNeed: { id: string } }>(
        `mutation($input: NewNeedInput!) { publishNeed(input: $input) { id } }`,
        {
          input: {
            organizationId: organizations[n % organizations.length]!,
            title: needTitle(n + 1),
            description: 'Three months of field work along the Rhône, remote reporting allowed',
            requiredExpertise: ['hydrology', 'python'],
            remoteAllowed: true,
          },
        },
      );
      return data.publishNeed.id;
    },
  );
  return { needIds, startedAt, endedAt: wallNow() };
}

/** The envelope id of a need's `need.created` signal (core/service-kit/outbox.ts). */
export const createdEventId = (needId: string) => `evt-need.created-${needId}-v1`;

export interface RecordedCheck {
  /** Newest retained deliveries looked at (at most 50 per query). */
  seen: number;
  succeeded: number;
  pending: number;
  failed: number;
  /** Deliveries that took more than one attempt. */
  retried: number;
}

/**
 * The newest retained deliveries (50 per query; retention keeps 100 per Clan destination) of each
 * destination (`by: 'destination'`) or organization: the server has recorded every attempt when
 * none of them is pending.
 */
export async function recordedDeliveries(
  client: GraphqlClient,
  destinations: BenchDestination[],
  by: 'destination' | 'organization',
): Promise<RecordedCheck> {
  const targets: { org: string; dst: string | null }[] =
    by === 'destination'
      ? destinations.map((d) => ({ org: d.organizationId, dst: d.id }))
      : [...new Set(destinations.map((d) => d.organizationId))].map((org) => ({ org, dst: null }));
  const pages = await inParallel(targets, 4, async ({ org, dst }) => {
    const data = await client.call<{ webhookDeliveries: { edges: { node: { status: string; attemptCount: number } }[] } }>(
      `query($org: ID!, $dst: ID) { webhookDeliveries(organizationId: $org, destinationId: $dst, first: 50) { edges { node { status attemptCount } } } }`,
      { org, dst },
    );
    return data.webhookDeliveries.edges.map((edge) => edge.node);
  });
  const all = pages.flat();
  return {
    seen: all.length,
    succeeded: all.filter((d) => d.status === 'succeeded').length,
    pending: all.filter((d) => d.status === 'pending').length,
    failed: all.filter((d) => d.status === 'failed').length,
    retried: all.filter((d) => d.attemptCount > 1).length,
  };
}

/** Polls `recordedDeliveries` until nothing is pending or `timeoutMs` passes; returns the last check and when it settled. */
export async function waitRecorded(
  client: GraphqlClient,
  destinations: BenchDestination[],
  by: 'destination' | 'organization',
  timeoutMs = 60_000,
): Promise<RecordedCheck & { settledAt: number | null }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const check = await recordedDeliveries(client, destinations, by);
    if (check.pending === 0) return { ...check, settledAt: wallNow() };
    if (Date.now() > deadline) return { ...check, settledAt: null };
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** Wall clock with sub-millisecond precision, comparable with the receiver's arrival times. */
export const wallNow = () => performance.timeOrigin + performance.now();
