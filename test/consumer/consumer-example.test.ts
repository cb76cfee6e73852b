// The example consumer (examples/consumer/receiver.ts) against a stand-in for the Packline REST API.
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createReceiver, MAX_BODY_BYTES, WEBHOOK_PATH, type Receiver } from '../../examples/consumer/receiver.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const API_KEY = 'live_consumerExampleTestKey';

/** Packline stand-in: n_live and e_live exist, everything else is 404; n_flaky fails once with 503. */
interface ApiRequest {
  path: string;
  authorization: string | undefined;
}
const apiRequests: ApiRequest[] = [];
let flakyFailures = 0;
/** Requests for these paths wait until the test releases them (to interleave signals and re-reads). */
const held = new Map<string, { arrived: () => void; release: Promise<void> }>();
function hold(path: string): { arrived: Promise<void>; release: () => void } {
  let arrived!: () => void;
  let release!: () => void;
  const arrivedPromise = new Promise<void>((resolve) => (arrived = resolve));
  held.set(path, { arrived, release: new Promise<void>((resolve) => (release = resolve)) });
  return { arrived: arrivedPromise, release };
}
const RESOURCES: Record<string, unknown> = {
  '/api/v1/opportunities/n_live': {
    id: 'n_live',
    title: 'Retrofit of a school',
    url: 'https://packline.test/needs/n_live',
    remote_allowed: true,
  },
  '/api/v1/opportunities/n_flaky': { id: 'n_flaky', title: 'Flaky need', url: 'https://packline.test/needs/n_flaky' },
  '/api/v1/opportunities/n_race': { id: 'n_race', title: 'Race v1' },
  '/api/v1/opportunities/n_late': { id: 'n_late', title: 'Still public when read' },
  '/api/v1/events/e_live': {
    id: 'e_live',
    title: 'Builders meetup',
    url: 'https://packline.test/events/e_live',
    starts_at: '2026-12-01T09:00:00.000Z',
  },
};

let api: Server;
let receiver: Receiver;
let dir: string;
let silenced: string[];

