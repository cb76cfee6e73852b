// Every field of every declared signal data (core/visibility.ts) reaches every output derived from
// the declaration: the builder, the OpenAPI schemas and examples, the guide, the test signal and
// the fixtures. A field dropped by any of them fails here.
import { describe, expect, it } from 'vitest';
import { SIGNAL_TYPES, type SignalType } from '../../core/webhooks/contract.ts';
import type { AnySignalData } from '../../core/webhooks/signal-data.ts';
import { testEnvelope } from '../../core/services/destination.service.ts';
import { eventSignalData, needSignalData, SIGNAL_DATA, type EventRecord, type NeedRecord } from '../../core/visibility.ts';
import { openApiDocument } from '../../facades/rest/openapi.ts';
import { webhooksGuide } from '../../facades/rest/openapi-webhooks-guide.ts';
import { sampleData, sampleEnvelope } from '../../core/demo/sample-jobs.ts';
import { ContractValidator, type OpenApiDocument } from '../openapi/validator.ts';

const links = { publicBaseUrl: 'https://packline.test' };
const at = new Date('2026-11-22T10:00:00.000Z');
// Records cast, not typed in full: a field the visibility record gains needs no edit here.
const need = (over: Partial<NeedRecord> = {}) =>
  ({
    id: 'n_1',
    organization: { id: 'acme' },
    title: 'Data engineer',
    description: 'Three months',
    requiredExpertise: ['sql'],
    remoteAllowed: true,
    city: 'Lille',
    region: null,
    country: 'FR',
    deadline: null,
    state: 'public',
    discreet: false,
    demo: false,
    version: 2,
    publishedAt: at,
    withdrawnAt: null,
    updatedAt: at,
    ...over,
  }) as NeedRecord;
const event = (over: Partial<EventRecord> = {}) =>
  ({
    id: 'ev_1',
    host: { id: 'acme' },
    title: 'Open day',
    description: 'Visit',
    startsAt: at,
    endsAt: at,
    timezone: 'Europe/Paris',
    online: false,
    city: 'Lyon',
    region: null,
    country: 'FR',
    status: 'public',
    demo: false,
    version: 1,
    cancelledAt: null,
    updatedAt: at,
    ...over,
  }) as EventRecord;

/** What the builder gives for a kind, in each variant of its data. */
const built: Record<SignalType, Record<string, unknown>[]> = {
  'need.created': [needSignalData(need(), links, false)],
  'need.updated': [needSignalData(need(), links, false)],
  'need.withdrawn': [needSignalData(need({ state: 'withdrawn', withdrawnAt: at }), links, true)],
  'event.created': [eventSignalData(event({ online: true }), links), eventSignalData(event(), links)],
  'event.updated': [eventSignalData(event({ online: true }), links), eventSignalData(event(), links)],
  'event.cancelled': [eventSignalData(event({ status: 'cancelled', cancelledAt: at }), links)],
};

const declarationOf = (kind: SignalType) => SIGNAL_DATA[kind] as AnySignalData;
/** The declared field names of a kind's data, per variant (one list when it has none). */
const declared = (kind: SignalType): { variant: string | undefined; names: string[] }[] => {
  const { fields, variants } = declarationOf(kind);
  return (variants === undefined ? [undefined] : Object.keys(variants)).map((variant) => ({
    variant,
    names: Object.entries(fields)
      .filter(([, field]) => field.only === undefined || field.only === variant)
      .map(([name]) => name),
  }));
};
const shapes = (kind: SignalType) => declared(kind).map(({ names }) => names);
const keysOf = (value: unknown) => Object.keys(value as object);

describe('the signal data declarations reach every derived output', () => {
  const doc = openApiDocument('https://packline.test') as unknown as OpenApiDocument & {
    components: { schemas: Record<string, { required?: string[]; properties?: object }> };
    webhooks: Record<string, { post: { requestBody: { content: Record<string, { example: { data: object } }> } } }>;
  };
  const schemas = doc.components.schemas;

  it.each(SIGNAL_TYPES)('%s: the builder gives every declared field, in order', (kind) => {
    expect(built[kind].map(keysOf)).toEqual(shapes(kind));
  });

  it.each(SIGNAL_TYPES)('%s: the OpenAPI schema lists and requires every declared field', (kind) => {
    for (const { variant, names } of declared(kind)) {
      const schema = schemas[variant ?? declarationOf(kind).component]!;
      expect(schema.required).toEqual(names);
      expect(keysOf(schema.properties)).toEqual(names);
    }
  });

  it.each(SIGNAL_TYPES)('%s: the OpenAPI example carries every declared field and fits the schema', (kind) => {
    const example = doc.webhooks[kind]!.post.requestBody.content['application/json']!.example;
    expect(shapes(kind)).toContainEqual(keysOf(example.data));
    const validator = new ContractValidator(doc);
    const headers = { 'content-type': 'application/json' };
    expect(validator.checkWebhook(kind, headers, JSON.stringify(example)).filter((p) => p.includes('body'))).toEqual([]);
  });

  it.each(SIGNAL_TYPES)('%s: the guide names every declared field', (kind) => {
    const row = webhooksGuide()
      .split('\n')
      .find((line) => line.startsWith(`| \`${kind}\` |`))!;
    for (const name of Object.keys(declarationOf(kind).fields)) expect(row).toContain(`\`${name}`);
  });

  it.each(SIGNAL_TYPES)('%s: the test signal carries every declared field, marked as a test', (kind) => {
    const destination = { kinds: [kind], scope: 'platform', organization: { id: 'acme' } } as unknown as Parameters<typeof testEnvelope>[0];
    const { data } = testEnvelope(destination, at, links.publicBaseUrl);
    expect(shapes(kind)).toContainEqual(keysOf(data));
    expect(data.id).toMatch(/^test_/);
  });

  it.each(SIGNAL_TYPES)('%s: the fixtures carry every declared field, in every variant', (kind) => {
    const seen = [0, 1, 2, 3].map((n) => keysOf(sampleData(kind, n)));
    for (const names of shapes(kind)) expect(seen).toContainEqual(names);
    const validator = new ContractValidator(doc);
    const body = JSON.stringify(sampleEnvelope(kind, 1));
    expect(validator.checkWebhook(kind, { 'content-type': 'application/json' }, body).filter((p) => p.includes('body'))).toEqual([]);
  });

  it('a field the declaration lacks is refused by the OpenAPI schema', () => {
    const validator = new ContractValidator(doc);
    const envelope = sampleEnvelope('need.created', 1);
    const body = JSON.stringify({ ...envelope, data: { ...envelope.data, extra: 1 } });
    expect(validator.checkWebhook('need.created', { 'content-type': 'application/json' }, body).join()).toMatch(
      /does not match the schema/,
    );
  });
});
