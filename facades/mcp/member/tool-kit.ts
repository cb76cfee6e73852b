// What the member tools share besides the connectors' kit (../tool-kit.ts): running a named
// operation as the assistant acting for the member, its domain failures as tool errors the model
// can act on.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import type { Context } from '../../../schema/index.ts';
import type { Operations } from '../../operation-runner.ts';
import { structured, toolError, type ToolRequest } from '../tool-kit.ts';
import type { MemberOperations } from './member-documents.ts';

export interface MemberToolDeps extends ToolRequest {
  /** Built from the generated documents of facades/generated/mcp-member.ts. */
  operations: Operations<MemberOperations>;
  /** A fresh context for the assistant acting for the member: one per operation run. */
  context(): Context;
}

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
    return toolError(`${outcome.error.message}${at}`);
  }
  return structured(render(outcome.data));
}
