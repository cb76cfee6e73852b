import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** @default 8080 */
  port: number;
  /** @default '127.0.0.1' */
  host: string;
  /** Absolute path of the data directory. @default './data' */
  dataDir: string;
  /** PostgreSQL URL; SQLite in `dataDir` when unset. */
  databaseUrl: string | undefined;
  /** Redis URL; limits are kept in memory when unset. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so several deployments can share one Redis. @default 'packline' */
  redisPrefix: string;
  /** Base address of this service as integrators see it, without a trailing slash. */
  publicBaseUrl: string;
  internalApiToken: string;
  /** True when the internal token was generated (development only). */
  internalApiTokenGenerated: boolean;
  logLevel: LogLevel;
  /** @default 120 */
  rateLimitPerMinute: number;
  production: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Reads and validates the configuration from the environment. Collects every problem before
 * failing so an operator fixes them in one pass.
 */
export function loadConfig(env: Env = process.env, options: { persistSecrets?: boolean } = {}): Config {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';
  const value = (name: string) => {
    const raw = env[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };

  const port = integer(value('PORT') ?? '8080', 'PORT', 0, 65535, problems);
  const host = value('HOST') ?? '127.0.0.1';
  const dataDirRaw = value('DATA_DIR') ?? './data';
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(process.cwd(), dataDirRaw);

  const databaseUrl = value('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/.+/.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a PostgreSQL URL (postgres://user@host:port/database)');
  }
  const redisUrl = value('REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/.+/.test(redisUrl)) {
    problems.push('REDIS_URL must be a Redis URL (redis://host:port)');
  }

  const redisPrefix = value('REDIS_PREFIX') ?? 'packline';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(redisPrefix)) problems.push('REDIS_PREFIX must be 1 to 64 letters, digits or : _ . -');

  const logLevel = (value('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${logLevel}')`);
  }
  const rateLimitPerMinute = integer(value('RATE_LIMIT_PER_MINUTE') ?? '120', 'RATE_LIMIT_PER_MINUTE', 1, 1_000_000_000, problems);

  let publicBaseUrl = value('PUBLIC_BASE_URL');
  if (publicBaseUrl !== undefined) {
    try {
      const url = new URL(publicBaseUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
      publicBaseUrl = publicBaseUrl.replace(/\/+$/, '');
    } catch {
      problems.push(`PUBLIC_BASE_URL must be an absolute http(s) URL (got '${publicBaseUrl}')`);
    }
  }

  let internalApiToken = value('INTERNAL_API_TOKEN');
  let internalApiTokenGenerated = false;
  if (internalApiToken !== undefined && internalApiToken.length < 16) {
    problems.push('INTERNAL_API_TOKEN must be at least 16 characters long');
  }
  if (internalApiToken === undefined && production) {
    problems.push('INTERNAL_API_TOKEN is required when NODE_ENV=production');
  }

  if (problems.length > 0) throw new ConfigError(problems);

  if (internalApiToken === undefined) {
    internalApiToken = developmentSecret(dataDir, 'internal-api-token', options.persistSecrets ?? true);
    internalApiTokenGenerated = true;
  }

  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    redisUrl,
    redisPrefix,
    publicBaseUrl: publicBaseUrl ?? `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    internalApiToken,
    internalApiTokenGenerated,
    logLevel: logLevel as LogLevel,
    rateLimitPerMinute,
    production,
  };
}

function integer(raw: string, name: string, min: number, max: number, problems: string[]): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    problems.push(`${name} must be an integer between ${min} and ${max} (got '${raw}')`);
    return min;
  }
  return n;
}

/** A random secret kept in the data directory (mode 0600) so it survives restarts. */
function developmentSecret(dataDir: string, file: string, persist: boolean): string {
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = randomBytes(24).toString('base64url');
  if (persist) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path, `${secret}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return secret;
}
