import type { IncomingMessage, ServerResponse } from 'node:http';

// Requests and answers on plain node:http, for the routes served outside express (the
// integrations' callbacks).

/** The path of a request target, without its query string. */
export function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

/** The query string of a request target, parsed. */
export function queryOf(url: string | undefined): URLSearchParams {
  const target = url ?? '/';
  const q = target.indexOf('?');
  return new URLSearchParams(q === -1 ? '' : target.slice(q + 1));
}

/**
 * The request body, or undefined when it is larger than `limit` bytes. A declared length over
 * the limit is refused unread; a body without one (chunked) is read up to the limit and no
 * further: the caller answers at once, with `connection: close`, and the server then closes the
 * connection instead of draining the rest.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.off('end', onEnd);
      req.pause();
      resolve(undefined);
    };
    const onEnd = () => resolve(Buffer.concat(chunks, size));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  requestId: string,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(payload)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-request-id': requestId,
    ...headers,
  });
  res.end(payload);
}
