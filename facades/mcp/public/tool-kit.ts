// What every public tool shares besides the connectors' kit (../tool-kit.ts): how it runs a named
// operation with the public actor, how a domain failure reads, and its remembered answers.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import type { DomainError } from '../../../core/index.ts';
import type { Context } from '../../../schema/index.ts';
import type { EpochCache } from '../../epoch-cache.ts';
import type { Operations } from '../../operation-runner.ts';
import { toolError, type ToolRequest } from '../tool-kit.ts';
import type { McpLimits } from './mcp-limits.ts';
import type { PublicMcpOperations } from './public-documents.ts';

/** What a tool may use while answering one HTTP request. */
export interface ToolDeps extends ToolRequest {
  /** Built from the generated documents of facades/generated/mcp-public.ts. */
  operations: Operations<PublicMcpOperations>;
  /** A fresh context for the public actor: one per operation run. */
  context(): Context;
  limits: McpLimits;
  /** Tools' answers by tool and arguments, shared by every request (see `remembered`). */
  answers: EpochCache<CallToolResult>;
  /** The caller's limit key (its address, or its IPv6 /64). */
  client: string;
}

export type Outcome<T> = { ok: true; data: T } | { ok: false; result: CallToolResult };

type Name = keyof PublicMcpOperations & string;

/** Runs a named operation with a fresh public context, typed from its document; a domain failure becomes a tool error. */
export async function query<N extends Name>(
  deps: ToolDeps,
  operation: N,
  variables: VariablesOf<PublicMcpOperations[N]>,
): Promise<Outcome<ResultOf<PublicMcpOperations[N]>>> {
  const outcome = await deps.operations.run(operation, variables, deps.context());
  return outcome.ok ? outcome : { ok: false, result: toolError(domainText(outcome.error)) };
}

/**
 * The tool's answer to these arguments, computed once per change of public data and time window
 * (the answer cache's rules). Every caller of the public connector is the same public actor, so
 * one caller's answer is every caller's. Only for tools whose arguments may be kept in memory:
 * compose_team's need text is never kept.
 */
export function remembered(
  deps: ToolDeps,
  tool: string,
  args: Record<string, unknown>,
  answer: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const key = `${tool}\u0000${JSON.stringify(args)}`;
  const kept = deps.answers.peek(key);
  return kept ? Promise.resolve(kept) : deps.answers.compute(key, answer);
}

function domainText(error: DomainError): string {
  if (error.code === 'invalid_cursor')
    return 'The cursor is not valid for this search: pass next_cursor from the previous page of the same search, unchanged.';
  return error.message;
}
