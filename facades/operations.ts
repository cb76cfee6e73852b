import { execute, parse, validate, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import { DomainError } from '../core/index.ts';
import type { Context } from '../schema/index.ts';

export type OperationOutcome<T> = { ok: true; data: T } | { ok: false; error: DomainError };

/**
 * Named GraphQL operations, parsed and validated once at start-up, executed in-process against
 * the schema. Facades go through here and nowhere else to read or change data.
 */
export class Operations {
  private readonly document: DocumentNode;
  private readonly names: Set<string>;

  constructor(
    private readonly schema: GraphQLSchema,
    source: string,
  ) {
    this.document = parse(source);
    const errors = validate(schema, this.document);
    if (errors.length > 0) throw new Error(`Invalid facade operations: ${errors.map((e) => e.message).join('; ')}`);
    this.names = new Set(
      this.document.definitions.flatMap((d) => (d.kind === 'OperationDefinition' && d.name ? [d.name.value] : [])),
    );
  }

  /**
   * Runs one operation. A domain failure (not found, bad input, forbidden) comes back as a value;
   * anything else is a defect and is thrown for the facade's 500 path.
   */
  async run<T>(operationName: string, variables: Record<string, unknown>, context: Context): Promise<OperationOutcome<T>> {
    if (!this.names.has(operationName)) throw new Error(`Unknown operation ${operationName}`);
    const result = await execute({ schema: this.schema, document: this.document, operationName, variableValues: variables, contextValue: context });
    if (result.errors?.length) {
      const domain = result.errors.map((e: GraphQLError) => e.originalError).find((e) => e instanceof DomainError);
      if (domain) return { ok: false, error: domain };
      throw new AggregateError(result.errors.map((e) => e.originalError ?? e), result.errors[0]!.message);
    }
    return { ok: true, data: result.data as T };
  }
}
