// Configuration from the environment: defaults, validation (every problem at once), and the
// development secret kept in DATA_DIR. Plus what an operator sees when `packline start` refuses it.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/index.ts';
import { runCli, runInProcess } from './run-cli.ts';

const TOKEN = 'a-valid-internal-token-0123456789';
const KEY = Buffer.alloc(32, 7).toString('base64');
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
    const config = loadConfig({ INTERNAL_API_TOKEN: TOKEN, DATA_ENCRYPTION_KEY: KEY });
    expect(config).toMatchObject({
      dataEncryptionKey: KEY,
      webhooks: {
        allowHttp: false,
        allowPrivateNetworks: false,
        retrySchedule: [0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000],
        leaseSeconds: 10,
        teamChat: undefined,
      },
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      redisUrl: undefined,
      redisPrefix: 'packline',
      rateLimitPerMinute: 120,
      logLevel: 'info',
      publicBaseUrl: 'http://127.0.0.1:8080',
      publicBaseUrlConfigured: false,
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
      DATA_ENCRYPTION_KEY: KEY,
      WEBHOOK_LEASE_SECONDS: '45',
      TEAM_CHAT_CLIENT_ID: 'client',
      TEAM_CHAT_CLIENT_SECRET: 'secret',
      TEAM_CHAT_AUTHORIZE_URL: 'https://chat.example/oauth/authorize',
      TEAM_CHAT_TOKEN_URL: 'https://chat.example/oauth/token',
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
      publicBaseUrlConfigured: true,
      production: true,
      internalApiTokenGenerated: false,
      webhooks: {
        leaseSeconds: 45,
        teamChat: {
          clientId: 'client',
          clientSecret: 'secret',
          authorizeUrl: 'https://chat.example/oauth/authorize',
          tokenUrl: 'https://chat.example/oauth/token',
        },
      },
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
      expect(
        error.problems.some((p) => p.startsWith(name)),
        `a problem about ${name} in ${JSON.stringify(error.problems)}`,
      ).toBe(true);
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
    [
      'DATA_ENCRYPTION_KEY of 16 bytes',
      { DATA_ENCRYPTION_KEY: Buffer.alloc(16, 1).toString('base64') },
      /^DATA_ENCRYPTION_KEY must be 32 random bytes/,
    ],
    ['WEBHOOK_ALLOW_HTTP not a flag', { WEBHOOK_ALLOW_HTTP: 'yes' }, /^WEBHOOK_ALLOW_HTTP must be 1 or 0/],
    ['WEBHOOK_RETRY_SCHEDULE of 3 delays', { WEBHOOK_RETRY_SCHEDULE: '0,1,2' }, /^WEBHOOK_RETRY_SCHEDULE must be 8 comma-separated delays/],
    ['WEBHOOK_RETRY_SCHEDULE with a negative delay', { WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1,1,1,-1' }, /^WEBHOOK_RETRY_SCHEDULE /],
    ['WEBHOOK_LEASE_SECONDS zero', { WEBHOOK_LEASE_SECONDS: '0' }, /^WEBHOOK_LEASE_SECONDS must be an integer between 1/],
    [
      'half a team-chat provider',
      { TEAM_CHAT_CLIENT_ID: 'client' },
      /^TEAM_CHAT_CLIENT_ID, TEAM_CHAT_CLIENT_SECRET, TEAM_CHAT_AUTHORIZE_URL and TEAM_CHAT_TOKEN_URL go together/,
    ],
  ];
  for (const [name, env, problem] of single) {
    it(`refuses ${name}`, () => {
      const error = configError({ INTERNAL_API_TOKEN: TOKEN, ...env });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(problem);
    });
  }

  it('refuses NODE_ENV=production without INTERNAL_API_TOKEN or DATA_ENCRYPTION_KEY and writes no secret', () => {
    const dataDir = tempDir();
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir })).toThrow(ConfigError);
    const error = configError({ NODE_ENV: 'production', DATA_DIR: dataDir });
    expect(error.problems).toEqual([
      expect.stringMatching(/^INTERNAL_API_TOKEN is required when NODE_ENV=production/),
      expect.stringMatching(/^DATA_ENCRYPTION_KEY is required when NODE_ENV=production/),
    ]);
    expect(existsSync(join(dataDir, 'internal-api-token'))).toBe(false);
    expect(existsSync(join(dataDir, 'data-encryption-key'))).toBe(false);
  });

  it('refuses the webhook test switches in production', () => {
    const error = configError({ NODE_ENV: 'production', INTERNAL_API_TOKEN: TOKEN, DATA_ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_HTTP: '1' });
    expect(error.problems).toEqual([expect.stringMatching(/^WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE_NETWORKS are for tests/)]);
  });

  it('in development generates the data encryption key once, in DATA_DIR with mode 0600', () => {
    const dataDir = tempDir();
    const first = loadConfig({ INTERNAL_API_TOKEN: TOKEN, DATA_DIR: dataDir });
    expect(Buffer.from(first.dataEncryptionKey, 'base64')).toHaveLength(32);
    expect(statSync(join(dataDir, 'data-encryption-key')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ INTERNAL_API_TOKEN: TOKEN, DATA_DIR: dataDir }).dataEncryptionKey).toBe(first.dataEncryptionKey);
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
  it('packline start with PORT=abc exits 2 with a message naming PORT on stderr', async () => {
    const dataDir = tempDir();
    const result = await runCli(['start'], { DATA_DIR: dataDir, PORT: 'abc' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/Invalid configuration/);
    expect(result.stderr).toMatch(/PORT must be an integer between 0 and 65535 \(got 'abc'\)/);
    expect(existsSync(join(dataDir, 'packline.sqlite'))).toBe(false);
  }, 60_000);

  it('an admin command reports every problem at once (JSON with --json)', async () => {
    const dataDir = tempDir();
    const result = await runInProcess(['orgs', 'list', '--json'], { DATA_DIR: dataDir, DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const { error } = JSON.parse(result.stderr) as { error: { code: string; message: string } };
    expect(error.code).toBe('invalid_configuration');
    expect(error.message).toMatch(/DATABASE_URL must be a PostgreSQL URL/);
    expect(error.message).toMatch(/LOG_LEVEL must be one of/);
  });
});

describe('public assistant connector settings', () => {
  it("default to 60 calls a minute, 20 compositions an hour, no trusted proxy, and the service's own hosts", () => {
    const local = loadConfig({ INTERNAL_API_TOKEN: TOKEN, DATA_ENCRYPTION_KEY: KEY });
    expect(local.trustedProxies).toBe(0);
    expect(local.mcp).toEqual({ allowedHosts: ['127.0.0.1', 'localhost', '[::1]'], ratePerMinute: 60, composePerHour: 20 });
    const deployed = loadConfig({
      INTERNAL_API_TOKEN: TOKEN,
      DATA_ENCRYPTION_KEY: KEY,
      PUBLIC_BASE_URL: 'https://API.Example.org:8443/base/',
    });
    expect(deployed.mcp.allowedHosts).toEqual(['api.example.org', '127.0.0.1', 'localhost', '[::1]']);
  });

  it('reads and normalizes MCP_ALLOWED_HOSTS, TRUSTED_PROXIES and the connector limits', () => {
    const config = loadConfig({
      INTERNAL_API_TOKEN: TOKEN,
      DATA_ENCRYPTION_KEY: KEY,
      MCP_ALLOWED_HOSTS: ' MCP.example.org , localhost:8080,[::1]:9000,, 10.0.0.5 ',
      TRUSTED_PROXIES: '2',
      MCP_RATE_LIMIT_PER_MINUTE: '5',
      MCP_COMPOSE_LIMIT_PER_HOUR: '1',
    });
    expect(config.trustedProxies).toBe(2);
    expect(config.mcp).toEqual({
      allowedHosts: ['mcp.example.org', 'localhost:8080', '[::1]:9000', '10.0.0.5'],
      ratePerMinute: 5,
      composePerHour: 1,
    });
  });

  it('reads SMTP_URL and MAIL_FROM; without MAIL_FROM, no-reply at the public host', () => {
    const base = { INTERNAL_API_TOKEN: TOKEN, DATA_ENCRYPTION_KEY: KEY, PUBLIC_BASE_URL: 'https://packline.example.org' };
    expect(loadConfig(base).mail).toEqual({ smtpUrl: undefined, from: 'Packline <no-reply@packline.example.org>' });
    const set = loadConfig({ ...base, SMTP_URL: 'smtps://mailer:pw@smtp.example.org:465', MAIL_FROM: 'Atelier <hello@example.org>' });
    expect(set.mail).toEqual({ smtpUrl: 'smtps://mailer:pw@smtp.example.org:465', from: 'Atelier <hello@example.org>' });
  });

  const refused: [string, Record<string, string>, RegExp][] = [
    ['SMTP_URL not an SMTP URL', { SMTP_URL: 'https://smtp.example.org' }, /^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/],
    ['MAIL_FROM without an address', { MAIL_FROM: 'Packline' }, /^MAIL_FROM must be an email address/],
    ['a host with a path', { MCP_ALLOWED_HOSTS: 'mcp.example.org/mcp' }, /^MCP_ALLOWED_HOSTS must be a comma-separated list of host names/],
    ['a host with a scheme', { MCP_ALLOWED_HOSTS: 'https://mcp.example.org' }, /^MCP_ALLOWED_HOSTS /],
    ['a wildcard host', { MCP_ALLOWED_HOSTS: '*.example.org' }, /^MCP_ALLOWED_HOSTS /],
    ['an empty host list', { MCP_ALLOWED_HOSTS: ' , ' }, /^MCP_ALLOWED_HOSTS /],
    ['TRUSTED_PROXIES not a number', { TRUSTED_PROXIES: 'yes' }, /^TRUSTED_PROXIES must be an integer between 0 and 10 \(got 'yes'\)/],
    ['TRUSTED_PROXIES above 10', { TRUSTED_PROXIES: '11' }, /^TRUSTED_PROXIES /],
    ['MCP_RATE_LIMIT_PER_MINUTE zero', { MCP_RATE_LIMIT_PER_MINUTE: '0' }, /^MCP_RATE_LIMIT_PER_MINUTE must be an integer between 1/],
    [
      'MCP_COMPOSE_LIMIT_PER_HOUR fractional',
      { MCP_COMPOSE_LIMIT_PER_HOUR: '2.5' },
      /^MCP_COMPOSE_LIMIT_PER_HOUR must be an integer between 1/,
    ],
  ];
  for (const [name, env, problem] of refused) {
    it(`refuses ${name}`, () => {
      const error = configError({ INTERNAL_API_TOKEN: TOKEN, ...env });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(problem);
    });
  }
});
