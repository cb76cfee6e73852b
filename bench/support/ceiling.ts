// The ceiling: captured answers of the real server, replayed by a bare node:http server.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopChild, tempDir, track } from './processes.ts';

export interface CapturedResponse {
  /** Path and query, as requested. */
  url: string;
  status: number;
  /** Response headers except those Node's http server adds itself (date, connection, keep-alive). */
  headers: Record<string, string>;
  body: Buffer;
  /** Keep-alive timeout the server announced, in ms (Node's default 5 s when absent). */
  keepAliveTimeoutMs: number;
}

const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** GETs `origin + url` once and keeps status, headers and exact body bytes. */
export async function capture(origin: string, url: string, headers: Record<string, string> = {}): Promise<CapturedResponse> {
  const res = await fetch(`${origin}${url}`, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const kept: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name)) kept[name] = value;
  });
  const timeout = /timeout=(\d+)/.exec(res.headers.get('keep-alive') ?? '');
  return { url, status: res.status, headers: kept, body, keepAliveTimeoutMs: timeout ? Number(timeout[1]) * 1000 : 5_000 };
}

/** A bare node:http server answering fixed bytes per URL; no work besides one Map lookup. */
const CEILING_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const spec = JSON.parse(fs.readFileSync(process.env.PACKLINE_BENCH_CEILING, 'utf8'));
const routes = new Map(spec.routes.map((r) => [r.url, { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') }]));
const server = http.createServer({ keepAliveTimeout: spec.keepAliveTimeoutMs }, (req, res) => {
  const r = routes.get(req.url);
  if (r === undefined) {
    res.writeHead(404, { 'content-length': 0 });
    res.end();
    return;
  }
  res.writeHead(r.status, r.headers);
  res.end(r.body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write('CEILING_LISTENING ' + server.address().port + '\\n'));
process.on('SIGTERM', () => process.exit(0));
`;

export interface CeilingServer {
  child: ChildProcess;
  origin: string;
  stop(): Promise<void>;
}

/**
 * Starts the ceiling: a bare node:http server in its own process (so it never shares an event
 * loop with the load generator) that returns exactly the captured bytes for each captured URL.
 */
export async function startCeiling(responses: CapturedResponse[], workDir = tempDir('packline-ceiling-')): Promise<CeilingServer> {
  const specFile = join(workDir, 'ceiling.json');
  const keepAliveTimeoutMs = Math.max(...responses.map((r) => r.keepAliveTimeoutMs));
  writeFileSync(
    specFile,
    JSON.stringify({
      keepAliveTimeoutMs,
      routes: responses.map((r) => ({ url: r.url, status: r.status, headers: r.headers, body: r.body.toString('base64') })),
    }),
  );
  const child = track(
    spawn(process.execPath, ['-e', CEILING_SERVER], {
      env: { ...process.env, PACKLINE_BENCH_CEILING: specFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const port = await new Promise<number>((done, fail) => {
    let text = '';
    child.stdout!.on('data', (chunk) => {
      text += chunk;
      const match = /CEILING_LISTENING (\d+)/.exec(text);
      if (match) done(Number(match[1]));
    });
    child.once('exit', (code) => fail(new Error(`ceiling server exited (${code}) before listening`)));
  });
  return { child, origin: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}
