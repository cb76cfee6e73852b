// What the member tools share: running a named operation as the assistant acting for the
// member, answering with one JSON text item plus the same value as structuredContent, and
// turning failures into tool errors the model can act on.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import type { Logger } from '../../../core/index.ts';
import type { Context } from '../../../schema/index.ts';
import type { Operations } from '../../operations.ts';
import type { MemberOperations } from './member-documents.ts';

export interface MemberToolDeps {
  /** Built from the generated documents of facades/generated/mcp-member.ts. */
  operations: Operations<MemberOperations>;
  /** A fresh context for the assistant acting for the member: one per operation run. */
  context(): Context;
  requestId: string;
  log: Logger;
}

/** Reads only the member's own data. */
export const READS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** Runs a named operation, typed from its document, and answers with what `render` makes of its data. */
export async function runTool<N extends keyof MemberOperations & string>(
  deps: MemberToolDeps,
  operation: N,
  variables: VariablesOf<MemberOperations[N]>,
  render: (data: ResultOf<MemberOperations[N]>) => Record<string, unknown>,
): Promise<CallToolResult> {
  const outcome = await deps.operations.run(operation, variables, deps.context());
  if (!outcome.ok) {
    const at = outcome.error.field ? ` (${outcome.error.field})` : '';
    return { content: [{ type: 'text', text: `${outcome.error.message}${at}` }], isError: true };
  }
  const value = render(outcome.data);
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** Anything but a domain failure: a short text with the request id for the model, the error for the log. */
export function guarded<A>(deps: MemberToolDeps, tool: string, handler: (args: A) => Promise<CallToolResult>) {
  return async (args: A): Promise<CallToolResult> => {
    try {
      return await handler(args);
    } catch (error) {
      deps.log.error({ req_id: deps.requestId, tool, err: { type: (error as Error | null)?.name ?? typeof error } }, 'member tool failed');
      return {
        content: [
          {
            type: 'text',
            text: `The ${tool} tool failed unexpectedly; retry later, and quote request id ${deps.requestId} when reporting it.`,
          },
        ],
        isError: true,
      };
    }
  };
}
