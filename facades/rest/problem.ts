import type { ErrorCode } from '../../core/index.ts';

/** Problem codes of the public API (docs/service-contract.md#errors), with their status and title. */
export const PROBLEMS = {
  invalid_key: {
    status: 401,
    title: 'Invalid API key',
    description: 'The Authorization header is missing, malformed, or carries a key that is unknown, revoked or expired.',
  },
  browser_origin_forbidden: {
    status: 403,
    title: 'Browser requests are refused',
    description: 'The request carries an Origin header. API keys belong on servers, never in browser or mobile code.',
  },
  missing_scope: { status: 403, title: 'Missing scope', description: 'The key is valid but lacks the scope this endpoint requires.' },
  not_found: { status: 404, title: 'Not found', description: 'The resource does not exist or is no longer public.' },
  method_not_allowed: { status: 405, title: 'Method not allowed', description: 'The API is read-only: only GET is allowed.' },
  invalid_parameter: { status: 400, title: 'Invalid parameter', description: 'A query or path parameter is out of range or malformed.' },
  invalid_cursor: {
    status: 400,
    title: 'Invalid cursor',
    description: 'The cursor is malformed, altered or belongs to another list. Pass meta.next_cursor back unchanged.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limit exceeded',
    description: 'Too many requests with this key this minute. Retry after the number of seconds in Retry-After.',
  },
  quota_exceeded: {
    status: 429,
    title: 'Monthly quota exceeded',
    description: "The organization's monthly call quota is spent. It resets on the first day of next month (UTC).",
  },
  internal_error: { status: 500, title: 'Internal error', description: 'Something failed on our side. Retry later; quote the request id.' },
  service_unavailable: { status: 503, title: 'Service unavailable', description: 'A dependency is unreachable. Retry later.' },
} as const;

export type ProblemCode = keyof typeof PROBLEMS;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  request_id: string;
  /** The query or path parameter at fault (400 only). */
  parameter?: string;
}

/** Problem types are relative references to their explanation: `/api/v1/problems/<code>`. */
export const PROBLEM_TYPE_BASE = '/api/v1/problems/';

export function problem(code: ProblemCode, detail: string, requestId: string, parameter?: string): Problem {
  const { status, title } = PROBLEMS[code];
  return {
    type: `${PROBLEM_TYPE_BASE}${code}`,
    title,
    status,
    detail,
    code,
    request_id: requestId,
    ...(parameter ? { parameter } : {}),
  };
}

/** How domain failures surface on REST. */
export function problemCodeOf(code: ErrorCode): ProblemCode {
  switch (code) {
    case 'not_found':
      return 'not_found';
    case 'invalid_cursor':
      return 'invalid_cursor';
    case 'invalid_input':
      return 'invalid_parameter';
    case 'forbidden':
      return 'missing_scope';
    default:
      return 'internal_error';
  }
}
