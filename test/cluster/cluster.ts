// Support for the multi-instance suite: Packline processes over one PostgreSQL database and one
// Redis, and a TCP relay that can cut either dependency off and bring it back.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, type CliProcess } from '../cli/run-cli.ts';
import { freshDatabaseUrl } from '../support/database.ts';

export const TOKEN = 'cluster-test-internal-token-0123456789';

export interface Instance {
  role: 'api' | 'dispatcher';
  proc: CliProcess;
  origin: string;
}

/**
 * A TCP relay in front of a dependency. `cut()` drops every open connection and resets each new
 * one at once (what a client sees when the server goes away); `restore()` relays again.
 */
export class Relay {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private open = true;
  port = 0;

  private readonly host: string;
  private readonly targetPort: number;

  constructor(host: string, targetPort: number) {
    this.host = host;
    this.targetPort = targetPort;
    this.server = createServer((client) => {
      if (!this.open) {
        client.resetAndDestroy();
        return;
      }
      const upstream = connect(this.targetPort, this.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
  }

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  cut(): void {
    this.open = false;
    for (const socket of this.sockets) socket.resetAndDestroy();
  }

  restore(): void {
    this.open = true;
  }

  async close(): Promise<void> {
    this.cut();
    this.server.close();
  }
}

/** The dependency URL with its host and port replaced by the relay's. */
export function throughRelay(url: string, relay: Relay): string {
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(relay.port);
  return relayed.toString();
}

const portOf = (url: string, fallback: number) => Number(new URL(url).port || fallback);

/**
 * A fresh PostgreSQL database, a Redis prefix of its own, relays in front of both, and the
 * processes started over them. Needs DATABASE_URL and REDIS_URL (vitest.config.ts includes this
 * suite only then).
 */
export class Cluster {
  readonly instances: Instance[] = [];
  readonly dataDir = mkdtempSync(join(tmpdir(), 'packline-cluster-'));
  readonly database: Relay;
  readonly redis: Relay;
  databaseUrl = '';
  private dropDatabase = async () => {};
  private readonly redisPrefix = `packline-cluster-${randomBytes(4).toString('hex')}`;
  /** Given to every process, as in production: instances must share one sealing key. */
  private readonly encryptionKey = randomBytes(32).toString('base64');

  private readonly extraEnv: Record<string, string>;

  constructor(extraEnv: Record<string, string> = {}) {
    this.extraEnv = extraEnv;
    const databaseUrl = required('DATABASE_URL');
    const redisUrl = required('REDIS_URL');
    this.database = new Relay(new URL(databaseUrl).hostname, portOf(databaseUrl, 5432));
    this.redis = new Relay(new URL(redisUrl).hostname, portOf(redisUrl, 6379));
  }

  async start(): Promise<this> {
    const fresh = await freshDatabaseUrl();
    this.databaseUrl = fresh.url!;
    this.dropDatabase = fresh.drop;
    await this.database.start();
    await this.redis.start();
    return this;
  }

  /** Every process gets the same database, Redis, prefix, secrets and data directory. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PORT: '0',
      DATA_DIR: this.dataDir,
      INTERNAL_API_TOKEN: TOKEN,
      DATA_ENCRYPTION_KEY: this.encryptionKey,
      DATABASE_URL: throughRelay(this.databaseUrl, this.database),
      REDIS_URL: throughRelay(required('REDIS_URL'), this.redis),
      REDIS_PREFIX: this.redisPrefix,
      ...this.extraEnv,
      ...extra,
    };
  }

  /** Starts `packline start --role <role>` and waits until it listens. */
  async spawn(role: 'api' | 'dispatcher', extra: Record<string, string> = {}): Promise<Instance> {
    const proc = spawnCli(['start', '--role', role, '--no-demo'], this.env(extra));
    const instance: Instance = { role, proc, origin: '' };
    this.instances.push(instance);
    const ready = role === 'api' ? /listening on 127\.0\.0\.1:(\d+)[\s\S]*^Try: /m : /dispatcher is listening on 127\.0\.0\.1:(\d+)/;
    const [, port] = await proc.waitForOutput(ready, 90_000);
    instance.origin = `http://127.0.0.1:${port}`;
    return instance;
  }

  /** Internal GraphQL on `instance`; fails the test on any error. */
  async graphql<T = unknown>(instance: Instance, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const res = await fetch(`${instance.origin}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data: T; errors?: unknown[] };
    if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
    return body.data;
  }

  async close(): Promise<void> {
    for (const { proc } of this.instances) proc.kill();
    await Promise.all(this.instances.map(({ proc }) => proc.exited().catch(() => undefined)));
    await this.database.close();
    await this.redis.close();
    await this.dropDatabase();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set for the multi-instance suite`);
  return value;
}
