// The e-signature provider's inbound address over real HTTP: signed notifications update pact
// signature state once, and nothing of it reaches the outbox or any webhook destination.
import { once } from 'node:events';
import { connect as connectSocket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY } from '../../core/demo/canaries.ts';
import { signEsignNotification } from '../../core/esign/esign-signature.ts';
import type { EsignConnectedJson } from '../cli/cli-json.ts';
import { runInProcess as runCli, runJsonInProcess as runJson } from '../cli/run-cli.ts';
import { Receiver } from '../support/receiver.ts';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';
import { WEBHOOK_TEST_ENV, createDestination } from '../support/webhooks.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

// The demo data gives atelier-nord's pack and juniper-green's pack one pending signature each,
// both under the same provider envelope id.
const ENVELOPE = CANARY.signatureEnvelope;
const LEAD = 'atelier-nord';
const OTHER_LEAD = 'juniper-green';

interface Notification {
  event_id: string;
  envelope_id: string;
  status: string;
  occurred_at: string;
}

describe('e-signature inbound address', () => {
  let stack: Stack;
  let receiver: Receiver;
  let connection: { id: string; secret: string; inboundUrl: string };
  let initial: { outbox: number; deliveries: number; epoch: number };

  const sql = async <T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> =>
    (await stack.app.core.db.em.fork().getConnection().execute(query, params)) as T[];
  const count = async (table: string) => Number((await sql<{ n: number | string }>(`select count(*) as n from ${table}`))[0]!.n);
  /** Signature rows of the demo envelope, by the organization leading their pack. */
  const signatures = async () => {
    const rows = await sql<{ lead: string; state: string; signed_at: unknown }>(
      `select k.lead_organization_id as lead, s.state, s.signed_at from pact_signatures s
         join pacts p on p.id = s.pact_id join packs k on k.id = p.pack_id
        where s.provider_envelope_id = ? order by k.lead_organization_id`,
      [ENVELOPE],
    );
    return Object.fromEntries(
      rows.map((r) => [r.lead, { state: r.state, signedAt: r.signed_at === null ? null : new Date(r.signed_at as string).toISOString() }]),
    );
  };
  /** Everything a notification must leave alone, or change only through its own table. */
  const sideEffects = async () => ({
    outbox: await count('outbox_events'),
    deliveries: await count('webhook_deliveries'),
    epoch: Number((await sql<{ value: number | string }>('select value from change_epoch where id = 1'))[0]!.value),
  });

  const now = () => Math.floor(Date.now() / 1000);
  function post(connectionId: string, body: string, signature?: string, init: RequestInit = {}) {
    return fetch(`${stack.origin}/inbound/e-signature/${connectionId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'x-esign-signature': signature }) },
      body,
      ...init,
    });
  }
  function notify(target: { id: string; secret: string }, payload: Notification, t = now()) {
    const body = JSON.stringify(payload);
    return post(target.id, body, signEsignNotification(target.secret, body, t));
  }
  const payload = (eventId: string, status = 'signed', occurredAt = '2026-11-22T10:15:00.000Z'): Notification => ({
    event_id: eventId,
    envelope_id: ENVELOPE,
    status,
    occurred_at: occurredAt,
  });

  beforeAll(async () => {
    stack = await startStack({ env: WEBHOOK_TEST_ENV });
    // A live destination of the lead organization: any outbound signal would be queued for it.
    receiver = await new Receiver().start();
    await createDestination(stack, { organizationId: LEAD, url: receiver.url('/hook') });
    const created = await runJson<EsignConnectedJson>(['esign', 'connect', '--org', LEAD, '--provider', 'Docusign'], stack.env);
    connection = { id: created.id, secret: created.secret, inboundUrl: created.inbound_url };
    initial = await sideEffects();
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  it('the CLI connects a provider: the inbound URL and the secret, shown once and stored sealed', async () => {
    expect(connection.id).toMatch(/^esc_[a-z0-9]{14}$/);
    expect(connection.secret).toMatch(/^esec_[A-Za-z0-9_-]{43}$/);
    expect(connection.inboundUrl).toBe(`${PUBLIC_BASE_URL}/inbound/e-signature/${connection.id}`);

    const listed = await runJson(['esign', 'list', '--org', LEAD], stack.env);
    expect(listed).toEqual([
      {
        id: connection.id,
        organization_id: LEAD,
        provider: 'Docusign',
        created_at: expect.any(String),
        inbound_path: `/inbound/e-signature/${connection.id}`,
      },
    ]);
    const graphql = await stack.graphql<QueryData<'esignConnections'>>(
      'query($org: ID!) { esignConnections(organizationId: $org) { id provider inboundPath } }',
      {
        org: LEAD,
      },
    );
    expect(JSON.stringify(graphql)).not.toContain(connection.secret);
    const stored = await sql<{ secret_sealed: string }>('select secret_sealed from esign_connections where id = ?', [connection.id]);
    expect(stored[0]!.secret_sealed).toMatch(/^v1\./);
    expect(stored[0]!.secret_sealed).not.toContain(connection.secret.slice(5));

    const text = await runCli(['esign', 'connect', '--org', OTHER_LEAD, '--provider', 'Yousign'], stack.env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^secret: esec_[A-Za-z0-9_-]{43}$/m);
    expect(text.stdout).toMatch(/shown once/);
    expect(text.stdout).toContain(`inbound_url: ${PUBLIC_BASE_URL}/inbound/e-signature/esc_`);
  });

  it('a signed notification updates the signature state of packs the organization leads, and nothing else', async () => {
    expect(await signatures()).toEqual({
      [LEAD]: { state: 'pending', signedAt: null },
      [OTHER_LEAD]: { state: 'pending', signedAt: null },
    });
    const before = await sideEffects();
    const res = await notify(connection, payload('evt-signed-1'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ updated: 1 });
    expect(await signatures()).toEqual({
      [LEAD]: { state: 'signed', signedAt: '2026-11-22T10:15:00.000Z' },
      [OTHER_LEAD]: { state: 'pending', signedAt: null },
    });
    // No outbox row, no delivery, no change epoch: nothing goes out to any destination.
    expect(await sideEffects()).toEqual(before);
    expect(await count('esign_inbound_events')).toBe(1);
  });

  it('a replay of the same provider event id is a duplicate and changes nothing', async () => {
    const before = { signatures: await signatures(), events: await count('esign_inbound_events'), effects: await sideEffects() };
    for (const replay of [payload('evt-signed-1'), payload('evt-signed-1', 'declined', '2026-11-23T08:00:00Z')]) {
      const res = await notify(connection, replay);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ duplicate: true });
    }
    expect({ signatures: await signatures(), events: await count('esign_inbound_events'), effects: await sideEffects() }).toEqual(before);
  });

  it('refuses bad, missing and stale signatures and unknown connections with one 401, changing nothing', async () => {
    const before = { signatures: await signatures(), events: await count('esign_inbound_events'), effects: await sideEffects() };
    const body = JSON.stringify(payload('evt-forged', 'declined'));
    const t = now();
    const good = signEsignNotification(connection.secret, body, t);
    const attempts = [
      post(connection.id, body, signEsignNotification('esec_not-the-secret', body, t)),
      post(connection.id, body),
      post(connection.id, body, `t=${t},v1=${'0'.repeat(64)}`),
      post(connection.id, `${body} `, good), // the signature covers the exact bytes
      post(connection.id, body, good.replace(`t=${t}`, `t=${t - 1}`)),
      notify(connection, payload('evt-stale', 'declined'), t - 6 * 60),
      notify(connection, payload('evt-future', 'declined'), t + 6 * 60),
      notify({ id: 'esc_doesnotexist00', secret: connection.secret }, payload('evt-unknown', 'declined')),
      post('esc_doesnotexist00', body, 'garbage'),
      post('%E0%A4%A', body, good),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'invalid_signature' });
    }
    expect({ signatures: await signatures(), events: await count('esign_inbound_events'), effects: await sideEffects() }).toEqual(before);
  });

  it('answers 400 for a signed but unreadable payload, 413 beyond 256 KB and 405 for other methods', async () => {
    const before = { signatures: await signatures(), events: await count('esign_inbound_events') };
    const unreadable = [
      '{"event_id": "evt-x", ',
      JSON.stringify({ ...payload('evt-x'), status: 'viewed' }),
      JSON.stringify({ ...payload('evt-x'), occurred_at: 'yesterday' }),
      '[]',
    ];
    for (const body of unreadable) {
      const res = await post(connection.id, body, signEsignNotification(connection.secret, body, now()));
      expect(res.status, body).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_payload', detail: expect.any(String) });
    }
    const big = JSON.stringify({ ...payload('evt-big'), padding: 'x'.repeat(256 * 1024) });
    const tooLarge = await post(connection.id, big, signEsignNotification(connection.secret, big, now()));
    expect(tooLarge.status).toBe(413);
    const get = await fetch(`${stack.origin}/inbound/e-signature/${connection.id}`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(`${stack.origin}/inbound/other`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect({ signatures: await signatures(), events: await count('esign_inbound_events') }).toEqual(before);
  });

  it('answers 413 to an oversized chunked body as soon as it passes the limit, without waiting for its end', async () => {
    const socket = connectSocket({ host: '127.0.0.1', port: Number(new URL(stack.origin).port) });
    await once(socket, 'connect');
    let received = '';
    const answered = new Promise<void>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.includes('\r\n\r\n')) resolve();
      }),
    );
    const closed = once(socket, 'close');
    socket.write(
      `POST /inbound/e-signature/${connection.id} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
    );
    // 320 KiB in 64 KiB chunks, past the 256 KiB limit, and never the last chunk: the body has no end.
    const chunk = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 5; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await answered;
    expect(received).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(received.toLowerCase()).toContain('connection: close');
    // The server closes the connection rather than reading on.
    await closed;
    expect(received).toContain('"error":"payload_too_large"');
  }, 20_000);

  /** Connects through internal GraphQL (the CLI's path is covered above). */
  async function connect(organizationId: string, provider: string): Promise<{ id: string; secret: string }> {
    const data = await stack.graphql<MutationData<'connectEsignProvider'>>(
      'mutation($org: ID!, $p: String!) { connectEsignProvider(organizationId: $org, provider: $p) { secret connection { id } } }',
      { org: organizationId, p: provider },
    );
    return { id: data.connectEsignProvider.connection.id, secret: data.connectEsignProvider.secret };
  }

  it("a declined notification on another organization's connection touches only its own pack", async () => {
    const other = await connect(OTHER_LEAD, 'Yousign');
    const res = await notify({ id: other.id, secret: other.secret }, payload('evt-signed-1', 'declined', '2026-11-24T09:00:00Z'));
    // The same provider event id on another connection is another event.
    expect(await res.json()).toEqual({ updated: 1 });
    expect(await signatures()).toEqual({
      [LEAD]: { state: 'signed', signedAt: '2026-11-22T10:15:00.000Z' },
      [OTHER_LEAD]: { state: 'declined', signedAt: null },
    });
    // An envelope nobody leads is recorded (so a replay stays a duplicate) but updates nothing.
    const stray = await notify(connection, { ...payload('evt-stray'), envelope_id: 'env-unknown' });
    expect(await stray.json()).toEqual({ updated: 0 });
  });

  it('after disconnect, the old secret no longer opens the address', async () => {
    const temporary = await connect(LEAD, 'Temporary');
    expect((await notify({ id: temporary.id, secret: temporary.secret }, { ...payload('evt-tmp'), envelope_id: 'env-none' })).status).toBe(
      200,
    );
    const applied = async () =>
      Number(
        (await sql<{ n: number | string }>('select count(*) as n from esign_inbound_events where connection_id = ?', [temporary.id]))[0]!.n,
      );
    expect(await applied()).toBe(1);
    const removed = await runJson(['esign', 'disconnect', temporary.id], stack.env);
    expect(removed).toMatchObject({ id: temporary.id, provider: 'Temporary' });
    // Its record of applied notifications goes with it.
    expect(await applied()).toBe(0);
    const res = await notify({ id: temporary.id, secret: temporary.secret }, { ...payload('evt-tmp-2'), envelope_id: 'env-none' });
    expect(res.status).toBe(401);
    await expect(
      stack.graphql<MutationData<'disconnectEsignProvider'>>('mutation($id: ID!) { disconnectEsignProvider(id: $id) { id } }', {
        id: temporary.id,
      }),
    ).rejects.toMatchObject({ codes: ['NOT_FOUND'] });
  });

  it('applies concurrent deliveries of one event exactly once', async () => {
    const target = await connect(LEAD, 'Concurrent');
    const before = await count('esign_inbound_events');
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => notify(target, { ...payload('evt-race'), envelope_id: 'env-none' }).then((r) => r.json())),
    );
    expect(answers.filter((a) => a.duplicate === true)).toHaveLength(3);
    expect(answers.filter((a) => a.updated === 0)).toHaveLength(1);
    expect(await count('esign_inbound_events')).toBe(before + 1);
  });

  it('no webhook delivery came out of any of it', async () => {
    const delivered = await stack.graphql<QueryData<'webhookDeliveries'>>(
      'query($org: ID!) { webhookDeliveries(organizationId: $org, first: 50) { edges { node { id } } } }',
      { org: LEAD },
    );
    expect(delivered.webhookDeliveries.edges).toEqual([]);
    expect(await sideEffects()).toEqual(initial);
    expect(receiver.received).toEqual([]);
  });
});
