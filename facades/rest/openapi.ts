import { API_SCOPES, DEFAULT_PAGE_SIZE, MAX_ID_LENGTH, MAX_PAGE_SIZE } from '../../core/index.ts';
import { PROBLEMS } from './problem.ts';
import { openApiSchemas, ref } from './openapi-schemas.ts';
import { webhooksGuide } from './openapi-webhooks-guide.ts';
import { openApiWebhooks, webhookParameters, webhookSchemas } from './openapi-webhooks.ts';

// The machine-readable contract of /api/v1 (docs/service-contract.md#versioning). A test lints it with Redocly
// and validates live answers of every endpoint against it.

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

const LIMIT_HEADERS = {
  'X-Request-Id': header('X-Request-Id'),
  'X-RateLimit-Limit': header('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': header('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': header('X-RateLimit-Reset'),
  'X-Monthly-Quota-Limit': header('X-Monthly-Quota-Limit'),
  'X-Monthly-Quota-Remaining': header('X-Monthly-Quota-Remaining'),
  'X-Monthly-Quota-Reset': header('X-Monthly-Quota-Reset'),
};

const json = (schema: object, example?: unknown) => ({
  'application/json': { schema, ...(example === undefined ? {} : { example }) },
});

function operation(options: {
  id: string;
  summary: string;
  description: string;
  scope: (typeof API_SCOPES)[number];
  tag: string;
  parameters?: object[];
  schema: string;
  byId?: boolean;
  badRequest?: boolean;
}) {
  const responses: Record<string, object> = {
    '200': { description: 'Success', headers: { ...LIMIT_HEADERS, ETag: header('ETag') }, content: json(ref(options.schema)) },
    '304': { $ref: '#/components/responses/NotModified' },
    ...(options.badRequest || options.byId ? { '400': { $ref: '#/components/responses/BadRequest' } } : {}),
    '401': { $ref: '#/components/responses/Unauthorized' },
    '403': { $ref: '#/components/responses/Forbidden' },
    ...(options.byId ? { '404': { $ref: '#/components/responses/NotFound' } } : {}),
    '405': { $ref: '#/components/responses/MethodNotAllowed' },
    '429': { $ref: '#/components/responses/TooManyRequests' },
    '500': { $ref: '#/components/responses/InternalError' },
  };
  return {
    get: {
      operationId: options.id,
      summary: options.summary,
      description: `${options.description}\n\nRequired scope: \`${options.scope}\`.`,
      tags: [options.tag],
      security: [{ bearerAuth: [options.scope] }],
      'x-required-scopes': [options.scope],
      parameters: [...(options.parameters ?? []), { $ref: '#/components/parameters/ifNoneMatch' }],
      responses,
    },
  };
}

const listParameters = [{ $ref: '#/components/parameters/limit' }, { $ref: '#/components/parameters/cursor' }];
const idParameter = [{ $ref: '#/components/parameters/id' }];

export function openApiDocument(publicBaseUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Public API',
      version: '2026-07-25',
      summary: 'Read-only, server-to-server access to public organizations, opportunities and events (beta).',
      description: [
        'The public API v1 is a read-only beta for servers and cloud functions. It exposes the public profile of the',
        'organization bound to the API key, public opportunities (open needs) and public events.',
        '',
        '## Authentication',
        '',
        'Authenticate every request with `Authorization: Bearer <API_KEY>`. Keys are created in the administration',
        'interface with scopes and an expiry date, and shown once. Never call this API from browser or mobile code:',
        'requests carrying an `Origin` header are refused.',
        '',
        '### Scopes',
        '',
        `A key carries some of ${API_SCOPES.map((s) => `\`${s}\``).join(', ')}. Each operation names the scope it requires;`,
        'a key without it gets a 403 `missing_scope`.',
        '',
        '## Endpoints',
        '',
        'The operations below are all `GET` under `/api/v1`; any other method gets a 405. This document is served without a',
        'key at `/api/v1/openapi.json`, and this reference at `/api/v1/docs`.',
        '',
        '## Limits',
        '',
        '120 requests per minute per key (`X-RateLimit-*`), and a monthly quota per organization',
        '(Base 1,000; Alpha 10,000; Clan 100,000 calls per calendar month, UTC; `X-Monthly-Quota-*`). A refused',
        'request carries `Retry-After`.',
        '',
        '## Conditional requests',
        '',
        'Every 200 carries a strong `ETag`. Send it back as `If-None-Match` and an unchanged answer is a `304 Not Modified`',
        'with no body. A 304 counts against the rate limit and the monthly quota like any call: it is known only after the key,',
        'limits and scope are checked and the operation ran, and it answers what the call asks (has this changed?). It saves',
        'bandwidth, not quota.',
        '',
        '## Pagination',
        '',
        'Lists are paged with opaque cursors: pass `meta.next_cursor` back as `cursor`; it is `null` on the last page.',
        '',
        '## Errors',
        '',
        'Errors are RFC 9457 problem documents (`application/problem+json`) with a stable `code` and the `request_id` to',
        'quote when asking for help; `/api/v1/problems/<code>` explains each code.',
        '',
        webhooksGuide(),
      ].join('\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      contact: { name: 'Packline', url: publicBaseUrl },
    },
    servers: [{ url: `${publicBaseUrl}/api/v1`, description: 'This service' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Organization', description: 'The organization bound to the API key.' },
      { name: 'Opportunities', description: 'Public needs.' },
      { name: 'Events', description: 'Public events.' },
      { name: 'Webhooks', description: 'Signals posted to standard JSON webhook destinations.' },
    ],
    paths: {
      '/organization': operation({
        id: 'getOrganization',
        summary: 'Public profile of the organization bound to the key',
        description: 'Partner payment appears only as a rate and a count, never as an amount.',
        scope: 'organization:read',
        tag: 'Organization',
        schema: 'Organization',
      }),
      '/opportunities': operation({
        id: 'listOpportunities',
        summary: 'Recent public opportunities',
        description: 'Public needs, newest published first.',
        scope: 'opportunities:read',
        tag: 'Opportunities',
        parameters: listParameters,
        schema: 'OpportunityList',
        badRequest: true,
      }),
      '/opportunities/{id}': operation({
        id: 'getOpportunity',
        summary: 'Current state of one opportunity',
        description: 'A 404 means the opportunity is absent or no longer public (withdrawn or made private).',
        scope: 'opportunities:read',
        tag: 'Opportunities',
        parameters: idParameter,
        schema: 'Opportunity',
        byId: true,
      }),
      '/events': operation({
        id: 'listEvents',
        summary: 'Upcoming and ongoing public events',
        description: 'Public events that have not ended, soonest first.',
        scope: 'events:read',
        tag: 'Events',
        parameters: listParameters,
        schema: 'EventList',
        badRequest: true,
      }),
      '/events/{id}': operation({
        id: 'getEvent',
        summary: 'Current state of one event',
        description: 'A 404 means the event is absent or no longer public (cancelled).',
        scope: 'events:read',
        tag: 'Events',
        parameters: idParameter,
        schema: 'Event',
        byId: true,
      }),
    },
    webhooks: openApiWebhooks(),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'live_<base62>',
          description: `API key with scopes among ${API_SCOPES.map((s) => `\`${s}\``).join(', ')}. Each operation names the scope it requires.`,
        },
      },
      parameters: {
        limit: {
          name: 'limit',
          in: 'query',
          required: false,
          description: `Page size, ${1} to ${MAX_PAGE_SIZE}.`,
          schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
        },
        cursor: {
          name: 'cursor',
          in: 'query',
          required: false,
          description: 'The `meta.next_cursor` of the previous page, unchanged. Altered cursors are refused (400).',
          schema: { type: 'string', minLength: 1, maxLength: 512 },
        },
        id: {
          name: 'id',
          in: 'path',
          required: true,
          description: `Identifier, 1 to ${MAX_ID_LENGTH} characters.`,
          schema: { type: 'string', minLength: 1, maxLength: MAX_ID_LENGTH },
        },
        ifNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description:
            'ETags of answers already held (or `*`): an unchanged answer is a 304 with no body. Counts against rate limit and quota.',
          schema: { type: 'string' },
        },
        ...webhookParameters(),
      },
      headers: {
        'X-Request-Id': { description: 'Identifier of this request; quote it when asking for help.', schema: { type: 'string' } },
        'X-RateLimit-Limit': { description: 'Requests allowed per minute for this key.', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'Unix time (seconds) when the minute window resets.', schema: { type: 'integer' } },
        'X-Monthly-Quota-Limit': { description: "The organization's calls per calendar month (UTC).", schema: { type: 'integer' } },
        'X-Monthly-Quota-Remaining': { description: 'Calls left this month.', schema: { type: 'integer' } },
        'X-Monthly-Quota-Reset': {
          description: 'Unix time (seconds) of the first instant of next month, UTC.',
          schema: { type: 'integer' },
        },
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
        'WWW-Authenticate': { description: 'Bearer challenge.', schema: { type: 'string' } },
        Allow: { description: 'Methods allowed: GET.', schema: { type: 'string' } },
        ETag: {
          description: "Strong validator of the answer's exact bytes; send it back as `If-None-Match`.",
          schema: { type: 'string' },
        },
      },
      responses: {
        NotModified: {
          description: 'The answer matches an `If-None-Match` ETag: no body. Counted against the rate limit and the monthly quota.',
          headers: { ...LIMIT_HEADERS, ETag: header('ETag') },
        },
        BadRequest: problemResponse(
          'A parameter is invalid (`invalid_parameter`) or the cursor was altered (`invalid_cursor`).',
          ['invalid_parameter', 'invalid_cursor'],
          true,
        ),
        Unauthorized: {
          ...problemResponse('Missing, unknown, revoked or expired key (`invalid_key`).', ['invalid_key']),
          headers: { 'X-Request-Id': header('X-Request-Id'), 'WWW-Authenticate': header('WWW-Authenticate') },
        },
        Forbidden: problemResponse(
          'The key lacks the required scope (`missing_scope`), or the request came from a browser (`browser_origin_forbidden`).',
          ['missing_scope', 'browser_origin_forbidden'],
          true,
        ),
        NotFound: problemResponse('Absent or no longer public (`not_found`).', ['not_found'], true),
        MethodNotAllowed: {
          ...problemResponse('Only GET is allowed (`method_not_allowed`).', ['method_not_allowed']),
          headers: { 'X-Request-Id': header('X-Request-Id'), Allow: header('Allow') },
        },
        TooManyRequests: {
          ...problemResponse('Rate limit (`rate_limited`) or monthly quota (`quota_exceeded`) exceeded.', [
            'rate_limited',
            'quota_exceeded',
          ]),
          headers: { ...LIMIT_HEADERS, 'Retry-After': header('Retry-After') },
        },
        InternalError: problemResponse('Unexpected failure (`internal_error`); no internals are disclosed.', ['internal_error']),
      },
      schemas: { ...openApiSchemas(), ...webhookSchemas() },
    },
  };
}

function problemResponse(description: string, codes: string[], withLimits = false) {
  const code = codes[0]!;
  const { status, title } = PROBLEMS[code as keyof typeof PROBLEMS];
  return {
    description,
    ...(withLimits ? { headers: LIMIT_HEADERS } : { headers: { 'X-Request-Id': header('X-Request-Id') } }),
    content: {
      'application/problem+json': {
        schema: ref('Problem'),
        example: {
          type: `/api/v1/problems/${code}`,
          title,
          status,
          detail: description,
          code,
          request_id: '4f1c2a9e-8d3b-4f7a-9c55-2e0b6a1d7c3f',
        },
      },
    },
  };
}