beforeAll(async () => {
  api = createServer(async (req, res) => {
    apiRequests.push({ path: req.url ?? '', authorization: req.headers.authorization });
    const resource = RESOURCES[req.url ?? '']; // the state when the request arrives
    const gate = held.get(req.url ?? '');
    if (gate) {
      held.delete(req.url ?? '');
      gate.arrived();
      await gate.release;
    }
    if (req.headers.authorization !== `Bearer ${API_KEY}`) {
      res.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"status":401}');
      return;
    }
    if (req.url === '/api/v1/opportunities/n_flaky' && flakyFailures > 0) {
      flakyFailures -= 1;
      res.writeHead(503, { 'content-type': 'application/problem+json' }).end('{"status":503}');
      return;
    }
    if (resource === undefined) {
      res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404,"code":"not_found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(resource));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const { port } = api.address() as AddressInfo;

  dir = mkdtempSync(join(tmpdir(), 'packline-consumer-'));
  silenced = [];
  receiver = await createReceiver({
    secret: SECRET,
    apiUrl: `http://127.0.0.1:${port}/api/v1/`,
    apiKey: API_KEY,
    dbPath: join(dir, 'consumer.db'),
    port: 0,
    retryIntervalMs: 0,
    logger: { info: () => {}, warn: (message) => void silenced.push(message) },
  });
});

afterAll(async () => {
  await receiver?.close();
  await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await receiver.idle();
  apiRequests.length = 0;
});

let version = 0;
function envelope(type: string, data: Record<string, unknown>) {
  version += 1;
  return {
    id: `evt-${type}-${String(data.id)}-v${version}`,
    type,
    version: '1',
    occurred_at: new Date().toISOString(),
    organization_id: null,
    data,
  };
}

function signatureHeader(body: string, secret = SECRET, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

async function deliver(payload: { id: string } | string, signature?: string): Promise<{ status: number; body: unknown }> {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-delivery-format': 'standard-json',
    'x-service-signature': signature ?? signatureHeader(body),
  };
  if (typeof payload !== 'string') {
    headers['x-service-event-id'] = payload.id;
    headers['idempotency-key'] = payload.id;
  }
  const response = await fetch(`${receiver.url}${WEBHOOK_PATH}`, { method: 'POST', headers, body });
  return { status: response.status, body: await response.json() };
}

/** One row as a plain object (libsql adds a `_metadata` member with the query duration). */
function row<T>(sql: string, ...params: unknown[]): T | undefined {
  const found = receiver.db.prepare(sql).get(...params) as (T & { _metadata?: unknown }) | undefined;
  if (found === undefined) return undefined;
  const { _metadata, ...plain } = found;
  return plain as T;
}
const processed = (eventId: string) =>
  row<{ event_id: string; type: string }>('SELECT event_id, type FROM processed_events WHERE event_id = ?', eventId);
const opportunity = (id: string) =>
  row<{ id: string; title: string | null; url: string | null; pending_refresh: number; generation: number; last_event_id: string }>(
    'SELECT id, title, url, pending_refresh, generation, last_event_id FROM opportunities WHERE id = ?',
    id,
  );
const event = (id: string) =>
  row<{ id: string; title: string | null; pending_refresh: number }>('SELECT id, title, pending_refresh FROM events WHERE id = ?', id);
const count = (table: string) => row<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)!.n;

describe('example consumer', () => {
  it('applies a first delivery, answers 200, then re-reads the resource and stores its title', async () => {
    const created = envelope('need.created', { id: 'n_live', title: 'Retrofit', required_expertise: ['bim'], remote_allowed: true });
    const result = await deliver(created);
    expect(result).toEqual({ status: 200, body: { received: true } });
    expect(processed(created.id)).toEqual({ event_id: created.id, type: 'need.created' });
    // The row exists as soon as the 2xx is sent; the title comes from the API afterwards.
    expect(opportunity('n_live')).toMatchObject({ id: 'n_live', last_event_id: created.id });

    await receiver.idle();
    expect(opportunity('n_live')).toMatchObject({
      title: 'Retrofit of a school',
      url: 'https://packline.test/needs/n_live',
      pending_refresh: 0,
    });
    expect(apiRequests).toEqual([{ path: '/api/v1/opportunities/n_live', authorization: `Bearer ${API_KEY}` }]);
  });

  it('answers a redelivery of the same event as a duplicate and applies its effect once', async () => {
    const updated = envelope('need.updated', { id: 'n_live', title: 'Retrofit (v2)' });
    expect(await deliver(updated)).toEqual({ status: 200, body: { received: true } });
    await receiver.idle();
    const afterFirst = opportunity('n_live');
    expect(afterFirst).toMatchObject({ last_event_id: updated.id, pending_refresh: 0 });
    const requestsAfterFirst = apiRequests.length;

    expect(await deliver(updated)).toEqual({ status: 200, body: { duplicate: true } });
    await receiver.idle();
    expect(opportunity('n_live')).toEqual(afterFirst); // generation not bumped a second time
    expect(apiRequests).toHaveLength(requestsAfterFirst); // no second re-read
    expect(row<{ n: number }>('SELECT count(*) AS n FROM processed_events WHERE event_id = ?', updated.id)).toEqual({ n: 1 });
  });

  it('refuses a bad signature with 401 and stores nothing', async () => {
    const forged = envelope('need.created', { id: 'n_forged', title: 'Forged' });
    const body = JSON.stringify(forged);
    const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const before = { processed: count('processed_events'), opportunities: count('opportunities') };

    expect(await deliver(forged, signatureHeader(body, otherSecret))).toEqual({ status: 401, body: { error: 'signature_mismatch' } });
    expect(await deliver(forged, 'nonsense')).toEqual({ status: 401, body: { error: 'malformed_header' } });
    const stale = signatureHeader(body, SECRET, Math.floor(Date.now() / 1000) - 3600);
    expect(await deliver(forged, stale)).toEqual({ status: 401, body: { error: 'timestamp_out_of_range' } });
    const tampered = body.replace('Forged', 'Tampered');
    expect(await deliver(tampered, signatureHeader(body))).toEqual({ status: 401, body: { error: 'signature_mismatch' } });

    await receiver.idle();
    expect(processed(forged.id)).toBeUndefined();
    expect(opportunity('n_forged')).toBeUndefined();
    expect({ processed: count('processed_events'), opportunities: count('opportunities') }).toEqual(before);
    expect(apiRequests).toEqual([]);
  });

  it('deletes the local row on need.withdrawn, without calling the API', async () => {
    expect(opportunity('n_live')).toBeDefined();
    const withdrawn = envelope('need.withdrawn', {
      id: 'n_live',
      withdrawn_at: new Date().toISOString(),
      url: 'https://packline.test/needs/n_live',
    });
    expect(await deliver(withdrawn)).toEqual({ status: 200, body: { received: true } });
    expect(opportunity('n_live')).toBeUndefined();
    expect(processed(withdrawn.id)).toMatchObject({ type: 'need.withdrawn' });
    await receiver.idle();
    expect(apiRequests).toEqual([]);
    expect(opportunity('n_live')).toBeUndefined();
  });

  it('mirrors events, and deletes the local row when the re-read answers 404 (no longer public)', async () => {
    expect(await deliver(envelope('event.created', { id: 'e_live', title: 'Meetup' }))).toMatchObject({ status: 200 });
    expect(await deliver(envelope('event.updated', { id: 'e_gone', title: 'Gone' }))).toMatchObject({ status: 200 });
    expect(event('e_gone')).toMatchObject({ pending_refresh: 1 });

    await receiver.idle();
    expect(event('e_live')).toEqual({ id: 'e_live', title: 'Builders meetup', pending_refresh: 0 });
    expect(event('e_gone')).toBeUndefined();
    expect(apiRequests.map((r) => r.path).sort()).toEqual(['/api/v1/events/e_gone', '/api/v1/events/e_live']);

    expect(await deliver(envelope('event.cancelled', { id: 'e_live', cancelled_at: new Date().toISOString() }))).toMatchObject({
      status: 200,
    });
    expect(event('e_live')).toBeUndefined();
  });

  it('leaves a row pending when the re-read fails, and a later retry completes it', async () => {
    flakyFailures = 1;
    expect(await deliver(envelope('need.created', { id: 'n_flaky', title: 'Flaky' }))).toMatchObject({ status: 200 });
    await receiver.idle();
    expect(opportunity('n_flaky')).toMatchObject({ title: null, pending_refresh: 1 });
    expect(silenced).toContain('re-read failed; left pending for retry');

    await receiver.refreshPending();
    expect(opportunity('n_flaky')).toMatchObject({ title: 'Flaky need', pending_refresh: 0 });
  });

  it('re-reads again when a newer signal arrives during a re-read, and never stores a stale read', async () => {
    const first = hold('/api/v1/opportunities/n_race');
    expect(await deliver(envelope('need.created', { id: 'n_race', title: 'Race' }))).toMatchObject({ status: 200 });
    await first.arrived; // the first re-read is in flight
    expect(await deliver(envelope('need.updated', { id: 'n_race', title: 'Race v2' }))).toMatchObject({ status: 200 });
    expect(opportunity('n_race')).toMatchObject({ generation: 2, pending_refresh: 1 });
    RESOURCES['/api/v1/opportunities/n_race'] = { id: 'n_race', title: 'Race v2' };
    first.release(); // answers the state from before the update: not stored, the receiver reads again

    await receiver.idle();
    expect(opportunity('n_race')).toMatchObject({ title: 'Race v2', generation: 2, pending_refresh: 0 });
    expect(apiRequests.map((r) => r.path)).toEqual(['/api/v1/opportunities/n_race', '/api/v1/opportunities/n_race']);
  });

  it('keeps a row deleted when the withdrawal arrives while its re-read is in flight', async () => {
    const read = hold('/api/v1/opportunities/n_late');
    expect(await deliver(envelope('need.created', { id: 'n_late', title: 'Late' }))).toMatchObject({ status: 200 });
    await read.arrived;
    expect(await deliver(envelope('need.withdrawn', { id: 'n_late', withdrawn_at: new Date().toISOString() }))).toMatchObject({
      status: 200,
    });
    read.release(); // the API answers 200 (read before the withdrawal)

    await receiver.idle();
    expect(opportunity('n_late')).toBeUndefined();
    expect(apiRequests).toHaveLength(1);
  });

  it('records unknown kinds without effect, and refuses bad data, bad methods, bad paths and large bodies', async () => {
    const future = envelope('need.featured', { id: 'n_x' });
    expect(await deliver(future)).toEqual({ status: 200, body: { received: true } });
    expect(processed(future.id)).toMatchObject({ type: 'need.featured' });
    expect(opportunity('n_x')).toBeUndefined();

    const noId = envelope('need.created', { title: 'No id' });
    expect(await deliver(noId)).toEqual({ status: 400, body: { error: 'malformed_data' } });
    expect(processed(noId.id)).toBeUndefined();

    expect((await fetch(`${receiver.url}${WEBHOOK_PATH}`)).status).toBe(405);
    expect((await fetch(`${receiver.url}/elsewhere`, { method: 'POST', body: '{}' })).status).toBe(404);

    const huge = JSON.stringify({ ...envelope('need.created', { id: 'n_huge' }), padding: 'x'.repeat(MAX_BODY_BYTES) });
    const response = await fetch(`${receiver.url}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': signatureHeader(huge) },
      body: huge,
    });
    expect(response.status).toBe(413);
    expect(opportunity('n_huge')).toBeUndefined();
  });
});
