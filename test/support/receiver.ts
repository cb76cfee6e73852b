import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The headers as they came on the wire: name, value, name, value… */
  rawHeaders: string[];
  body: string;
  at: number;
}

/** What the receiver does with one request. */
export type Behaviour =
  | { status: number; headers?: Record<string, string>; body?: string }
  | { hang: true }
  | { reset: true }
  /** A 200 whose body never ends: a byte every `everyMs`, until the sender gives up. */
  | { drip: true; everyMs: number };

/**
 * A real HTTP receiver for webhook tests: records every request and answers as told, per path,
 * in order (the last behaviour repeats; 200 by default).
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly server: Server;
  private readonly plans = new Map<string, Behaviour[]>();
  private readonly waiters = new Set<() => void>();
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<ServerResponse>();
  private readonly drips = new Set<NodeJS.Timeout>();
  origin = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({
          path,
          headers: req.headers,
          rawHeaders: req.rawHeaders,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        this.answer(path, res);
        for (const waiter of this.waiters) waiter();
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  url(path = '/hook'): string {
    return `${this.origin}${path}`;
  }

  /** Answers requests to `path` with these behaviours in turn; the last one repeats. */
  plan(path: string, ...behaviours: Behaviour[]): void {
    this.plans.set(path, behaviours);
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves once `predicate` holds over what was received (checked on every request). */
  waitFor(predicate: (received: Received[]) => boolean, what = 'webhook requests'): Promise<Received[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate(this.received)) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(this.received);
        return true;
      };
      // A guard against a hung test, not a timing assertion.
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(`Timed out waiting for ${what}; received ${this.received.length}: ${this.received.map((r) => r.path).join(', ')}`),
        );
      }, 30_000);
      this.waiters.add(check);
      check();
    });
  }

  async close(): Promise<void> {
    for (const timer of this.drips) clearInterval(timer);
    for (const res of this.hanging) res.destroy();
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
  }

  private answer(path: string, res: ServerResponse) {
    const plan = this.plans.get(path);
    const behaviour: Behaviour = plan && plan.length > 0 ? (plan.length > 1 ? plan.shift()! : plan[0]!) : { status: 200 };
    if ('hang' in behaviour) {
      this.hanging.add(res);
      return;
    }
    if ('reset' in behaviour) {
      res.socket?.destroy();
      return;
    }
    if ('drip' in behaviour) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), behaviour.everyMs);
      this.drips.add(timer);
      res.on('close', () => {
        clearInterval(timer);
        this.drips.delete(timer);
      });
      return;
    }
    res.writeHead(behaviour.status, { 'content-type': 'text/plain', ...behaviour.headers });
    res.end(behaviour.body ?? 'ok');
  }
}
