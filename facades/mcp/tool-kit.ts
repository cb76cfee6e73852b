// What the tools of both connectors share: the read-only annotations, how a tool answers (one
// JSON text item plus the same value as structuredContent), how an unexpected failure becomes a
// readable tool error, and argument schemas whose failures read well. What differs by connector
// (its operations, its actor, its domain errors) stays in public/tool-kit.ts and member/tool-kit.ts.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Logger } from '../../core/index.ts';

/** The request a tool answers, as the catch-all guard needs it. */
export interface ToolRequest {
  requestId: string;
  log: Logger;
}

/** Every tool of both connectors only reads (the public data, or the member's own). */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The answer of a tool: the value as JSON text, and the same value as structured content. */
export function structured<T extends Record<string, unknown>>(value: T): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Catches what is not a domain failure: the model gets a short text with the request id, the
 * log gets the error. `sensitive` tools (their arguments may hold text the caller wants kept)
 * log only the error's class, since messages of lower layers can quote arguments.
 */
export function guarded<A>(deps: ToolRequest, tool: string, handler: (args: A) => Promise<CallToolResult>, { sensitive = false } = {}) {
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
