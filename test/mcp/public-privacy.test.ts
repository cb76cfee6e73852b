import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canaryStrings, findCanaries } from '../../core/demo/canaries.ts';
import { DEMO_EVENTS, DEMO_MEMBERS, DEMO_NEEDS, DEMO_ORGANIZATIONS } from '../../core/demo/demo-data.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { call, connectPublic, raw, toolCall } from './public-client.ts';

// What the public connector must never return (docs/service-contract.md#public-tools): private objects (the demo data's
// canaries), demonstration, incomplete or unlisted organizations, people, needs and events.
// And what it must never keep: the need text given to compose_team reaches neither the logs
// (at trace level) nor the database.

const HIDDEN_ORGS = DEMO_ORGANIZATIONS.filter((o) => o.demo || o.listed === false || o.complete === false);
const NEVER = [
  ...HIDDEN_ORGS.flatMap((o) => [o.id, o.name]),
  'Demo Network',
  ...DEMO_MEMBERS.flatMap((m) => [m.name, m.email]),
  ...DEMO_NEEDS.map((n) => n.title),
  ...DEMO_EVENTS.map((e) => e.title),
];

/** Calls that reach for everything: every tool, every criterion, the hidden organizations' own words. */
const SWEEP: [string, Record<string, unknown>][] = [
  ['search_organizations', { limit: 50 }],
  ...['masonry', 'video production', 'motion design', 'web development', 'architecture', 'ux design'].map(
    (capability): [string, Record<string, unknown>] => ['search_organizations', { capability, limit: 50 }],
  ),
  ...['Nantes', 'Marseille', 'Bordeaux', 'France'].map((place): [string, Record<string, unknown>] => [
    'search_organizations',
    { place, limit: 50 },
  ]),
  ['search_organizations', { network: 'Demo Network' }],
  ['search_organizations', { sector: 'construction' }],
  ['search_organizations', { sector: 'media' }],
  ...[
    'demonstration',
    'Iris',
    'Harbor Studio',
    'Granite Coop',
    'canary',
    'billing',
    'quote pact split payout',
    'Inès Morel',
    'school extension',
  ].map((query): [string, Record<string, unknown>] => ['search_organizations', { query, limit: 50 }]),
  ...DEMO_ORGANIZATIONS.map((o): [string, Record<string, unknown>] => ['get_organization', { id: o.id }]),
  ['compose_team', { required_expertise: ['masonry', 'video production', 'web development', 'architecture', 'interior design'] }],
  ...DEMO_NEEDS.map((n): [string, Record<string, unknown>] => ['compose_team', { need_text: `${n.title}. ${n.description}` }]),
  ...[
    'What is never exposed?',
    'revenue split payouts pacts quotes',
    'How does the public assistant connector work?',
    'compose a team',
  ].map((question): [string, Record<string, unknown>] => ['explain_service', { question, limit: 10 }]),
  ...['demonstration', 'design', 'translation', 'webhook', 'Iris Harbor Granite', 'canary quote'].map(
    (query): [string, Record<string, unknown>] => ['search', { query }],
  ),
  ...DEMO_ORGANIZATIONS.map((o): [string, Record<string, unknown>] => ['fetch', { id: `org:${o.id}` }]),
  ['fetch', { id: 'faq:never-exposed' }],
];

