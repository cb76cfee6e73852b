import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { Stack } from '../support/stack.ts';

// Shared by the public connector's tests: the SDK's own client over real HTTP, and raw HTTP
// requests for what a client library would not send (other Host, Origin, methods, bodies).

/** An SDK client connected to `/mcp` of the stack; `headers` go on every request. */
export async function connectPublic(stack: Stack, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'packline-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.origin}/mcp`), { requestInit: { headers } }));
  return client;
}

/** Calls a tool; the result as the SDK client returns it. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The structured content of a successful call, after checking it equals the single JSON text item. */
export function ok<T = unknown>(result: CallToolResult): T {
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(result.content).toHaveLength(1);
  expect(result.content[0]!.type).toBe('text');
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

/** The text of a failed call. */
export function failure(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return textOf(result);
}

export const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): unknown;
}

/** What the tests read of a JSON-RPC `result`: a tool list, the server's name, a tool call's outcome. */
export interface RpcResult {
  tools?: { name: string }[];
  serverInfo?: { name: string };
  isError?: boolean;
  content?: CallToolResult['content'];
}

/** The `result` of a single JSON-RPC answer; fails the test when the answer has none. */
export function rpcResult(answer: RawAnswer): RpcResult {
  const body = answer.json();
  expect(body).toHaveProperty('result');
  return (body as { result: RpcResult }).result;
}

const RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * One raw HTTP request to `/mcp` (or `path`) with full control of the headers, Host included
 * (fetch would not send another Host). A JSON-RPC body is sent as is.
 */
export function raw(
  stack: Stack,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; path?: string } = {},
): Promise<RawAnswer> {
  const url = new URL(`${stack.origin}${options.path ?? '/mcp'}`);
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? 'POST',
        headers: { ...RPC_HEADERS, ...options.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let nextId = 1;
/** A JSON-RPC request message; the stateless server answers it without a prior initialize. */
export const rpc = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: nextId++, method, params });
/** A `tools/call` message. */
export const toolCall = (name: string, args: Record<string, unknown>) => rpc('tools/call', { name, arguments: args });
