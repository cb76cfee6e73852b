import type { Stack } from './stack.ts';
import type { MutationData, QueryData } from './graphql-data.ts';

/** What the helpers below need of a server: its internal GraphQL (a Stack, or a spawned `packline start`). */
export type GraphqlCaller = Pick<Stack, 'graphql'>;

/** Settings that let webhook tests deliver to a local http receiver, with retries in seconds. */
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_ALLOW_HTTP: '1',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
  WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1,1,1,1',
  WEBHOOK_LEASE_SECONDS: '2',
};

export interface DestinationInput {
  organizationId: string;
  format?: string;
  url: string;
  language?: string;
  kinds?: string[];
  scope?: string;
}

export async function createDestination(stack: GraphqlCaller, input: DestinationInput): Promise<{ id: string; secret: string | null }> {
  const data = await stack.graphql<MutationData<'createWebhookDestination'>>(
    `mutation($input: NewWebhookDestinationInput!) { createWebhookDestination(input: $input) { secret destination { id } } }`,
    { input: { format: 'standard-json', ...input } },
  );
  return { id: data.createWebhookDestination.destination.id, secret: data.createWebhookDestination.secret };
}

export async function createOrganization(stack: GraphqlCaller, id: string, plan: 'base' | 'alpha' | 'clan' = 'clan'): Promise<string> {
  await stack.graphql<MutationData<'createOrganization'>>(
    `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`,
    {
      input: { id, profile: { name: `Org ${id}`, plan } },
    },
  );
  return id;
}

export async function publishNeed(stack: GraphqlCaller, organizationId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const data = await stack.graphql<MutationData<'publishNeed'>>(`mutation($input: NewNeedInput!) { publishNeed(input: $input) { id } }`, {
    input: {
      organizationId,
      title: 'Data engineer for a river survey',
      description: 'Three months in Lyon',
      requiredExpertise: ['sql', 'python'],
      remoteAllowed: true,
      ...fields,
    },
  });
  return data.publishNeed.id;
}

export async function deliveries(stack: Stack, organizationId: string, destinationId?: string) {
  const data = await stack.graphql<QueryData<'webhookDeliveries'>>(
    `query($org: ID!, $dst: ID) { webhookDeliveries(organizationId: $org, destinationId: $dst, first: 50) {
       edges { node { id eventId type status attemptCount lastStatusCode lastError test attempts { number at statusCode error responseExcerpt durationMs } } } } }`,
    { org: organizationId, dst: destinationId ?? null },
  );
  return data.webhookDeliveries.edges.map((edge: { node: unknown }) => edge.node) as {
    id: string;
    eventId: string;
    type: string;
    status: string;
    attemptCount: number;
    lastStatusCode: number | null;
    lastError: string | null;
    test: boolean;
    attempts: {
      number: number;
      at: string;
      statusCode: number | null;
      error: string | null;
      responseExcerpt: string | null;
      durationMs: number;
    }[];
  }[];
}
