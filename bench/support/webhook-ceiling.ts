// The delivery ceiling: a bare undici POST loop replaying captured deliveries to the same receiver.
import { Agent, request } from 'undici';
import type { CapturedRequest } from './webhook-analysis.ts';
import { wallNow } from './webhook-graphql.ts';

export interface ReplayResult {
  requests: number;
  lanes: number;
  /** Wall clock (ms since the epoch) when the first request left and the last answer was read. */
  startedAt: number;
  endedAt: number;
  wallMs: number;
  perSecond: number;
  /** Answers by status code; `error` counts requests that threw. */
  statuses: Record<string, number>;
}

/**
 * One sequential loop per path (a lane: the next request leaves when the previous answer is read),
 * all lanes at once, over keep-alive connections of one undici Agent set up like the dispatcher's
 * (workers/send.ts) minus its DNS guard and timeouts. `limit` caps the requests per lane.
 */
export async function replay(
  origin: string,
  lanes: Map<string, CapturedRequest[]>,
  limit = Number.POSITIVE_INFINITY,
): Promise<ReplayResult> {
  const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 });
  const statuses: Record<string, number> = {};
  let requests = 0;
  try {
    const startedAt = wallNow();
    await Promise.all(
      [...lanes].map(async ([path, captured]) => {
        const url = `${origin}${path}`;
        for (const item of captured.slice(0, limit)) {
          let key: string;
          try {
            const res = await request(url, { method: 'POST', headers: item.headers, body: item.body, dispatcher: agent });
            await res.body.text();
            key = String(res.statusCode);
          } catch {
            key = 'error';
          }
          statuses[key] = (statuses[key] ?? 0) + 1;
          requests++;
        }
      }),
    );
    const endedAt = wallNow();
    const wallMs = endedAt - startedAt;
    return {
      requests,
      lanes: lanes.size,
      startedAt,
      endedAt,
      wallMs: Math.round(wallMs),
      perSecond: Math.round((requests / wallMs) * 1000),
      statuses,
    };
  } finally {
    await agent.close();
  }
}
