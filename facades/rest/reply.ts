import type { ServerResponse } from 'node:http';
import type { LimitWindow } from './limits.ts';
import { PROBLEMS, problem, type ProblemCode } from './problem.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/**
 * One answer of the REST API. Headers accumulate in a flat list (no per-request objects to
 * spread and re-key); every answer carries the request id and `no-store`.
 */
export class Reply {
  private readonly headers: (string | number)[];

  private readonly res: ServerResponse;
  readonly requestId: string;

  constructor(res: ServerResponse, requestId: string, hsts?: string) {
    this.res = res;
    this.requestId = requestId;
    this.headers = ['x-content-type-options', 'nosniff', 'x-request-id', requestId];
    if (hsts) this.headers.push('strict-transport-security', hsts);
  }

  header(name: string, value: string | number): this {
    this.headers.push(name, value);
    return this;
  }

  rate(w: LimitWindow): this {
    this.headers.push('x-ratelimit-limit', w.limit, 'x-ratelimit-remaining', w.remaining, 'x-ratelimit-reset', w.reset);
    return this;
  }

  quota(w: LimitWindow): this {
    this.headers.push('x-monthly-quota-limit', w.limit, 'x-monthly-quota-remaining', w.remaining, 'x-monthly-quota-reset', w.reset);
    return this;
  }

  send(status: number, body: Buffer, { type = JSON_TYPE, cacheControl = 'no-store' }: { type?: string; cacheControl?: string } = {}): void {
    this.headers.push('cache-control', cacheControl, 'content-type', type, 'content-length', body.length);
    this.res.writeHead(status, this.headers as unknown as string[]);
    this.res.end(body);
  }

  /** 304 Not Modified: the validator and the other headers, no body (RFC 9110 §15.4.5). */
  notModified(etag: string, cacheControl = 'no-store'): void {
    this.headers.push('etag', etag, 'cache-control', cacheControl);
    this.res.writeHead(304, this.headers as unknown as string[]);
    this.res.end();
  }

  problem(code: ProblemCode, detail: string, parameter?: string): void {
    const body = Buffer.from(JSON.stringify(problem(code, detail, this.requestId, parameter)));
    this.send(PROBLEMS[code].status, body, { type: PROBLEM_TYPE });
  }
}
