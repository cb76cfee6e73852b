import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../core/db/orm.ts';
import { ApiKeyUsageEntity, ApiUsageEntity } from '../../core/entities/index.ts';
import { PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { createOrganization } from '../support/webhooks.ts';

// The usage page over HTTP: answers recorded per key and status class (429 refusals included),
// the split tables, the month picker and a past month, a folded data table, spaced labels.

const ORG = 'usage-org';
const PAGE = `/admin/orgs/${ORG}/usage`;
const PAST = '2025-03';
const nextYear = () => `${new Date().getUTCFullYear() + 1}-01-01`;
/** The figure of a row's cell, by the row's header text and the cell's label. */
const cell = (page: string, table: string, row: string, label: string) => {
  const section = page.slice(page.indexOf(`id="${table}"`));
  const tr = section.slice(section.indexOf(row));
  return Number(new RegExp(`data-label="${label.replace(/[()]/g, '\\$&')}">([\\d,]+)<`).exec(tr)![1]!.replaceAll(',', ''));
};

describe('usage page', () => {
  let stack: Stack;
  let admin: TestBrowser;
  let db: Database;

  beforeAll(async () => {
    stack = await startStack({ demo: false, env: { RATE_LIMIT_PER_MINUTE: '3' } });
    await createOrganization(stack, ORG);
    await stack.graphql(`mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`, {
      input: { email: 'ada@usage.example', name: 'Ada', password: PASSWORD, organizationId: ORG, role: 'admin' },
    });
    admin = new TestBrowser(stack);
    await admin.signIn('ada@usage.example', PASSWORD, '/admin');
    db = await connectDatabase({ dataDir: stack.serverEnv.DATA_DIR!, databaseUrl: stack.serverEnv.DATABASE_URL });
  });
  afterAll(async () => {
    await db?.close();
    await stack?.close();
  });

  async function newKey(name: string): Promise<string> {
    const keys = await admin.page(`/admin/orgs/${ORG}/keys`);
    const form = { name, scopes: 'opportunities:read', expires_on: nextYear() };
    const { res } = await admin.follow(`/admin/orgs/${ORG}/keys`, {
      form: { ...form, csrf: /name="csrf" value="([^"]+)"/.exec(keys)![1]! },
    });
    return /<code id="secret-value">([^<]+)<\/code>/.exec(await res.text())![1]!;
  }

  it('splits this month’s answers by key and by status, the rate limit’s 429s included', async () => {
    const busy = await newKey('Busy key');
    const quiet = await newKey('Quiet key');
    expect((await stack.get('/opportunities?limit=1', { key: busy })).status).toBe(200);
    expect((await stack.get('/opportunities?limit=1', { key: busy })).status).toBe(200);
    expect((await stack.get('/opportunities/nope', { key: busy })).status).toBe(404);
    expect((await stack.get('/opportunities?limit=1', { key: busy })).status).toBe(429);
    expect((await stack.get('/opportunities?limit=1', { key: busy })).status).toBe(429);
    expect((await stack.get('/events?limit=1', { key: quiet })).status).toBe(403);

    const page = await admin.page(PAGE);
    expect(cell(page, 'by-key', 'Busy key', 'Answered (2xx)')).toBe(2);
    expect(cell(page, 'by-key', 'Busy key', 'Refused request (4xx)')).toBe(1);
    expect(cell(page, 'by-key', 'Busy key', 'Over the limit (429)')).toBe(2);
    expect(cell(page, 'by-key', 'Quiet key', 'Refused request (4xx)')).toBe(1);
    expect(cell(page, 'by-key', 'Quiet key', 'Answered (2xx)')).toBe(0);
    expect(cell(page, 'by-status', 'Over the limit (429)', 'Answers')).toBe(2);
    expect(cell(page, 'by-status', 'Answered (2xx)', 'Answers')).toBe(2);
    expect(page).toContain('<details><summary>Calls per day, as figures</summary>');
    expect(page).toContain('<h2>This minute</h2>');
  });

  it('offers the months that have data, and shows a past month whole', async () => {
    const em = db.em.fork();
    await em.insert(ApiUsageEntity, { organizationId: ORG, day: `${PAST}-14`, calls: 40 });
    await em.insert(ApiKeyUsageEntity, { organizationId: ORG, day: `${PAST}-14`, keyId: 'key_gone', answer: '429', calls: 7 });
    await em.insert(ApiKeyUsageEntity, { organizationId: ORG, day: `${PAST}-14`, keyId: 'key_gone', answer: '2xx', calls: 40 });

    const current = await admin.page(PAGE);
    const thisMonth = new Date().toISOString().slice(0, 7);
    expect(current).toContain(`<option value="${thisMonth}" selected>`);
    expect(current).toContain(`<option value="${PAST}">`);
    expect(current.match(/<option /g)).toHaveLength(2);

    const past = await admin.page(`${PAGE}?month=${PAST}`);
    expect(past).toContain(`<option value="${PAST}" selected>`);
    expect(past).toContain('<strong>40</strong> calls counted');
    expect(past).toContain(`<title>${PAST}-14: 40 calls</title>`);
    expect(past).toContain(`<title>${PAST}-31: 0 calls</title>`);
    expect(cell(past, 'by-key', 'a deleted key', 'Over the limit (429)')).toBe(7);
    expect(past).not.toContain('Busy key');
    expect(past).not.toContain('<h2>This minute</h2>');
  });

  it('answers a month it cannot show with a plain error, not a failure', async () => {
    for (const month of ['2025-13', 'soon', '2999-01']) {
      const res = await admin.request(`${PAGE}?month=${month}`);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('month must be a month up to this one, written YYYY-MM');
    }
  });

  it('labels the days of a 31-day month without two labels side by side', async () => {
    const page = await admin.page(`${PAGE}?month=${PAST}`);
    // The three ticks of the calls axis come first, then the days.
    const labels = [...page.matchAll(/font-size="12">([\d,]+)<\/text>/g)].map((m) => m[1]);
    expect(labels.slice(3).map(Number)).toEqual([1, 5, 10, 15, 20, 25, 31]);
  });
});
