// What every public tool shares: how it runs a named operation, how it answers (one JSON text
// item plus the same value as structuredContent), and how failures become readable tool errors.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import { z } from 'zod';
import type { DomainError, Logger } from '../../../core/index.ts';
import type { Context } from '../../../schema/index.ts';
import type { EpochCache } from '../../epoch-cache.ts';
import type { Operations } from '../../operations.ts';
import type { McpLimits } from './mcp-limits.ts';
import type { PublicMcpOperations } from './public-documents.ts';

/** What a tool may use while answering one HTTP request. */
export interface ToolDeps {
  /** Built from the generated documents of facades/generated/mcp-public.ts. */
  operations: Operations<PublicMcpOperations>;
  /** A fresh context for the public actor: one per operation run. */
  context(): Context;
  limits: McpLimits;
  /** Tools' answers by tool and arguments, shared by every request (see `remembered`). */
  answers: EpochCache<CallToolResult>;
  /** The caller's limit key (its address, or its IPv6 /64). */
  client: string;
  requestId: string;
  log: Logger;
}

export type Outcome<T> = { ok: true; data: T } | { ok: false; result: CallToolResult };

/** Every tool only reads public data. */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

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

/** The answer of a tool: the value as JSON text, and the same value as structured content. */
export function structured<T extends Record<string, unknown>>(value: T): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function domainText(error: DomainError): string {
  if (error.code === 'invalid_cursor')
    return 'The cursor is not valid for this search: pass next_cursor from the previous page of the same search, unchanged.';
  return error.message;
}

/**
 * Catches what is not a domain failure: the model gets a short text with the request id, the
 * log gets the error. `sensitive` tools (their arguments may hold text the caller wants kept)
 * log only the error's class, since messages of lower layers can quote arguments.
 */
export function guarded<A>(deps: ToolDeps, tool: string, handler: (args: A) => Promise<CallToolResult>, { sensitive = false } = {}) {
  return async (args: A): Promise<CallToolResult> => {
    try {
      return await handler(args);
    } catch (error) {
      const err = sensitive ? { type: (error as Error | null)?.name ?? typeof error } : error;
      deps.log.error({ req_id: deps.requestId, tool, err }, 'tool failed');
      return toolError(`The ${tool} tool failed unexpectedly; retry later, and quote request id ${deps.requestId} when reporting it.`);
    }
  };
}

// Argument schemas whose failures read well once the SDK appends " at <field>".
const needed = (kind: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'a value is required' : `expected ${kind}`),
});

/** A string of `min` to `max` characters. */
export const text = (max: number, min = 1) =>
  z
    .string(needed('a string'))
    .min(min, `expected at least ${min} character${min === 1 ? '' : 's'}`)
    .max(max, `expected at most ${max} characters`);

/** A whole number from `min` to `max`. */
export const whole = (min: number, max: number) =>
  z
    .number(needed('a number'))
    .int(`expected a whole number from ${min} to ${max}`)
    .min(min, `expected a whole number from ${min} to ${max}`)
    .max(max, `expected a whole number from ${min} to ${max}`);
