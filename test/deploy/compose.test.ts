// compose.yaml and .env.example, read as a compose tool reads them (YAML with merge keys and
// ${VAR} interpolation): the deployment's shape is checked here, on any machine with Node.
// `npm run compose:smoke` runs the deployment whole with podman-compose or docker compose.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../core/index.ts';

const ROOT = new URL('../../', import.meta.url);
const composeText = readFileSync(new URL('compose.yaml', ROOT), 'utf8');
const envExample = readFileSync(new URL('.env.example', ROOT), 'utf8');

interface Service {
  image: string;
  entrypoint?: string[];
  command?: string[];
  env_file?: string | string[];
  environment?: Record<string, string>;
  restart?: string;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean; interval?: string };
  ports?: string[];
  volumes?: string[];
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** `${NAME}`, `${NAME:-default}` and `${NAME:?message}` as compose resolves them from `env`. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g, (_, name: string, op: string | undefined, arg: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (op === ':?') throw new Error(`${name}: ${arg}`);
    return op === ':-' ? (arg ?? '') : '';
  });
}

/** The variables of a .env file (NAME=value lines, comments ignored). */
function envFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) out[match[1]!] = match[2]!;
  }
  return out;
}

/** `.env.example` filled in as its comments say. */
const FILLED: Record<string, string> = {
  ...envFile(envExample),
  POSTGRES_PASSWORD: 'a-postgres-password',
  INTERNAL_API_TOKEN: 'an-internal-token-of-32-characters',
  DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};
const compose = parse(interpolate(composeText, FILLED), { merge: true }) as Compose;
const services = compose.services;
const PACKLINE = ['migrate', 'api-1', 'api-2', 'dispatcher'];
const LONG_RUNNING = ['postgres', 'redis', 'api-1', 'api-2', 'dispatcher'];

describe('compose.yaml', () => {
  it('has PostgreSQL, Redis, a one-shot migrate, two API processes and one dispatcher', () => {
    expect(Object.keys(services).sort()).toEqual(['api-1', 'api-2', 'dispatcher', 'migrate', 'postgres', 'redis']);
    for (const name of PACKLINE) expect(services[name]!.image).toBe('packline:local');
    expect(services.migrate!.entrypoint).toEqual(['packline', 'migrate']);
    expect(services.migrate!.restart).toBe('no');
    expect(services['api-1']!.command).toEqual(['--role', 'api', '--no-demo']);
    expect(services['api-2']!.command).toEqual(['--role', 'api', '--no-demo']);
    expect(services.dispatcher!.command).toEqual(['--role', 'dispatcher']);
    // The API replicas publish their ports, on loopback (a TLS proxy goes in front); nothing else does.
    expect(services['api-1']!.ports).toEqual(['127.0.0.1:8081:8080']);
    expect(services['api-2']!.ports).toEqual(['127.0.0.1:8082:8080']);
    for (const name of ['postgres', 'redis', 'migrate', 'dispatcher']) expect(services[name]!.ports).toBeUndefined();
    expect(services.postgres!.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(Object.keys(compose.volumes ?? {})).toEqual(['postgres-data']);
  });

  it('starts each process after what it needs: migrate after a healthy PostgreSQL, the others after migrate succeeded and Redis is healthy', () => {
    expect(services.migrate!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const name of ['api-1', 'api-2', 'dispatcher']) {
      expect(services[name]!.depends_on).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
      });
    }
  });

  it('gives every long-running service a health check and a restart policy', () => {
    for (const name of LONG_RUNNING) {
      const service = services[name]!;
      expect(service.restart, name).toBe('unless-stopped');
      expect(service.healthcheck?.test?.[0], name).toBe('CMD-SHELL');
      expect(service.healthcheck?.interval, name).toMatch(/^\d+s$/);
    }
    for (const name of ['api-1', 'api-2', 'dispatcher']) expect(services[name]!.healthcheck!.test![1]).toContain('/readyz');
    expect(services.migrate!.healthcheck).toEqual({ disable: true });
  });

  it('every Packline process gets a valid production configuration from .env and its environment', () => {
    for (const name of PACKLINE) {
      const service = services[name]!;
      expect(service.env_file, name).toBe('.env');
      const env: Record<string, string> = { ...FILLED, ...service.environment };
      expect(env.DATABASE_URL).toBe('postgres://packline:a-postgres-password@postgres:5432/packline');
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      const config = loadConfig(env, { persistSecrets: false });
      expect(config).toMatchObject({
        production: true,
        databaseUrl: env.DATABASE_URL,
        redisUrl: 'redis://redis:6379',
        publicBaseUrl: 'https://packline.example.org',
        trustedProxies: 1,
      });
    }
  });

  it('holds no secret: every one comes from .env, and compose refuses to start without the database password', () => {
    expect(composeText).not.toMatch(/INTERNAL_API_TOKEN|DATA_ENCRYPTION_KEY/);
    expect(composeText).toContain('${POSTGRES_PASSWORD:?');
    expect(() => interpolate(composeText, { ...FILLED, POSTGRES_PASSWORD: '' })).toThrow(
      /POSTGRES_PASSWORD: set POSTGRES_PASSWORD in \.env/,
    );
    const ignored = readFileSync(new URL('.gitignore', ROOT), 'utf8').split('\n');
    expect(ignored).toContain('.env');
  });
});

describe('.env.example', () => {
  it('documents every variable compose.yaml reads, with the secrets left empty', () => {
    const documented = new Set([...envExample.matchAll(/^#?\s*([A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const used = new Set([...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]));
    for (const name of used) expect(documented, name).toContain(name);
    const values = envFile(envExample);
    for (const secret of ['POSTGRES_PASSWORD', 'INTERNAL_API_TOKEN', 'DATA_ENCRYPTION_KEY']) {
      expect(values[secret], secret).toBe('');
      expect(envExample).toMatch(new RegExp(`# Generate one: openssl rand[^\\n]*\\n${secret}=`));
    }
  });

  it('left as it is, the configuration is refused with a message naming the missing secrets', () => {
    const env = { ...envFile(envExample), NODE_ENV: 'production' };
    expect(() => loadConfig(env, { persistSecrets: false })).toThrow(
      /INTERNAL_API_TOKEN is required[\s\S]*DATA_ENCRYPTION_KEY is required/,
    );
  });
});
