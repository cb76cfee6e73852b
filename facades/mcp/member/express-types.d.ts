// Express 5 ships without type declarations and @types/express is not installed: the member
// connector uses express only to host the MCP SDK's auth router and bearer middleware, so these
// are the few members it touches.
declare module 'express' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Request extends IncomingMessage {
    body?: unknown;
    query: Record<string, unknown>;
    params: Record<string, string>;
    path: string;
    originalUrl: string;
    /** Set by the SDK's bearer middleware. */
    auth?: import('@modelcontextprotocol/sdk/server/auth/types.js').AuthInfo;
  }

  export interface Response extends ServerResponse {
    status(code: number): this;
    json(body: unknown): this;
    send(body: string | Buffer): this;
    set(field: string, value: string): this;
    redirect(status: number, url: string): void;
    locals: Record<string, unknown>;
  }

  export type NextFunction = (error?: unknown) => void;
  export type RequestHandler = (req: Request, res: Response, next: NextFunction) => unknown;
  export type ErrorRequestHandler = (error: unknown, req: Request, res: Response, next: NextFunction) => unknown;

  export interface Router extends RequestHandler {
    use(...handlers: (RequestHandler | ErrorRequestHandler)[]): this;
    use(path: string, ...handlers: RequestHandler[]): this;
    get(path: string, ...handlers: RequestHandler[]): this;
    post(path: string, ...handlers: RequestHandler[]): this;
    all(path: string, ...handlers: RequestHandler[]): this;
  }

  export interface Express extends Router {
    disable(setting: string): this;
    set(setting: string, value: unknown): this;
    (req: IncomingMessage, res: ServerResponse, next?: NextFunction): void;
  }

  interface ExpressModule {
    (): Express;
    Router(): Router;
    json(options?: { limit?: string | number }): RequestHandler;
    urlencoded(options?: { extended?: boolean; limit?: string | number }): RequestHandler;
  }

  const express: ExpressModule;
  export default express;
}
