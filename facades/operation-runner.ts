import type { ResultOf, TypedDocumentNode, VariablesOf } from '@graphql-typed-document-node/core';
import { execute, Kind, validate, type DocumentNode, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import type * as GraphqlJit from 'graphql-jit';
import { createRequire } from 'node:module';
import { DomainError } from '../core/index.ts';
import { setRequestAttributes, tracingOn, withSpan } from '../core/telemetry.ts';
import type { Context } from '../schema/index.ts';

/** graphql-jit, loaded with the first query compiled: a CLI command that runs a mutation never loads it. */
let jit: typeof GraphqlJit | undefined;
const loadJit = () => (jit ??= createRequire(import.meta.url)('graphql-jit') as typeof GraphqlJit);

export type OperationOutcome<T> = { ok: true; data: T } | { ok: false; error: DomainError };

/** One operation's run: its variables and context in, graphql's result out. */
type Runner = (variables: Record<string, unknown>, context: Context) => ExecutionResult | Promise<ExecutionResult>;

// Any document, whatever its result and variables.
type AnyDocument = TypedDocumentNode<unknown, never>;

/**
 * A facade's operations by name, from the module `npm run codegen` generated for it
 * (facades/generated/): its `<Name>Document` exports, each typed with its result and variables.
 */
export type OperationsOf<M> = { [K in keyof M as K extends `${infer Name}Document` ? Name : never]: M[K] };

export interface OperationsOptions {
  /**
   * Compile queries with graphql-jit (see `runnerOf`). A process that runs each operation once
   * or twice, the CLI, is better served by graphql-js: compiling costs more than it saves there.
   * @default true
   */
  compileQueries?: boolean;
  /**
   * Validate every document against the schema at construction, so a server with a wrong
   * operation does not start. Otherwise each document is validated before its first run: the
   * CLI runs one operation a process and spares validating the others (~20 ms).
   * @default true
   */
  validateAll?: boolean;
  /**
   * Compiled queries hand the leaf values of built-in scalars (String, ID, Int, Float, Boolean)
   * and of enums to the result as the resolvers give them, instead of passing each through
   * graphql's serializer: every such leaf of a list page then costs a null check, where the
   * serializer call allocated an array of the field's path per leaf (a fifth of the bytes a list
   * page allocated). Only for operations whose resolvers give these values in their output type already;
   * custom scalars (DateTime) are serialized either way. A facade that sets it has its operations
   * compared with graphql-js's results, byte for byte, in test/graphql/compiled-operations.test.ts.
   * @default false
   */
  trustLeaves?: boolean;
}

/**
 * Named GraphQL operations, validated once at start-up, executed in-process against the schema.
 * Facades go through here and nowhere else to read or change data.
 *
 * Built from a facade's generated module (`Operations.generated(schema, documents)`, with
 * `import * as documents from '../generated/rest.ts'`), `run` takes only its operation names,
 * checks the variables and gives the result typed from the document.
 */
export class Operations<Ops extends Record<string, AnyDocument>> {
  private readonly documents = new Map<string, DocumentNode>();
  /** How each operation runs, settled on its first run (see `runnerOf`). */
  private readonly runners = new Map<string, Runner>();

  private readonly schema: GraphQLSchema;
  private readonly compileQueries: boolean;
  private readonly trustLeaves: boolean;
  /** Whether each document is validated before its first run rather than at construction. */
  private readonly unchecked: boolean;

  private constructor(schema: GraphQLSchema, module: { readonly [name: string]: DocumentNode }, options: OperationsOptions = {}) {
    this.schema = schema;
    this.compileQueries = options.compileQueries ?? true;
    this.trustLeaves = options.trustLeaves ?? false;
    for (const [key, document] of Object.entries(module)) {
      const name = /^(.+)Document$/.exec(key)?.[1];
      if (name) this.documents.set(name, document);
    }
    this.unchecked = options.validateAll === false;
    if (!this.unchecked) checkValid(schema, [...new Set(this.documents.values())]);
  }

  /** A facade's operations from the module `npm run codegen` generated for it, typed by it. */
  static generated<M extends { readonly [name: string]: DocumentNode }>(
    schema: GraphQLSchema,
    module: M,
    options?: OperationsOptions,
  ): Operations<OperationsOf<M>> {
    return new Operations<OperationsOf<M>>(schema, module, options);
  }

  /**
   * How a query runs: graphql-jit compiles its document against the schema once, so a run skips
   * graphql-js's per-field planning and per-value type checks — most of the cost of executing a
   * list's fields. Same resolvers, same errors, same result. Mutations stay with graphql-js: jit
   * hands resolvers an input's omitted fields as present and undefined, where graphql-js leaves
   * them out, and the services read an absent field as "unchanged" (`'city' in input`).
   */
  private runnerOf(operationName: string): Runner {
    const known = this.runners.get(operationName);
    if (known) return known;
    const document = this.documents.get(operationName);
    if (!document) throw new Error(`Unknown operation ${operationName}`);
    if (this.unchecked) checkValid(this.schema, [document]);
    const definition = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === operationName);
    let runner: Runner;
    if (this.compileQueries && definition?.kind === Kind.OPERATION_DEFINITION && definition.operation === 'query') {
      const { compileQuery, isCompiledQuery } = loadJit();
      const compiled = compileQuery(this.schema, document, operationName, { disableLeafSerialization: this.trustLeaves });
      if (!isCompiledQuery(compiled))
        throw new Error(`Operation ${operationName} does not compile: ${compiled.errors?.map((e) => e.message).join('; ')}`);
      runner = (variables, context) => compiled.query(undefined, context, variables);
    } else {
      runner = (variables, context) =>
        execute({ schema: this.schema, document, operationName, variableValues: variables, contextValue: context });
    }
    this.runners.set(operationName, runner);
    return runner;
  }

  /**
   * Runs one operation. A domain failure (not found, bad input, forbidden) comes back as a value;
   * anything else is a defect and is thrown for the facade's 500 path.
   */
  async run<N extends keyof Ops & string>(
    operationName: N,
    variables: VariablesOf<Ops[N]>,
    context: Context,
  ): Promise<OperationOutcome<ResultOf<Ops[N]>>> {
    const runner = this.runnerOf(operationName);
    // The variables are the generated type of an object of variables.
    const values = variables as Record<string, unknown>;
    if (tracingOn) {
      const organizationId = context.actor.kind === 'apiKey' ? context.actor.organizationId : undefined;
      setRequestAttributes({ 'packline.organization_id': organizationId, 'packline.actor': context.actor.kind });
      return withSpan(
        `graphql ${operationName}`,
        { 'graphql.operation.name': operationName, 'packline.organization_id': organizationId },
        () => this.execute<ResultOf<Ops[N]>>(runner, values, context),
      );
    }
    return this.execute<ResultOf<Ops[N]>>(runner, values, context);
  }

  // T is the document's result: graphql executes the very document its type was generated from.
  private async execute<T>(runner: Runner, variables: Record<string, unknown>, context: Context): Promise<OperationOutcome<T>> {
    const result = await runner(variables, context);
    if (result.errors?.length) {
      const domain = result.errors.map((e: GraphQLError) => e.originalError).find((e) => e instanceof DomainError);
      if (domain) return { ok: false, error: domain };
      throw new AggregateError(
        result.errors.map((e) => e.originalError ?? e),
        result.errors[0]!.message,
      );
    }
    return { ok: true, data: result.data as T };
  }
}

/**
 * A by-id field's value. The schema types such fields nullable (a not_found error must not null
 * their parent), but their resolvers answer a missing id with the not_found domain error, which
 * comes back as a failed outcome: a null here is a defect, and goes to the facade's 500 path.
 */
export function present<T>(value: T | null): T {
  if (value === null) throw new Error('The operation gave no object and no not_found error');
  return value;
}

/** Throws when a document does not validate against the schema: a defect of the facade. */
function checkValid(schema: GraphQLSchema, documents: DocumentNode[]): void {
  const errors = documents.flatMap((document) => validate(schema, document));
  if (errors.length > 0) throw new Error(`Invalid facade operations: ${errors.map((e) => e.message).join('; ')}`);
}
