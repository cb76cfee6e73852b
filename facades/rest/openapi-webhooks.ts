import {
  DEFAULT_RETRY_SCHEDULE,
  type EVENT_SIGNAL_DATA,
  instant,
  SIGNAL_DATA,
  SIGNAL_TYPES,
  type AnyField,
  type AnySignalData,
  type JsonSchema,
  type SignalType,
} from '../../core/index.ts';
import { DELIVERY_TIMEOUT_MS } from '../../workers/send.ts';
import { USER_AGENT } from '../../workers/tasks.ts';
import { nullable, ref } from './openapi-schemas.ts';

// The OpenAPI 3.1 `webhooks` of the standard JSON format (docs/service-contract.md#webhook-events,
// docs/design.md#webhook-envelope): one entry per signal kind the outbox records, with the envelope
// the dispatcher posts and the headers `workers/tasks.ts` and `workers/signing.ts` put on it.

interface KindDoc {
  summary: string;
  sentWhen: string;
  /** The variant of the data its example shows, when the data has variants. */
  exampleVariant?: string;
}

/** What each kind means; a kind added to `SIGNAL_TYPES` does not compile until it is described here. */
export const SIGNAL_KINDS: Record<SignalType, KindDoc> = {
  'need.created': { summary: 'A public need was published', sentWhen: 'a public need is published' },
  'need.updated': { summary: 'A public need changed', sentWhen: 'its public content or criteria change' },
  'need.withdrawn': { summary: 'A need is no longer public', sentWhen: 'it is withdrawn or made private' },
  'event.created': {
    summary: 'A public event was created',
    sentWhen: 'a public event is created',
    exampleVariant: 'InPersonEventData' satisfies keyof NonNullable<typeof EVENT_SIGNAL_DATA.variants>,
  },
  'event.updated': {
    summary: 'A public event changed',
    sentWhen: 'its dates, place or public content change',
    exampleVariant: 'OnlineEventData' satisfies keyof NonNullable<typeof EVENT_SIGNAL_DATA.variants>,
  },
  'event.cancelled': { summary: 'A public event was cancelled', sentWhen: 'it is cancelled' },
};

/** The `data` example of a kind's envelope. */
export const signalExample = (kind: SignalType) =>
  (SIGNAL_DATA[kind] as AnySignalData).example(SIGNAL_KINDS[kind].exampleVariant) as { id: string } & Record<string, unknown>;

/** The receiver's time to answer, as prose. */
export const TIMEOUT = `${DELIVERY_TIMEOUT_MS / 1000} s`;

/** The contract's retry schedule as prose: "up to 8 attempts: the first immediately, the next 5 s, … after each failure". */
export function retrySchedule(): string {
  const [first, ...delays] = DEFAULT_RETRY_SCHEDULE.map(duration);
  const last = delays.pop();
  return `up to ${DEFAULT_RETRY_SCHEDULE.length} attempts: the first ${first}, the next ${delays.join(', ')} and ${last} after each failure (±20 %)`;
}

