// The facades run their named operations compiled by graphql-jit (facades/operation-runner.ts). Each
// must give what graphql-js's own `execute` gives for the same document, variables and context,
// on the demo data: the same data, byte for byte, and the same domain error.
import { execute, type DocumentNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, PUBLIC } from '../../core/index.ts';
import * as mcpDocuments from '../../facades/generated/mcp-public.ts';
import * as restDocuments from '../../facades/generated/rest.ts';
import { Operations, type OperationOutcome } from '../../facades/operation-runner.ts';
import { Contexts, schema, type Context } from '../../schema/index.ts';
import { INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let contexts: Contexts;
let keyContext: () => Context;
const publicContext = () => contexts.forActor(PUBLIC);

beforeAll(async () => {
  stack = await startStack();
  contexts = new Contexts(stack.app.core, INTERNAL_TOKEN);
  const grant = await contexts.apiKey(stack.demoKey);
  if (!grant) throw new Error('the demo key does not authenticate');
  keyContext = () => contexts.forApiKey(grant);
});
afterAll(() => stack?.close());

/** The operation's result by graphql-js, as the compiled run reports it: data, or the domain error. */
async function interpreted(document: DocumentNode, operationName: string, variables: Record<string, unknown>, context: Context) {
  const result = await execute({ schema, document, operationName, variableValues: variables, contextValue: context });
  const domain = result.errors?.map((e) => e.originalError).find((e) => e instanceof DomainError);
  if (domain) return { ok: false, code: domain.code, message: domain.message };
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return { ok: true, data: JSON.stringify(result.data) };
}

/** What is compared of a facade's operations: a run by name with plain variables. */
interface Runs {
  run(operationName: string, variables: Record<string, unknown>, context: Context): Promise<OperationOutcome<unknown>>;
}

async function compiled(operations: Runs, operationName: string, variables: Record<string, unknown>, context: Context) {
  const outcome = await operations.run(operationName, variables, context);
  return outcome.ok
    ? { ok: true, data: JSON.stringify(outcome.data) }
    : { ok: false, code: outcome.error.code, message: outcome.error.message };
}

describe('compiled facade operations', () => {
  it('REST: lists (first and later pages, every limit), by-id answers and not_found agree with graphql-js', async () => {
    const operations = Operations.generated(schema, restDocuments, { trustLeaves: true });
    const same = async (document: DocumentNode, name: string, variables: Record<string, unknown>) => {
      const expected = await interpreted(document, name, variables, keyContext());
      expect(await compiled(operations, name, variables, keyContext())).toEqual(expected);
      return expected;
    };
    for (const [name, document, field] of [
      ['RestOpportunities', restDocuments.RestOpportunitiesDocument, 'opportunities'],
      ['RestEvents', restDocuments.RestEventsDocument, 'events'],
    ] as const) {
      let after: string | null = null;
      let pages = 0;
      for (const first of [1, 2, 3, 50]) {
        const page = await same(document, name, { first, after });
        expect(page.ok).toBe(true);
        const connection = JSON.parse(page.data!)[field];
        pages++;
        if (!connection.pageInfo.hasNextPage) break;
        after = connection.pageInfo.endCursor;
      }
      expect(pages).toBeGreaterThan(1);
    }
    const firstNeed = JSON.parse((await same(restDocuments.RestOpportunitiesDocument, 'RestOpportunities', { first: 1 })).data!)
      .opportunities.nodes[0].id;
    const firstEvent = JSON.parse((await same(restDocuments.RestEventsDocument, 'RestEvents', { first: 1 })).data!).events.nodes[0].id;
    await same(restDocuments.RestOpportunityDocument, 'RestOpportunity', { id: firstNeed });
    await same(restDocuments.RestEventDocument, 'RestEvent', { id: firstEvent });
    await same(restDocuments.RestOrganizationDocument, 'RestOrganization', { id: 'atelier-nord' });
    expect(await same(restDocuments.RestOpportunityDocument, 'RestOpportunity', { id: 'need_missing' })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(await same(restDocuments.RestEventsDocument, 'RestEvents', { first: 5, after: 'not-a-cursor' })).toMatchObject({ ok: false });
  });

  it('public MCP: directory search, organization lookup and site search agree with graphql-js', async () => {
    const operations = Operations.generated(schema, mcpDocuments, { trustLeaves: true });
    const same = async (document: DocumentNode, name: string, variables: Record<string, unknown>) => {
      const expected = await interpreted(document, name, variables, publicContext());
      expect(await compiled(operations, name, variables, publicContext())).toEqual(expected);
      return expected;
    };
    const directory = await same(mcpDocuments.McpSearchOrganizationsDocument, 'McpSearchOrganizations', { first: 5 });
    expect(directory.ok).toBe(true);
    const someId = JSON.parse(directory.data!).directoryOrganizations.nodes[0].id;
    await same(mcpDocuments.McpOrganizationDocument, 'McpOrganization', { id: someId });
    expect(await same(mcpDocuments.McpOrganizationDocument, 'McpOrganization', { id: 'no-such-org' })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    await same(mcpDocuments.McpSearchDocument, 'McpSearch', { text: 'design', first: 5, faqLimit: 3 });
  });
});
