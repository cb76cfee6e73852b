// Anyone may register an application (RFC 7591), so registrations nobody uses do not stay: one
// that no member approved within 30 days of its registration is unknown from then on, and the
// next registration deletes it. An application in use stays, whatever its age.
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssistantClientEntity, UNUSED_CLIENT_DAYS } from '../../core/entities/index.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { connectMember, createMember, MEMBER_URL, REDIRECT_URL, stackFetch } from './member-client.ts';

const DAY = 24 * 3600 * 1000;

describe('registered applications', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  async function register(name: string): Promise<string> {
    const res = await fetch(`${stack.origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT_URL], token_endpoint_auth_method: 'none' }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  }

  /** Moves a registration back in time, as if it had been made `days` ago. */
  async function age(clientId: string, days: number): Promise<void> {
    const em = stack.app.core.db.em.fork();
    expect(await em.nativeUpdate(AssistantClientEntity, { id: clientId }, { createdAt: new Date(Date.now() - days * DAY) })).toBe(1);
  }
  const stored = (clientId: string) => stack.app.core.db.em.fork().count(AssistantClientEntity, { id: clientId });

  const authorize = (clientId: string) =>
    fetch(
      `${stack.origin}/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT_URL,
        response_type: 'code',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`,
      { headers: { accept: 'text/html' }, redirect: 'manual' },
    );

  it(`are unknown ${UNUSED_CLIENT_DAYS} days after registration when no member used them, then deleted`, async () => {
    const fresh = await register('Fresh application');
    const waiting = await register('Waiting application');
    const abandoned = await register('Abandoned application');
    await age(waiting, UNUSED_CLIENT_DAYS - 1);
    await age(abandoned, UNUSED_CLIENT_DAYS + 1);

    // Still known: the authorization request goes on to the sign-in and consent pages.
    for (const clientId of [fresh, waiting]) expect((await authorize(clientId)).status, clientId).toBe(302);
    // Expired: Packline's own page, and the token endpoint knows no such client.
    const page = await authorize(abandoned);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('is not registered with Packline');
    const token = await fetch(`${stack.origin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: abandoned, refresh_token: 'plr_x' }).toString(),
    });
    expect(token.status).toBe(400);
    expect(((await token.json()) as { error: string }).error).toBe('invalid_client');

    // The next registration deletes it; the others stay.
    expect(await stored(abandoned)).toBe(1);
    await register('Another application');
    expect(await stored(abandoned)).toBe(0);
    expect(await stored(waiting)).toBe(1);
  });

  it('stay while in use, however long ago they were registered', async () => {
    const email = 'long-time-user@atelier-nord.example';
    await createMember(stack, email);
    const client = await connectMember(stack, email);
    await age(client.clientId, 365);
    await register('Yet another application');
    expect(await stored(client.clientId)).toBe(1);
    // Its refresh token still works.
    expect(await auth(client, { serverUrl: MEMBER_URL, fetchFn: stackFetch(stack) })).toBe('AUTHORIZED');
    const used = await stack.app.core.db.em.fork().findOneOrFail(AssistantClientEntity, { id: client.clientId });
    expect(Date.now() - used.lastUsedAt!.getTime()).toBeLessThan(60_000);
  });
});
