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
  /** Metrics label: the request family, refined to the route by the REST facade. */
  route = 'other';
}