describe('privacy of the public connector', () => {
  let stack: Stack;
  let client: Client;
  beforeAll(async () => {
    stack = await startStack({ env: { LOG_LEVEL: 'trace', MCP_RATE_LIMIT_PER_MINUTE: '100000', MCP_COMPOSE_LIMIT_PER_HOUR: '100000' } });
    client = await connectPublic(stack);
    await client.listTools();
  });
  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });

  it('no output carries a canary, a hidden organization, a person, a need or an event', async () => {
    const outputs: string[] = [];
    const fetched: string[] = [];
    let succeeded = 0;
    for (const [name, args] of SWEEP) {
      const result = await call(client, name, args);
      if (!result.isError) succeeded++;
      outputs.push(JSON.stringify(result));
    }
    // And every search result, fetched in full.
    for (const query of ['design', 'webhook', 'France', 'data']) {
      const { structuredContent } = await call(client, 'search', { query });
      for (const { id } of (structuredContent as { results: { id: string }[] }).results) {
        fetched.push(JSON.stringify(await call(client, 'fetch', { id })));
      }
    }
    expect(succeeded).toBeGreaterThan(SWEEP.length - HIDDEN_ORGS.length * 2 - 5);
    expect(fetched.length).toBeGreaterThan(10);
    const corpus = [...outputs, ...fetched].join('\n');
    expect(canaryStrings().length).toBeGreaterThan(20);
    expect(findCanaries(corpus)).toEqual([]);
    // Hidden organizations appear only where the caller named them: in "No organization with id '…'".
    const withoutEchoes = corpus.replace(/No organization with id '[^']*'/g, '');
    expect(NEVER.filter((text) => withoutEchoes.includes(text))).toEqual([]);
  });

  it('never stores or logs the need text given to compose_team', async () => {
    const marker = `need-marker-${randomBytes(8).toString('hex')}`;
    const results: CallToolResult[] = [
      await call(client, 'compose_team', { need_text: `We need interior design and web development for ${marker}` }),
      await call(client, 'compose_team', { need_text: `Nothing recognisable in ${marker}` }),
      await call(client, 'compose_team', { need_text: `${marker} `.repeat(600) }),
      await call(client, 'compose_team', { need_text: marker, required_expertise: ['copywriting'], place: { city: marker } }),
      await call(client, 'compose_team', { need_text: marker, max_members: 99 }),
    ];
    expect(results[0]!.isError).toBeFalsy();
    expect(results.filter((r) => r.isError).length).toBeGreaterThanOrEqual(3);
    // The answers do not echo it either.
    expect(results.map((r) => JSON.stringify(r)).filter((r) => r.includes(marker))).toEqual([]);
    // Raw requests around it: malformed JSON, an unknown tool, a GraphQL-breaking value.
    await raw(stack, {
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"compose_team","arguments":{"need_text":"${marker}"`,
    });
    await raw(stack, { body: toolCall('compose_teams', { need_text: marker }) });
    await raw(stack, { body: toolCall('compose_team', { need_text: { marker } }) });

    expect(stack.logs.length).toBeGreaterThan(5);
    expect(stack.logs.filter((line) => line.includes(marker))).toEqual([]);
    expect(await databaseDump(stack)).not.toContain(marker);
    if (!stack.env.DATABASE_URL) expect(filesContaining(stack.env.DATA_DIR!, marker)).toEqual([]);
  });
});

/**
 * Files under `dir` holding `text`, searched by another process: opening and closing the SQLite
 * file in this one would drop the server's POSIX locks on it (SQLite's documented pitfall).
 */
function filesContaining(dir: string, text: string): string[] {
  const grep = spawnSync('grep', ['-rlaF', '--', text, dir], { encoding: 'utf8' });
  if (grep.status === 1) return [];
  if (grep.status !== 0) throw new Error(`grep failed: ${grep.stderr}`);
  return grep.stdout.split('\n').filter((line) => line !== '');
}

/** Every row of every table, as text. */
async function databaseDump(stack: Stack): Promise<string> {
  const connection = stack.app.core.db.em.fork().getConnection();
  const postgres = Boolean(stack.env.DATABASE_URL);
  const tables = await connection.execute<{ name: string }[]>(
    postgres
      ? "select table_name as name from information_schema.tables where table_schema = 'public'"
      : "select name from sqlite_master where type = 'table'",
  );
  expect(tables.length).toBeGreaterThan(10);
  const parts: string[] = [];
  for (const { name } of tables) parts.push(JSON.stringify(await connection.execute(`select * from "${name}"`)));
  return parts.join('\n');
}
