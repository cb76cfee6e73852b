// The SOFA peer of `npm run bench:peer`, started as a process on the suite's database: it must
// answer the same data as Packline's REST API for the same key, and refuse what Packline refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareAnswers, peerEndpoints, restView, type PeerEndpoint } from '../../bench/support/peer-compare.ts';
import { startSofaPeer, type SofaPeerProcess } from '../../bench/support/sofa-peer-process.ts';
import { createKey, createOrganization } from '../rest/helpers.ts';
import { startStack, type Stack } from '../support/stack.ts';

describe('SOFA peer over the same schema and database', () => {
  let stack: Stack;
  let peer: SofaPeerProcess;
  let endpoints: PeerEndpoint[];

  beforeAll(async () => {
    stack = await startStack();
    peer = await startSofaPeer({ env: { ...process.env, ...stack.env }, publicBaseUrl: stack.config.publicBaseUrl });
    const first = async (path: string) => {
      const body = (await (await stack.get(path)).json()) as { id?: string; data?: { id: string }[] };
      return (body.data ? body.data[0]?.id : body.id) ?? '';
    };
    endpoints = peerEndpoints({
      organizationId: await first('/organization'),
      opportunityId: await first('/opportunities?limit=1'),
      eventId: await first('/events?limit=1'),
    });
  });

  afterAll(async () => {
    await peer?.stop();
    await stack?.close();
  });

  it('answers the five endpoints with the same ids and data as the REST API', async () => {
    const comparisons = await compareAnswers(stack.origin, peer.origin, stack.demoKey, endpoints);
    expect(comparisons.map((c) => c.endpoint)).toEqual(endpoints.map((e) => e.name));
    for (const c of comparisons) {
      expect({ endpoint: c.endpoint, packline: c.packlineStatus, peer: c.peerStatus }).toEqual({
        endpoint: c.endpoint,
        packline: 200,
        peer: 200,
      });
      expect(c.packlineIds.length, `${c.endpoint} has ids`).toBeGreaterThan(0);
      expect(c.peerIds, c.endpoint).toEqual(c.packlineIds);
      expect(c.differences, c.endpoint).toEqual([]);
      expect(c.sameData, c.endpoint).toBe(true);
    }
  });

  it('pages with first/after as the REST API pages with limit/cursor', async () => {
    const page1 = (await (await stack.get('/opportunities?limit=3')).json()) as { data: { id: string }[]; meta: { next_cursor: string } };
    expect(page1.meta.next_cursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(page1.meta.next_cursor);
    const rest = (await (await stack.get(`/opportunities?limit=3&cursor=${cursor}`)).json()) as { data: { id: string }[] };
    const res = await fetch(`${peer.origin}/api/v1/opportunities?first=3&after=${cursor}`, {
      headers: { authorization: `Bearer ${stack.demoKey}` },
    });
    expect(res.status).toBe(200);
    const view = restView('list', await res.json()) as { data: { id: string }[] };
    expect(view.data.map((o) => o.id)).toEqual(rest.data.map((o) => o.id));
    expect(view.data.map((o) => o.id)).not.toEqual(page1.data.map((o) => o.id));
  });

  it('checks the key through the key authenticator and the scope through the schema', async () => {
    const url = `${peer.origin}${endpoints[1]!.peer}`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer live_not-a-key' } })).status).toBe(401);

    const org = await createOrganization(stack, 'clan');
    const eventsOnly = await createKey(stack, org, ['events:read']);
    const refused = await fetch(url, { headers: { authorization: `Bearer ${eventsOnly.key}` } });
    expect(refused.status).toBe(403);
    expect((await stack.get(endpoints[1]!.packline.slice('/api/v1'.length), { key: eventsOnly.key })).status).toBe(403);
    const allowed = await fetch(`${peer.origin}${endpoints[3]!.peer}`, { headers: { authorization: `Bearer ${eventsOnly.key}` } });
    expect(allowed.status).toBe(200);
  });

  it('exposes no other root field and no mutation', async () => {
    const headers = { authorization: `Bearer ${stack.demoKey}` };
    expect((await fetch(`${peer.origin}/api/v1/organizations`, { headers })).status).toBe(404);
    expect((await fetch(`${peer.origin}/api/v1/create-api-key`, { method: 'POST', headers, body: '{}' })).status).toBe(404);
  });
});
