// Shape limits on /graphql (GraphQL Armor): every named operation the facades send passes them;
// a flood of aliases, deep nesting or an oversized document is refused before it runs, with a
// GraphQL error that says which limit.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { print, type DocumentNode } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { armorPlugins, GRAPHQL_LIMITS } from '../../facades/graphql/armor.ts';
import { schema } from '../../schema/index.ts';
import { INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';

const GENERATED = join(import.meta.dirname, '../../facades/generated');

/** Every operation document of every facade (REST, MCP, pages, integrations, CLI). */
async function facadeOperations(): Promise<{ facade: string; name: string; document: DocumentNode }[]> {
  const found: { facade: string; name: string; document: DocumentNode }[] = [];
  for (const file of readdirSync(GENERATED).filter((f) => f.endsWith('.ts'))) {
    const module = (await import(join(GENERATED, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      const document = value as DocumentNode | null;
      // Fragments are exported too; they travel inside the operations that use them.
      if (document?.kind === 'Document' && document.definitions.some((d) => d.kind === 'OperationDefinition'))
        found.push({ facade: file, name, document: value as DocumentNode });
    }
  }
  return found;
}

describe('facade operations', () => {
  it('each passes the limits (parsed and validated as /graphql does; nothing runs)', async () => {
    // The same plugins as /graphql; execution is replaced so mutations do nothing.
    const yoga = createYoga({
      schema,
      logging: false,
      plugins: [
        ...armorPlugins(),
        { onExecute: ({ setExecuteFn }: { setExecuteFn: (fn: () => unknown) => void }) => setExecuteFn(() => ({ data: {} })) },
      ],
    });
    const operations = await facadeOperations();
    expect(operations.length).toBeGreaterThan(80);
    for (const { facade, name, document } of operations) {
      const res = await yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: print(document) }),
      });
      const body = (await res.json()) as { errors?: { message: string }[] };
      expect(body.errors, `${facade} ${name}`).toBeUndefined();
      expect(res.status, `${facade} ${name}`).toBe(200);
    }
    // The same harness refuses what breaks a limit: the check above is not vacuous.
    const flood = `{ ${Array.from({ length: GRAPHQL_LIMITS.aliases + 1 }, (_, i) => `a${i}: organization(id: "o") { id }`).join(' ')} }`;
    const refused = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: flood }),
    });
    expect(((await refused.json()) as { errors?: { message: string }[] }).errors?.[0]?.message).toMatch(/^Syntax Error: Aliases limit/);
  });
});

describe('/graphql', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ demo: false });
  });
  afterAll(() => stack?.close());

  async function post(query: string): Promise<{ errors: { message: string }[]; size: number }> {
    const res = await fetch(`${stack.origin}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const text = await res.text();
    return { errors: (JSON.parse(text) as { errors?: { message: string }[] }).errors ?? [], size: text.length };
  }

  it('refuses 6,000 aliased lists before running anything, with a clear error', async () => {
    const query = `{ ${Array.from({ length: 6_000 }, (_, i) => `a${i}: needs(first: 50) { edges { node { id title } } }`).join(' ')} }`;
    expect(query.length).toBeGreaterThan(300_000);
    const refused = await post(query);
    expect(refused.errors).toHaveLength(1);
    expect(refused.errors[0]!.message).toBe(`Syntax Error: Token limit of ${GRAPHQL_LIMITS.tokens} exceeded.`);
    expect(refused.size).toBeLessThan(1_000);
    expect((await fetch(`${stack.origin}/healthz`)).status).toBe(200);
  });

  it('refuses more aliases than allowed, even in a short document', async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: organization(id: "o${i}") { id }`).join(' ')} }`;
    const query = aliases(GRAPHQL_LIMITS.aliases + 1);
    const refused = await post(query);
    expect(refused.errors.map((e) => e.message)).toEqual([
      `Syntax Error: Aliases limit of ${GRAPHQL_LIMITS.aliases} exceeded, found ${GRAPHQL_LIMITS.aliases + 1}.`,
    ]);
    const allowed = await post(aliases(GRAPHQL_LIMITS.aliases));
    expect(allowed.errors.map((e) => e.message).join('\n')).not.toMatch(/limit/);
  });

  it('counts aliases of __typename too: 300 of them are refused, and the limit holds exactly', async () => {
    const typenames = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    const refused = await post(typenames(300));
    expect(refused.errors.map((e) => e.message)).toEqual([`Syntax Error: Aliases limit of ${GRAPHQL_LIMITS.aliases} exceeded, found 300.`]);
    expect((await post(typenames(GRAPHQL_LIMITS.aliases + 1))).errors.map((e) => e.message)).toEqual([
      `Syntax Error: Aliases limit of ${GRAPHQL_LIMITS.aliases} exceeded, found ${GRAPHQL_LIMITS.aliases + 1}.`,
    ]);
    // A field aliased as __typename counts as well.
    const disguised = `{ ${Array.from({ length: GRAPHQL_LIMITS.aliases + 1 }, () => '__typename: __typename').join(' ')} }`;
    expect((await post(disguised)).errors.map((e) => e.message).join('\n')).toMatch(/Aliases limit/);
    expect((await post(typenames(GRAPHQL_LIMITS.aliases))).errors).toEqual([]);
    // Plain __typename is no alias.
    expect((await post('{ __typename }')).errors).toEqual([]);
  });

  it('refuses nesting deeper than allowed', async () => {
    // organization → needs → edges → node → organization → needs → … : one level each.
    let selection = 'id';
    for (let i = 0; i < 4; i++) selection = `needs(first: 1) { edges { node { organization { ${selection} } } } }`;
    const refused = await post(`{ organizations(first: 1) { edges { node { ${selection} } } } }`);
    expect(refused.errors.map((e) => e.message).join('\n')).toMatch(/^Syntax Error: Query depth limit of 10 exceeded, found \d+\.$/m);
  });
});