function duration(seconds: number): string {
  if (seconds === 0) return 'immediately';
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** `need.created` → `NeedCreatedSignal`. */
export const signalSchemaName = (kind: SignalType) =>
  `${kind
    .split('.')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}Signal`;

const isoMillis = { ...instant.schema, examples: ['2026-11-22T10:00:00.000Z'] };
/** `evt-<kind>-<resource id>-v<version>`. */
const eventIdPattern = (kind?: SignalType) => `^evt-${kind ? kind.replace('.', '\\.') : '[a-z]+\\.[a-z]+'}-.+-v[1-9][0-9]*$`;
const eventIdOf = (kind: SignalType, id: string, version: number) => `evt-${kind}-${id}-v${version}`;

/** Schemas of the envelopes and their `data`, merged into `components.schemas`. */
export function webhookSchemas() {
  const declarations = [...new Set(Object.values(SIGNAL_DATA))] as AnySignalData[];
  const envelopes = Object.fromEntries(SIGNAL_TYPES.map((kind) => [signalSchemaName(kind), envelopeSchema(kind)]));
  return { ...Object.assign({}, ...declarations.map(dataSchemas)), ...envelopes };
}

/** A declaration's schema: one closed object, or a `oneOf` of one closed object per variant. */
function dataSchemas(declaration: AnySignalData): Record<string, JsonSchema> {
  const description = declaration.description === undefined ? {} : { description: declaration.description };
  const object = (variant?: string) => {
    const fields = Object.entries(declaration.fields).filter(([, field]) => field.only === undefined || field.only === variant);
    return {
      type: 'object',
      required: fields.map(([name]) => name),
      additionalProperties: false,
      properties: Object.fromEntries(fields.map(([name, field]) => [name, fieldSchema(field)])),
    };
  };
  const { variants } = declaration;
  if (variants === undefined) return { [declaration.component]: { ...description, ...object() } };
  return {
    // `type` beside `oneOf`: every variant is an object, and strict readers want it said.
    [declaration.component]: { ...description, type: 'object', oneOf: Object.keys(variants).map(ref) },
    ...Object.fromEntries(Object.entries(variants).map(([name, { title }]) => [name, { title, ...object(name) }])),
  };
}

const fieldSchema = (field: AnyField): JsonSchema => ({
  ...field.type.schema,
  ...(field.description === undefined ? {} : { description: field.description }),
  examples: [field.example],
});

function envelopeSchema(kind: SignalType) {
  return {
    type: 'object',
    description: `The standard JSON envelope of a \`${kind}\` signal.`,
    required: ['id', 'type', 'version', 'occurred_at', 'organization_id', 'data'],
    additionalProperties: false,
    properties: {
      id: {
        type: 'string',
        pattern: eventIdPattern(kind),
        description:
          'Stable event identifier, `evt-<type>-<resource id>-v<resource version>`: the same on every attempt and for every destination. Deduplicate on it.',
        examples: [eventIdOf(kind, signalExample(kind).id, 3)],
      },
      type: { type: 'string', const: kind },
      version: { type: 'string', const: '1', description: 'Envelope version.' },
      occurred_at: { ...isoMillis, description: 'When the change happened, ISO 8601 UTC with milliseconds.' },
      organization_id: nullable('string', {
        description: "Null for the platform-wide public feed; the destination's own organization id when it is scoped to its own content.",
        examples: [null, 'atelier-nord'],
      }),
      data: ref(SIGNAL_DATA[kind].component),
    },
  };
}

const parameter = (name: string, description: string, schema: object, required = true) => ({
  name,
  in: 'header',
  required,
  description,
  schema,
});

/** Header parameters of every delivery, merged into `components.parameters`. */
export function webhookParameters() {
  const eventId = { type: 'string', pattern: eventIdPattern(), examples: [eventIdOf('need.updated', signalExample('need.updated').id, 3)] };
  return {
    'X-Service-Signature': parameter(
      'X-Service-Signature',
      '`t=<unix seconds of this attempt>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the UTF-8 bytes of the whole `whsec_…` secret; no spaces. Two `v1=` entries while a secret rotation is under way (new secret first). Compatible with Stripe-style verifiers.',
      {
        type: 'string',
        pattern: '^t=[0-9]+(,v1=[0-9a-f]{64}){1,2}$',
        examples: ['t=1795341600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd'],
      },
    ),
    'webhook-id': parameter('webhook-id', 'Standard Webhooks: the event id (equal to the envelope `id`).', eventId),
    'webhook-timestamp': parameter(
      'webhook-timestamp',
      'Standard Webhooks: the signed timestamp, unix seconds (the same `t` as in `X-Service-Signature`).',
      {
        type: 'integer',
        minimum: 0,
        examples: [1795341600],
      },
    ),
    'webhook-signature': parameter(
      'webhook-signature',
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the base64-decoded part of the secret after `whsec_`. Two space-separated entries during a rotation.',
      {
        type: 'string',
        pattern: '^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)?$',
        examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='],
      },
    ),
    'X-Service-Event-Id': parameter(
      'X-Service-Event-Id',
      'The envelope `id`, the same on every attempt: the key to deduplicate on.',
      eventId,
    ),
    'Idempotency-Key': parameter('Idempotency-Key', 'Equal to `X-Service-Event-Id`.', eventId),
    'X-Service-Delivery-Format': parameter(
      'X-Service-Delivery-Format',
      'The destination format. Team-chat and collaboration-suite destinations receive a rendered message instead, with no signature.',
      { type: 'string', const: 'standard-json' },
    ),
    'User-Agent': parameter('User-Agent', 'Identifies the sender.', { type: 'string', const: USER_AGENT }),
    'X-Service-Test': parameter(
      'X-Service-Test',
      "Only on a test signal sent on request from the destination's settings: sample data whose resource id starts with `test_`.",
      { type: 'string', const: '1' },
      false,
    ),
  };
}

const WEBHOOK_PARAMETERS = Object.keys(webhookParameters()).map((name) => ({ $ref: `#/components/parameters/${name}` }));

/** The `webhooks` section: what a standard JSON destination receives, per signal kind. */
export function openApiWebhooks() {
  return Object.fromEntries(
    SIGNAL_TYPES.map((kind) => {
      const { summary, sentWhen } = SIGNAL_KINDS[kind];
      const example = signalExample(kind);
      return [
        kind,
        {
          post: {
            operationId: `${kind.replace(/\.(\w)/, (_, c: string) => c.toUpperCase())}Webhook`,
            summary,
            description: `Sent to each active destination that chose \`${kind}\` when ${sentWhen}. Verify the signature on the raw body, deduplicate on the event id, answer 2xx within ${TIMEOUT}.`,
            tags: ['Webhooks'],
            security: [],
            parameters: WEBHOOK_PARAMETERS,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: ref(signalSchemaName(kind)),
                  example: {
                    id: eventIdOf(kind, example.id, 3),
                    type: kind,
                    version: '1',
                    occurred_at: '2026-11-22T10:00:00.000Z',
                    organization_id: null,
                    data: example,
                  },
                },
              },
            },
            responses: {
              '2XX': {
                description: `Delivered: any 2xx (202 included) within ${TIMEOUT} ends the delivery. The body is ignored; its first 2 KiB are kept in the delivery log.`,
              },
              '410': { description: 'Gone: the destination is disabled and receives nothing more until it is re-enabled.' },
              default: {
                description: `Failed attempt: any other status, a 3xx (redirects are not followed), no answer within ${TIMEOUT}, or a connection error. Retried, ${retrySchedule()}; a longer \`Retry-After\` is honoured.`,
                headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
              },
            },
          },
        },
      ];
    }),
  );
}
