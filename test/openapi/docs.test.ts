import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../consumer-kit/index.ts';
import { SIGNAL_TYPES } from '../../core/entities/index.ts';
import { FAQ_ENTRIES } from '../../core/faq/index.ts';
import { Receiver, type Received } from '../support/receiver.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createDestination, createOrganization, publishNeed } from '../support/webhooks.ts';
import { ContractValidator, type OpenApiDocument } from './validator.ts';
import type { MutationData } from '../support/graphql-data.ts';

// The interactive reference (/api/v1/docs): a page that loads nothing but this server's own Scalar
// bundle under a strict CSP, and the OpenAPI `webhooks` it renders, checked against real deliveries.

const BUNDLE_FILE = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
const PLAIN = '/plain';
const ROTATED = '/rotated';

/** The options the page's script gives Scalar, as far as these tests call them. */
interface ScalarOptions {
  slug: string;
  generateHeadingSlug(heading: { slug: string }): string;
  [option: string]: unknown;
}

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A GET over node:http: no transparent decompression, so encodings can be checked byte for byte. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const cspDirectives = (header: string) =>
  Object.fromEntries(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );

/** The options the mount script hands Scalar, as far as the test reads them. */
describe('the API reference at /api/v1/docs', () => {
  let stack: Stack;
  let html: string;
  let page: Response;

  beforeAll(async () => {
    stack = await startStack({ demo: false });
    page = await fetch(`${stack.api}/docs`);
    html = await page.text();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const scripts = () => [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  const scriptSrc = (name: string) =>
    scripts()
      .map((m) => / src="([^"]+)"/.exec(m[1]!)?.[1] ?? '')
      .find((src) => src.includes(`/${name}?`)) ?? '';

  it('answers 200 text/html without a key, under a CSP that allows this origin only', () => {
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-request-id')).toBeTruthy();
    const csp = cspDirectives(page.headers.get('content-security-policy') ?? '');
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['font-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'none'"]);
    const sources = Object.values(csp).flat();
    expect(sources.filter((s) => !["'self'", "'none'", "'unsafe-inline'", 'data:'].includes(s))).toEqual([]);
    // Scalar injects <style> elements; scripts stay strict.
    expect(Object.keys(csp).filter((name) => csp[name]!.includes("'unsafe-inline'"))).toEqual(['style-src']);
  });

  it('references same-origin assets only, with no inline script', async () => {
    expect(html).not.toMatch(/https?:\/\/|\/\/[a-z0-9]/i);
    const references = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(references.length).toBe(4);
    for (const reference of references) expect(reference).toMatch(/^(\/api\/v1\/docs\/[\w.]+\?v=[\w-]+|data:,)$/);
    expect(scripts().map((m) => m[2])).toEqual(['', '', '']);
    expect(scriptSrc('scalar.js')).not.toBe('');
    expect(scriptSrc('reference.js')).not.toBe('');
    expect(scriptSrc('repairs.js')).not.toBe('');
    for (const src of [scriptSrc('scalar.js'), scriptSrc('reference.js'), scriptSrc('repairs.js')]) {
      const res = await fetch(`${stack.origin}${src}`);
      expect(res.status, src).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });

  it('mounts Scalar from a served script, on the served document, without fonts, proxy, agent or telemetry', async () => {
    // Nothing the bundle would mount itself on, with its defaults, before these options apply.
    expect(html).not.toMatch(/id="api-reference"|data-spec|data-url|data-configuration/);
    const init = await (await fetch(`${stack.origin}${scriptSrc('reference.js')}`)).text();
    let mounted: { target: string; options: ScalarOptions } | undefined;
    runInNewContext(init, {
      Scalar: { createApiReference: (target: string, options: ScalarOptions) => (mounted = { target, options }) },
    });
    expect(mounted?.target).toMatch(/^#[\w-]+$/);
    expect(html).toContain(`<main id="${mounted!.target.slice(1)}"></main>`);
    const { options } = mounted!;
    expect(options).toMatchObject({
      url: '/api/v1/openapi.json',
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      hideClientButton: true,
    });
    expect(options).not.toHaveProperty('proxyUrl');
    expect(options).not.toHaveProperty('proxy');
    // Description headings keep their plain slug after the document's: `#webhooks` lands on "## Webhooks".
    expect(options.generateHeadingSlug({ slug: 'webhooks' })).toBe(`${options.slug}/webhooks`);
    // The installed Scalar knows these options: an upgrade that drops one fails here, not silently in a browser.
    const source = readFileSync(BUNDLE_FILE, 'utf8');
    for (const name of ['createApiReference', ...Object.keys(options)]) expect(source, name).toContain(`${name}:`);
  });

  it('has a heading for every link into it that the service gives out', async () => {
    const doc = (await (await fetch(`${stack.api}/openapi.json`)).json()) as OpenApiDocument;
    const slug = (heading: string) =>
      heading
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, '')
        .replaceAll(' ', '-');
    const headings = [...String(doc.info.description).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!));
    const anchors = FAQ_ENTRIES.map((entry) => /^\/api\/v1\/docs#(.+)$/.exec(entry.link)?.[1]).filter((a) => a !== undefined);
    expect(anchors.length).toBeGreaterThan(5);
    // A test signal links to `/api/v1/docs#webhooks`.
    expect(headings).toEqual(expect.arrayContaining([...new Set([...anchors, 'webhooks'])]));
  });

  describe('the Scalar bundle', () => {
    const original = readFileSync(BUNDLE_FILE);
    const bundleUrl = () => `${stack.origin}${scriptSrc('scalar.js')}`;

    it('is the installed package file, as JavaScript, cacheable for a year with an ETag', async () => {
      const answer = await rawGet(bundleUrl(), { 'accept-encoding': 'identity' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(answer.headers.vary).toBe('accept-encoding');
      expect(answer.body.equals(original)).toBe(true);
      // Served with or without the version query.
      const plain = await rawGet(`${stack.api}/docs/scalar.js`, { 'accept-encoding': 'identity' });
      expect(plain.body.equals(original)).toBe(true);
    });

    it.each([
      ['br', 'gzip, deflate, br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['gzip', 'br;q=0, gzip;q=0.5', gunzipSync],
    ] as const)('is sent as %s when the client accepts "%s"', async (encoding, accept, decompress) => {
      const answer = await rawGet(bundleUrl(), { 'accept-encoding': accept });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.etag).toMatch(new RegExp(`-${encoding}"$`));
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(answer.body.length).toBeLessThan(original.length / 3);
      expect(decompress(answer.body).equals(original)).toBe(true);
    });

    it('answers 304 with no body to a matching If-None-Match, 200 to a stale one', async () => {
      for (const accept of ['identity', 'br', 'gzip']) {
        const first = await rawGet(bundleUrl(), { 'accept-encoding': accept });
        const again = await rawGet(bundleUrl(), { 'accept-encoding': accept, 'if-none-match': String(first.headers.etag) });
        expect(again.status, accept).toBe(304);
        expect(again.body.length).toBe(0);
        expect(again.headers.etag).toBe(first.headers.etag);
        expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
      }
      const stale = await rawGet(bundleUrl(), { 'accept-encoding': 'identity', 'if-none-match': '"an-older-bundle"' });
      expect(stale.status).toBe(200);
      expect(stale.body.equals(original)).toBe(true);
    });
  });

  it.each(['/docs/', '/docs/nope', '/docs/scalar.js/more', '/docs/openapi.json', '/docsx'])(
    '%s is the usual problem+json 404',
    async (path) => {
      const res = await fetch(`${stack.api}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = (await res.json()) as { code: string; request_id: string };
      expect(body.code).toBe('not_found');
      expect(body.request_id).toBe(res.headers.get('x-request-id'));
    },
  );

  it('refuses other methods like the rest of the API', async () => {
    const res = await fetch(`${stack.api}/docs`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(((await res.json()) as { code: string }).code).toBe('method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET');
  });
});

describe('the webhooks of the OpenAPI document', () => {
  let stack: Stack;
  let receiver: Receiver;
  let doc: OpenApiDocument;
  let validator: ContractValidator;
  let webhooks: NonNullable<OpenApiDocument['webhooks']>;
  let requests: Received[];
  let rotated: Received[];
  let secrets: { plain: string; old: string; current: string };

  beforeAll(async () => {
    [stack, receiver] = await Promise.all([startStack({ env: WEBHOOK_TEST_ENV, demo: false }), new Receiver().start()]);
    doc = (await (await fetch(`${stack.api}/openapi.json`)).json()) as OpenApiDocument;
    validator = new ContractValidator(doc);
    webhooks = doc.webhooks ?? {};

    // Two destinations, one of them in the middle of a secret rotation, receive one real delivery of
    // every kind (an in-person and an online event among them); the rotated one then gets a test signal.
    const org = await createOrganization(stack, 'docs-org');
    const plain = await createDestination(stack, { organizationId: org, url: receiver.url(PLAIN) });
    const rotating = await createDestination(stack, { organizationId: org, url: receiver.url(ROTATED) });
    const rotation = await stack.graphql<MutationData<'rotateWebhookSecret'>>(
      `mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }`,
      { id: rotating.id },
    );
    secrets = { plain: plain.secret!, old: rotating.secret!, current: rotation.rotateWebhookSecret.secret! };

    const needId = await publishNeed(stack, org);
    await stack.graphql<MutationData<'updateNeed'>>(
      `mutation($id: ID!) { updateNeed(id: $id, input: { title: "River survey, second season" }) { id } }`,
      {
        id: needId,
      },
    );
    await stack.graphql<MutationData<'withdrawNeed'>>(`mutation($id: ID!) { withdrawNeed(id: $id) { id } }`, { id: needId });
    const event = (input: Record<string, unknown>) =>
      stack.graphql<MutationData<'createEvent'>>(`mutation($input: NewEventInput!) { createEvent(input: $input) { id } }`, {
        input: { organizationId: org, startsAt: '2027-03-01T09:00:00Z', endsAt: '2027-03-01T17:00:00Z', ...input },
      });
    const inPerson = (await event({ title: 'Open day', city: 'Lyon', country: 'FR' })).createEvent.id;
    await event({ title: 'Webinar', online: true });
    await stack.graphql<MutationData<'updateEvent'>>(`mutation($id: ID!) { updateEvent(id: $id, input: { online: true }) { id } }`, {
      id: inPerson,
    });
    await stack.graphql<MutationData<'cancelEvent'>>(`mutation($id: ID!) { cancelEvent(id: $id) { id } }`, { id: inPerson });
    await receiver.waitFor(() => receiver.on(PLAIN).length >= 7 && receiver.on(ROTATED).length >= 7, 'seven signals on each destination');
    await stack.graphql<MutationData<'sendTestSignal'>>(`mutation($id: ID!) { sendTestSignal(destinationId: $id) { id } }`, {
      id: rotating.id,
    });
    await receiver.waitFor(() => receiver.on(ROTATED).length >= 8, 'the test signal');
    requests = receiver.on(PLAIN);
    rotated = receiver.on(ROTATED);
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  const typeOf = (received: Received) => (JSON.parse(received.body) as { type: string }).type;

  it('has one entry per signal kind the code emits, each a POST of its envelope', () => {
    expect(Object.keys(webhooks).sort()).toEqual([...SIGNAL_TYPES].sort());
    for (const kind of SIGNAL_TYPES) {
      const post = webhooks[kind]!.post;
      expect(post.summary, kind).toEqual(expect.any(String));
      const [schema] = validator.resolve(post.requestBody?.content['application/json']?.schema ?? {}, '');
      expect(schema.properties?.type).toEqual({ type: 'string', const: kind });
      expect(Object.keys(post.responses).sort()).toEqual(['2XX', '410', 'default']);
      const headers = (post.parameters ?? []).map((p) => validator.resolve(p, '')[0].name);
      expect(headers).toEqual(
        expect.arrayContaining([
          'X-Service-Signature',
          'webhook-id',
          'webhook-timestamp',
          'webhook-signature',
          'X-Service-Event-Id',
          'Idempotency-Key',
        ]),
      );
    }
  });

  it('every kind was delivered, and each real delivery matches its entry: body and headers', () => {
    expect(new Set(requests.map(typeOf))).toEqual(new Set(SIGNAL_TYPES));
    expect(rotated.map(typeOf).slice(0, 7)).toEqual(requests.map(typeOf));
    for (const received of [...requests, ...rotated]) {
      expect(validator.checkWebhook(typeOf(received), received.headers, received.body)).toEqual([]);
    }
    for (const received of requests) {
      expect(verifyWebhook(received.body, received.headers, secrets.plain).id).toBe(received.headers['x-service-event-id']);
      expect(String(received.headers['x-service-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    }
    const events = requests.filter((r) => typeOf(r).startsWith('event.')).map((r) => JSON.parse(r.body).data);
    expect(events.some((data) => data.online === true)).toBe(true);
    expect(events.some((data) => data.place?.city === 'Lyon')).toBe(true);
  });

  it('documents the headers of a rotation and of a test signal', () => {
    for (const received of rotated) {
      expect(String(received.headers['x-service-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifyWebhook(received.body, received.headers, secrets.old).type).toBe(typeOf(received));
      expect(verifyWebhook(received.body, received.headers, secrets.current).type).toBe(typeOf(received));
    }
    const test = rotated[7]!;
    expect(test.headers['x-service-test']).toBe('1');
    expect(JSON.parse(test.body).data.id).toMatch(/^test_/);
    expect(requests.every((r) => r.headers['x-service-test'] === undefined)).toBe(true);
  });

  it('the schemas are strict: another kind, an extra field or a bad header is refused', () => {
    const created = requests.find((r) => typeOf(r) === 'need.created')!;
    const envelope = JSON.parse(created.body);
    expect(validator.checkWebhook('event.created', created.headers, created.body).join()).toMatch(/does not match the schema/);
    const extra = JSON.stringify({ ...envelope, data: { ...envelope.data, amount: 15000 } });
    expect(validator.checkWebhook('need.created', created.headers, extra).join()).toMatch(/additional properties/);
    const noMillis = JSON.stringify({ ...envelope, occurred_at: '2026-11-22T10:00:00Z' });
    expect(validator.checkWebhook('need.created', created.headers, noMillis).join()).toMatch(/occurred_at/);
    const badSignature = { ...created.headers, 'x-service-signature': 't=1,v1=abc' };
    expect(validator.checkWebhook('need.created', badSignature, created.body).join()).toMatch(/X-Service-Signature/);
    const { 'webhook-signature': _, ...unsigned } = created.headers;
    expect(validator.checkWebhook('need.created', unsigned, created.body).join()).toMatch(/webhook-signature is missing/);
  });

  it('the hand-made HMAC recipe of the guide verifies real deliveries and refuses altered ones', () => {
    const recipe = /```js\n(import \{ createHmac[\s\S]*?)```/.exec(String(doc.info.description))?.[1] ?? '';
    expect(recipe).toContain('function verify(');
    const verify = new Function('createHmac', 'timingSafeEqual', `${recipe.replace(/^import .*$/m, '')}\nreturn verify;`)(
      createHmac,
      timingSafeEqual,
    ) as (body: Buffer, header: string, secret: string) => boolean;
    for (const received of requests) {
      const header = String(received.headers['x-service-signature']);
      expect(verify(Buffer.from(received.body), header, secrets.plain)).toBe(true);
      expect(verify(Buffer.from(`${received.body} `), header, secrets.plain)).toBe(false);
      expect(verify(Buffer.from(received.body), header, secrets.current)).toBe(false);
    }
    for (const received of rotated) {
      const header = String(received.headers['x-service-signature']);
      expect(verify(Buffer.from(received.body), header, secrets.old)).toBe(true);
      expect(verify(Buffer.from(received.body), header, secrets.current)).toBe(true);
    }
  });

  it('documents what the code sends in the prose too: every kind, the retry schedule, the 8 s timeout', () => {
    const description = String(doc.info.description);
    for (const kind of SIGNAL_TYPES) expect(description).toContain(`\`${kind}\``);
    expect(description).toContain('verifyWebhook');
    expect(description).toContain("createHmac('sha256', secret)");
    expect(description).toContain('up to 8 attempts: the first immediately, the next 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h');
    expect(description).toContain('within 8 s');
    expect(validator.resolve(webhooks['need.created']!.post.responses['410']!, '')[0].description).toMatch(/disabled/);
  });
});
