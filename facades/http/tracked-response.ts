import { ServerResponse, type IncomingMessage } from 'node:http';

/**
 * The server's responses, with what the access line and the metrics need. Fields declared on
 * the class give every response one shape (symbol-keyed properties added per request made
 * Node's own property accesses on responses megamorphic).
 */
export class TrackedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** performance.now() when the request arrived. */
  startedAt = 0;
  requestId = '';
  /**
   * The request target as it arrived: the access line's path comes from it, since routers below
   * (express mounts) rewrite `req.url` while they handle the request.
   */
  target = '/';
  /** Metrics label: the request family, refined to the route by the REST facade. */
  route = 'other';
  /**
   * Answered 408 by the server because the body came too slowly: what the handler meets after
   * (the connection closed under the body it was reading) is no failure of its own.
   */
  timedOut = false;
}
