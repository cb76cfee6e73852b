import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { clientAddress, limitKey, PUBLIC, kindTag, type ChangeFeed, type Logger } from '../../../core/index.ts';
import type { Contexts } from '../../../schema/index.ts';
import { EpochCache } from '../../epoch-cache.ts';
import type { Operations } from '../../operation-runner.ts';
import type { PublicMcpOperations } from './public-documents.ts';
import { createHostGuard } from '../host-guard.ts';
import type { McpLimits } from './mcp-limits.ts';
import { createPublicServer } from './public-server.ts';

export const MCP_PATH = '/mcp';
/** Largest request body read: a 10,000-character need text, JSON-escaped, fits several times. */
const MAX_BODY_BYTES = 256 * 1024;
/** Tools' answers kept: the most searches and profiles a busy hour asks for, within 64 MiB. */
const ANSWERS = { maxEntries: 5_000, maxBytes: 64 * 1024 * 1024 };
/** Every tool answers from the directory of organizations: a change of any organization retires the answers, other changes none. */
const ANSWER_TAGS = [kindTag('organization')];

export interface PublicMcpOptions {
  contexts: Contexts;
  /** Built from the generated documents of facades/generated/mcp-public.ts. */
  operations: Operations<PublicMcpOperations>;
  /** Tells of changes: a change of an organization retires the tools' kept answers. */
  feed: Pick<ChangeFeed, 'generation' | 'mark' | 'stamp'>;
  limits: McpLimits;
  log: Logger;
  /** Host and Origin values accepted: `host` or `host:port`. */
  allowedHosts: readonly string[];
  /** Reverse proxies trusted to append to X-Forwarded-For. @default 0 */
  trustedProxies?: number;
}

/**
 * The public assistant connector (`/mcp`): MCP over Streamable HTTP, stateless, no key and no
 * account. Order of checks: Host/Origin (403) → method (405) → calls per minute (429) → body
 * (413, 400) → a fresh server and transport answer the JSON-RPC message.
 */
export function createPublicMcp({ contexts, operations, feed, limits, log, allowedHosts, trustedProxies = 0 }: PublicMcpOptions) {
  const guard = createHostGuard(allowedHosts);
  const answers = new EpochCache<CallToolResult>(feed, { ...ANSWERS, sizeOf: answerBytes, tags: () => ANSWER_TAGS });

  return async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    res.setHeader('x-request-id', requestId);
    res.setHeader('cache-control', 'no-store');
    const refusal = guard(req);
    if (refusal) return rpcError(res, 403, refusal);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return rpcError(res, 405, 'Method not allowed: this connector is stateless and answers POST only');
    }
    const client = limitKey(clientAddress(req, trustedProxies));
    const rate = await limits.consumeCall(client);
    if (!rate.allowed) return tooMany(res, rate.retryAfter, limits.perMinute);

    const body = await readJson(req);
    if (body.error) {
      if (body.error.status === 413) res.setHeader('connection', 'close');
      return rpcError(res, body.error.status, body.error.message, body.error.code);
    }
    // A JSON-RPC batch costs one call per message.
    if (Array.isArray(body.value) && body.value.length > 1) {
      const more = await limits.consumeCall(client, body.value.length - 1);
      if (!more.allowed) return tooMany(res, more.retryAfter, limits.perMinute);
    }

    const server = createPublicServer({ operations, context: () => contexts.forActor(PUBLIC), answers, limits, client, requestId, log });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body.value);
  };
}

/** About what an answer holds: its text twice over (as text, and as the structured value). */
function answerBytes(result: CallToolResult): number {
  let bytes = 0;
  for (const item of result.content) if (item.type === 'text') bytes += 2 * item.text.length;
  return bytes;
}

function tooMany(res: ServerResponse, retryAfter: number, perMinute: number): void {
  res.setHeader('retry-after', String(retryAfter));
  rpcError(res, 429, `Rate limit exceeded: at most ${perMinute} calls per minute from one address. Retry in ${retryAfter} s.`);
}

/** A JSON-RPC error answer outside any request (no id is known). */
function rpcError(res: ServerResponse, status: number, message: string, code = -32000): void {
  const payload = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

type Body = { value: unknown; error?: undefined } | { value?: undefined; error: { status: number; code: number; message: string } };

/** The request body as JSON, read up to MAX_BODY_BYTES; never logged. */
function readJson(req: IncomingMessage): Promise<Body> {
  const tooLarge: Body = { error: { status: 413, code: -32000, message: `Request body larger than ${MAX_BODY_BYTES} bytes` } };
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const refuse = () => {
      // Answer at once; the rest of the body is discarded and the connection closed after the answer.
      req.removeAllListeners('data');
      req.resume();
      resolve(tooLarge);
    };
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return refuse();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return refuse();
      chunks.push(chunk);
    });
    req.once('error', reject);
    req.once('end', () => {
      try {
        resolve({ value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        resolve({ error: { status: 400, code: -32700, message: 'Parse error: the body is not valid JSON' } });
      }
    });
  });
}
