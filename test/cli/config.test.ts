// Configuration from the environment: defaults, validation (every problem at once), and the
// development secret kept in DATA_DIR. Plus what an operator sees when `packline start` refuses it.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/index.ts';
import { runCli } from './run-cli.ts';

const TOKEN = 'a-valid-internal-token-0123456789';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'packline-config-'));
  dirs.push(dir);
  return dir;
}

/** The ConfigError `loadConfig(env)` throws (fails the test when it does not throw one). */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, { persistSecrets: false });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has defaults for everything but the secrets', () => {
    const config = loadConfig({ INTERNAL_API_TOKEN: TOKEN });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      redisUrl: undefined,
      redisPrefix: 'packline',
      rateLimitPerMinute: 120,
      logLevel: 'info',
      publicBaseUrl: 'http://127.0.0.1:8080',
      internalApiToken: TOKEN,
      internalApiTokenGenerated: false,
      production: false,
    });
    expect(isAbsolute(config.dataDir)).toBe(true);
    expect(config.dataDir).toBe(resolve(process.cwd(), 'data'));
  });

  it('reads and normalizes valid values', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATA_DIR: 'relative/dir',
      DATABASE_URL: 'postgresql://app@db:5432/packline',
      REDIS_URL: 'rediss://cache:6380',
      REDIS_PREFIX: 'tenant-a:v1',
      LOG_LEVEL: ' DEBUG ',
      RATE_LIMIT_PER_MINUTE: '600',
      PUBLIC_BASE_URL: 'https://api.example.org/',
      INTERNAL_API_TOKEN: TOKEN,
      NODE_ENV: 'production',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      dataDir: resolve(process.cwd(), 'relative/dir'),
      databaseUrl: 'postgresql://app@db:5432/packline',
      redisUrl: 'rediss://cache:6380',
      redisPrefix: 'tenant-a:v1',
      logLevel: 'debug',
      rateLimitPerMinute: 600,
      publicBaseUrl: 'https://api.example.org',
      production: true,
      internalApiTokenGenerated: false,
    });
  });

  it('shows a wildcard HOST as a loopback address in the default public URL', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000', INTERNAL_API_TOKEN: TOKEN }).publicBaseUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ HOST: '::1', PORT: '9000', INTERNAL_API_TOKEN: TOKEN }).publicBaseUrl).toBe('http://[::1]:9000');
  });

  it('collects every bad value in one ConfigError', () => {
    const error = configError({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      REDIS_URL: 'http://x',
      LOG_LEVEL: 'loud',
      RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_BASE_URL: 'ftp://x',
      INTERNAL_API_TOKEN: 'short',
    });
    const names = ['PORT', 'DATABASE_URL', 'REDIS_URL', 'LOG_LEVEL', 'RATE_LIMIT_PER_MINUTE', 'PUBLIC_BASE_URL', 'INTERNAL_API_TOKEN'];
    expect(error.problems).toHaveLength(names.length);
    for (const name of names) {
      expect(error.problems.some((p) => p.startsWith(name)), `a problem about ${name} in ${JSON.stringify(error.problems)}`).toBe(true);
      expect(error.message).toContain(name);
    }
    expect(error.message).toMatch(/^Invalid configuration:/);
  });

  const single: [string, Record<string, string>, RegExp][] = [
    ['PORT not a number', { PORT: 'abc' }, /^PORT .*'abc'/],
    ['PORT above 65535', { PORT: '70000' }, /^PORT must be an integer between 0 and 65535 \(got '70000'\)/],
    ['PORT negative', { PORT: '-1' }, /^PORT /],
    ['PORT fractional', { PORT: '80.5' }, /^PORT /],
    ['DATABASE_URL not PostgreSQL', { DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must be a PostgreSQL URL/],
    ['REDIS_URL not Redis', { REDIS_URL: 'http://x' }, /^REDIS_URL must be a Redis URL/],
    ['LOG_LEVEL unknown', { LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of .*'loud'/],
    ['RATE_LIMIT_PER_MINUTE zero', { RATE_LIMIT_PER_MINUTE: '0' }, /^RATE_LIMIT_PER_MINUTE must be an integer between 1/],
    ['PUBLIC_BASE_URL not http(s)', { PUBLIC_BASE_URL: 'ftp://x' }, /^PUBLIC_BASE_URL must be an absolute http\(s\) URL/],
    ['PUBLIC_BASE_URL not a URL', { PUBLIC_BASE_URL: 'packline.example' }, /^PUBLIC_BASE_URL /],
    ['INTERNAL_API_TOKEN too short', { INTERNAL_API_TOKEN: '0123456789abcde' }, /^INTERNAL_API_TOKEN must be at least 16 characters/],
    ['REDIS_PREFIX with spaces', { REDIS_PREFIX: 'a b' }, /^REDIS_PREFIX /],
  ];
  for (const [name, env, problem] of single) {
    it(`refuses ${name}`, () => {
      const error = configError({ INTERNAL_API_TOKEN: TOKEN, ...env });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(problem);
    });
  }

  it('refuses NODE_ENV=production without INTERNAL_API_TOKEN and writes no secret', () => {
    const dataDir = tempDir();
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir })).toThrow(ConfigError);
    const error = configError({ NODE_ENV: 'production', DATA_DIR: dataDir });
    expect(error.problems).toEqual([expect.stringMatching(/^INTERNAL_API_TOKEN is required when NODE_ENV=production/)]);
    expect(existsSync(join(dataDir, 'internal-api-token'))).toBe(false);
  });

  it('in development generates the internal token once, keeps it in DATA_DIR (mode 0600) and reuses it', () => {
    const dataDir = join(tempDir(), 'not-yet-created');
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.internalApiTokenGenerated).toBe(true);
    expect(first.internalApiToken.length).toBeGreaterThanOrEqual(16);
    const file = join(dataDir, 'internal-api-token');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.internalApiToken);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.internalApiToken).toBe(first.internalApiToken);
    expect(second.internalApiTokenGenerated).toBe(true);

    // A token given in the environment wins over the kept one.
    expect(loadConfig({ DATA_DIR: dataDir, INTERNAL_API_TOKEN: TOKEN }).internalApiToken).toBe(TOKEN);
  });

  it('with persistSecrets: false generates a token without writing it', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir }, { persistSecrets: false });
    expect(config.internalApiTokenGenerated).toBe(true);
    expect(config.internalApiToken.length).toBeGreaterThanOrEqual(16);
    expect(existsSync(join(dataDir, 'internal-api-token'))).toBe(false);
  });
});

describe('a bad configuration seen from the command line', () => {
  it(
    'packline start with PORT=abc exits 1 with a message naming PORT on stderr',
    async () => {
      const dataDir = tempDir();
      const result = await runCli(['start'], { DATA_DIR: dataDir, PORT: 'abc' });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/Invalid configuration/);
      expect(result.stderr).toMatch(/PORT must be an integer between 0 and 65535 \(got 'abc'\)/);
      expect(existsSync(join(dataDir, 'packline.sqlite'))).toBe(false);
    },
    60_000,
  );

  it(
    'an admin command reports every problem at once',
    async () => {
      const dataDir = tempDir();
      const result = await runCli(['orgs', 'list', '--json'], { DATA_DIR: dataDir, DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/DATABASE_URL must be a PostgreSQL URL/);
      expect(result.stderr).toMatch(/LOG_LEVEL must be one of/);
    },
    60_000,
  );
});
