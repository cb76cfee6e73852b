import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { GraphQLID, GraphQLInputObjectType, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../core/index.ts';
import type { Context } from '../schema/index.ts';
import { Operations } from './operation-runner.ts';

// A schema of one field, and a module shaped as `npm run codegen` writes them.
const Greeting = new GraphQLObjectType({ name: 'Greeting', fields: { text: { type: new GraphQLNonNull(GraphQLString) } } });
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      greeting: {
        type: Greeting,
        args: { id: { type: new GraphQLNonNull(GraphQLID) } },
        resolve: (_root, { id }: { id: string }) => {
          if (id === 'missing') throw new DomainError('not_found', 'No such greeting');
          if (id === 'broken') throw new Error('database unreachable');
          return { text: `hello ${id}` };
        },
      },
      // A resolver that gives a number for a String: graphql serializes it to "42".
      serial: { type: GraphQLString, resolve: () => 42 },
    },
  }),
  mutation: new GraphQLObjectType({
    name: 'Mutation',
    fields: {
      // Answers which fields its input holds: an omitted one must stay absent, not undefined.
      update: {
        type: new GraphQLNonNull(GraphQLString),
        args: {
          input: {
            type: new GraphQLNonNull(
              new GraphQLInputObjectType({
                name: 'UpdateInput',
                fields: { title: { type: GraphQLString }, city: { type: GraphQLString } },
              }),
            ),
          },
        },
        resolve: (_root, { input }: { input: Record<string, unknown> }) => Object.keys(input).join(','),
      },
    },
  }),
});
const generated = {
  GreetingDocument: parse('query Greeting($id: ID!) { greeting(id: $id) { text } }') as TypedDocumentNode<
    { greeting: { text: string } | null },
    { id: string }
  >,
  UpdateDocument: parse('mutation Update($input: UpdateInput!) { update(input: $input) }') as TypedDocumentNode<
    { update: string },
    { input: { title?: string | null; city?: string | null } }
  >,
  SerialDocument: parse('query Serial { serial }') as TypedDocumentNode<{ serial: string | null }, Record<string, never>>,
  GreetingTextFragmentDoc: parse('fragment GreetingText on Greeting { text }') as TypedDocumentNode<{ text: string }, unknown>,
};
const context = {} as Context;

describe('Operations', () => {
  const operations = Operations.generated(schema, generated);

  it('runs a generated operation by name, its result typed from the document', async () => {
    const outcome = await operations.run('Greeting', { id: 'ada' }, context);
    expect(outcome.ok).toBe(true);
    // Typed: `outcome.data.greeting` is `{ text: string } | null`, no cast.
    if (outcome.ok) expect(outcome.data.greeting?.text).toBe('hello ada');
  });

  it('gives a domain failure back as a value and throws anything else', async () => {
    const outcome = await operations.run('Greeting', { id: 'missing' }, context);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'not_found' } });
    await expect(operations.run('Greeting', { id: 'broken' }, context)).rejects.toThrow('database unreachable');
  });

  it("leaves a mutation input's omitted fields out, as graphql-js does", async () => {
    expect(await operations.run('Update', { input: { title: 'New' } }, context)).toEqual({
      ok: true,
      data: { update: 'title' },
    });
  });

  it('refuses names it does not hold, at compile time and at run time', async () => {
    // @ts-expect-error: not an operation of this facade (fragments are not operations either)
    await expect(operations.run('GreetingText', {}, context)).rejects.toThrow('Unknown operation GreetingText');
    // @ts-expect-error: the variables are checked against the document
    await expect(operations.run('Greeting', { identifier: 'ada' }, context)).rejects.toThrow(/Variable "\$id"/);
  });

  it('lets no caller of a generated facade choose its own result type', async () => {
    // @ts-expect-error: the result comes from the document, never from a type argument
    const outcome = await operations.run<{ greeting: { colour: string } }>('Greeting', { id: 'ada' }, context);
    expect(outcome).toEqual({ ok: true, data: { greeting: { text: 'hello ada' } } });
  });

  it('serializes built-in scalars unless told to trust the leaves as the resolvers give them', async () => {
    expect(await operations.run('Serial', {}, context)).toEqual({ ok: true, data: { serial: '42' } });
    const trusting = Operations.generated(schema, generated, { trustLeaves: true });
    expect(await trusting.run('Serial', {}, context)).toEqual({ ok: true, data: { serial: 42 } });
    expect(await trusting.run('Greeting', { id: 'ada' }, context)).toEqual({ ok: true, data: { greeting: { text: 'hello ada' } } });
  });

  it('refuses, at start-up, documents the schema does not validate', () => {
    const wrong = { WrongDocument: parse('query Wrong { greeting(id: "1") { colour } }') };
    expect(() => Operations.generated(schema, wrong)).toThrow(/Invalid facade operations: Cannot query field "colour"/);
  });

  it('without validateAll, validates a document before its first run, and refuses it then', async () => {
    const mixed = {
      GreetingDocument: generated.GreetingDocument,
      WrongDocument: parse('query Wrong { greeting(id: "1") { colour } }') as TypedDocumentNode<unknown, Record<string, never>>,
    };
    const lazy = Operations.generated(schema, mixed, { validateAll: false });
    expect(await lazy.run('Greeting', { id: 'ada' }, context)).toEqual({ ok: true, data: { greeting: { text: 'hello ada' } } });
    await expect(lazy.run('Wrong', {}, context)).rejects.toThrow(/Invalid facade operations: Cannot query field "colour"/);
  });
});
