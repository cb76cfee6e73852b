import { randomBytes } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { ALLOWED_HOST, baseAddress, developmentSecret, integer } from './config-parsing.ts';
import { defaultPublicBaseUrl } from './links.ts';
import { readMailConfig, type MailConfig } from './mail/mail-config.ts';
import { DEFAULT_RETRY_SCHEDULE } from './webhooks/retry-policy.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * What one process runs: `api` serves HTTP without delivering webhooks, `dispatcher` delivers them
 * and answers only /healthz, /readyz and /metrics, `all` does both.
 */
export const SERVER_ROLES = ['all', 'api', 'dispatcher'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

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
  /**
   * PUBLIC_BASE_URL: base address of this service as integrators see it, without a trailing slash.
   * Every process (API, dispatcher, CLI) builds the links it hands out from it; when it is unset,
   * a process that does not serve the API uses the address the serving API recorded (ServiceLinks).
   * @default `http://HOST:PORT` (0.0.0.0 and :: shown as 127.0.0.1), see defaultPublicBaseUrl
   */
  publicBaseUrl: string;
  /** True when PUBLIC_BASE_URL is set: links use it as is, whatever the serving API recorded. */
  publicBaseUrlConfigured: boolean;
  /**
   * PUBLIC_SITE_URL: the platform's own public site, without a trailing slash. When set, the
   * public pages (`/`, `/organizations/…`, `/opportunities/…`, `/events/…`) redirect there (302);
   * the FAQ (`/faq`), about this service, stays.
   */
  publicSiteUrl: string | undefined;
  internalApiToken: string;
  /** True when the internal token was generated (development only). */
  internalApiTokenGenerated: boolean;
  logLevel: LogLevel;
  /** @default 120 */
  rateLimitPerMinute: number;
  production: boolean;
  /** 32 bytes (base64) sealing webhook URLs and secrets; generated into `dataDir` in development. */
  dataEncryptionKey: string;
  webhooks: WebhookConfig;
  /** The member assistant connector (`/mcp/member`): lifetimes of its secrets and sessions. */
  memberConnector: MemberConnectorConfig;
  /**
   * Reverse proxies in front of the service: the client address is then read from
   * `X-Forwarded-For`, that many entries from the right. @default 0 (the socket address)
   */
  trustedProxies: number;
  mcp: McpConfig;
  /** ROLE, overridden by `packline start --role`. @default 'all' */
  role: ServerRole;
  /**
   * SHUTDOWN_GRACE_SECONDS: on SIGTERM or SIGINT, how long requests and webhook attempts in
   * flight may take to finish before their connections are cut. @default 10
   */
  shutdownGraceSeconds: number;
  /** Deadlines for a client to send its request: slow or idle senders are answered 408 and cut off. */
  http: HttpConfig;
  /** Outgoing mail: password reset links and invitations. */
  mail: MailConfig;
}

export interface HttpConfig {
  /** HTTP_HEADERS_TIMEOUT_SECONDS: the request line and headers, from the first byte. @default 20 */
  headersTimeoutSeconds: number;
  /** HTTP_REQUEST_TIMEOUT_SECONDS: the whole request, body included. @default 60 */
  requestTimeoutSeconds: number;
  /**
   * HSTS_MAX_AGE_SECONDS: with an https PUBLIC_BASE_URL, every answer carries
   * `Strict-Transport-Security: max-age=<this>`; 0 sends none (a proxy in front that sets it).
   * Ignored on plain http. @default 31536000 (one year)
   */
  hstsMaxAgeSeconds: number;
}

/** The public assistant connector (`/mcp`). */
export interface McpConfig {
  /**
   * Host and Origin values accepted (DNS-rebinding protection): `host` (any port) or `host:port`.
   * @default the host of PUBLIC_BASE_URL, 127.0.0.1, localhost and [::1]
   */
  allowedHosts: string[];
  /** Calls per minute per client address. @default 60 */
  ratePerMinute: number;
  /** `compose_team` calls per hour per client address. @default 20 */
  composePerHour: number;
}

export interface MemberConnectorConfig {
  /** MCP_ACCESS_TOKEN_TTL_SECONDS, 0 to 600. @default 600 */
  accessTokenTtlSeconds: number;
  /** MCP_REFRESH_TOKEN_TTL_SECONDS. @default 2592000 (30 days) */
  refreshTokenTtlSeconds: number;
  /** MCP_AUTHORIZATION_CODE_TTL_SECONDS, 0 to 60. @default 60 */
  authorizationCodeTtlSeconds: number;
  /** MEMBER_SESSION_TTL_SECONDS: member browser sessions. @default 43200 (12 hours) */
  sessionTtlSeconds: number;
}

export interface WebhookConfig {
  /** Tests only: accept http:// destination URLs. @default false */
  allowHttp: boolean;
  /** Tests only: accept destinations on loopback and private networks. @default false */
  allowPrivateNetworks: boolean;
  /** Delay in seconds before each of the 8 attempts. @default 0,5,300,1800,7200,18000,36000,36000 */
  retrySchedule: number[];
  /** How long a dispatcher owns a destination's lane without renewing it. @default 10 */
  leaseSeconds: number;
  /** The team-chat provider's OAuth app; the connection flow is off when unset. */
  teamChat: TeamChatProvider | undefined;
}

export interface TeamChatProvider {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
}

export { DEFAULT_RETRY_SCHEDULE, defaultPublicBaseUrl };

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
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

  const publicBaseUrl = baseAddress(value('PUBLIC_BASE_URL'), 'PUBLIC_BASE_URL', problems);
  const publicSiteUrl = baseAddress(value('PUBLIC_SITE_URL'), 'PUBLIC_SITE_URL', problems);

  let internalApiToken = value('INTERNAL_API_TOKEN');
  let internalApiTokenGenerated = false;
  if (internalApiToken !== undefined && internalApiToken.length < 16) {
    problems.push('INTERNAL_API_TOKEN must be at least 16 characters long');
  }
  if (internalApiToken === undefined && production) {
    problems.push('INTERNAL_API_TOKEN is required when NODE_ENV=production');
  }

  const flag = (name: string) => {
    const raw = value(name);
    if (raw === undefined || raw === '0' || raw === 'false') return false;
    if (raw === '1' || raw === 'true') return true;
    problems.push(`${name} must be 1 or 0 (got '${raw}')`);
    return false;
  };
  const allowHttp = flag('WEBHOOK_ALLOW_HTTP');
  const allowPrivateNetworks = flag('WEBHOOK_ALLOW_PRIVATE_NETWORKS');
  if (production && (allowHttp || allowPrivateNetworks)) {
    problems.push('WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE_NETWORKS are for tests and refused when NODE_ENV=production');
  }
  let retrySchedule = DEFAULT_RETRY_SCHEDULE;
  const scheduleRaw = value('WEBHOOK_RETRY_SCHEDULE');
  if (scheduleRaw !== undefined) {
    const parts = scheduleRaw.split(',').map((part) => part.trim());
    if (parts.length !== 8 || parts.some((part) => !/^\d{1,6}$/.test(part))) {
      problems.push('WEBHOOK_RETRY_SCHEDULE must be 8 comma-separated delays in whole seconds (e.g. 0,5,300,1800,7200,18000,36000,36000)');
    } else {
      retrySchedule = parts.map(Number);
    }
  }
  const leaseSeconds = integer(value('WEBHOOK_LEASE_SECONDS') ?? '10', 'WEBHOOK_LEASE_SECONDS', 1, 3_600, problems);

  const teamChatValues = ['TEAM_CHAT_CLIENT_ID', 'TEAM_CHAT_CLIENT_SECRET', 'TEAM_CHAT_AUTHORIZE_URL', 'TEAM_CHAT_TOKEN_URL'].map(value);
  let teamChat: TeamChatProvider | undefined;
  if (teamChatValues.some((v) => v !== undefined)) {
    const [clientId, clientSecret, authorizeUrl, tokenUrl] = teamChatValues;
    if (teamChatValues.some((v) => v === undefined)) {
      problems.push(
        'TEAM_CHAT_CLIENT_ID, TEAM_CHAT_CLIENT_SECRET, TEAM_CHAT_AUTHORIZE_URL and TEAM_CHAT_TOKEN_URL go together: set all four or none',
      );
    } else if (![authorizeUrl, tokenUrl].every((u) => /^https?:\/\/[^\s]+$/.test(u!))) {
      problems.push('TEAM_CHAT_AUTHORIZE_URL and TEAM_CHAT_TOKEN_URL must be absolute http(s) URLs');
    } else {
      teamChat = { clientId: clientId!, clientSecret: clientSecret!, authorizeUrl: authorizeUrl!, tokenUrl: tokenUrl! };
    }
  }

  let dataEncryptionKey = value('DATA_ENCRYPTION_KEY');
  if (dataEncryptionKey !== undefined && Buffer.from(dataEncryptionKey, 'base64').length !== 32) {
    problems.push('DATA_ENCRYPTION_KEY must be 32 random bytes in base64 (openssl rand -base64 32)');
  }
  if (dataEncryptionKey === undefined && production) {
    problems.push('DATA_ENCRYPTION_KEY is required when NODE_ENV=production (openssl rand -base64 32)');
  }

  const trustedProxies = integer(value('TRUSTED_PROXIES') ?? '0', 'TRUSTED_PROXIES', 0, 10, problems);
  const mcpRate = integer(value('MCP_RATE_LIMIT_PER_MINUTE') ?? '60', 'MCP_RATE_LIMIT_PER_MINUTE', 1, 1_000_000_000, problems);
  const mcpCompose = integer(value('MCP_COMPOSE_LIMIT_PER_HOUR') ?? '20', 'MCP_COMPOSE_LIMIT_PER_HOUR', 1, 1_000_000_000, problems);
  const allowedHostsRaw = value('MCP_ALLOWED_HOSTS');
  const allowedHosts =
    allowedHostsRaw === undefined
      ? undefined
      : allowedHostsRaw
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter((h) => h !== '');
  if (allowedHosts !== undefined && (allowedHosts.length === 0 || !allowedHosts.every((h) => ALLOWED_HOST.test(h)))) {
    problems.push(
      'MCP_ALLOWED_HOSTS must be a comma-separated list of host names, each optionally with :port (e.g. mcp.example.org,localhost:8080)',
    );
  }

  // Zero is allowed so tests can hold an already expired token or code without waiting.
  const memberConnector: MemberConnectorConfig = {
    accessTokenTtlSeconds: integer(value('MCP_ACCESS_TOKEN_TTL_SECONDS') ?? '600', 'MCP_ACCESS_TOKEN_TTL_SECONDS', 0, 600, problems),
    refreshTokenTtlSeconds: integer(
      value('MCP_REFRESH_TOKEN_TTL_SECONDS') ?? '2592000',
      'MCP_REFRESH_TOKEN_TTL_SECONDS',
      0,
      31_536_000,
      problems,
    ),
    authorizationCodeTtlSeconds: integer(
      value('MCP_AUTHORIZATION_CODE_TTL_SECONDS') ?? '60',
      'MCP_AUTHORIZATION_CODE_TTL_SECONDS',
      0,
      60,
      problems,
    ),
    sessionTtlSeconds: integer(value('MEMBER_SESSION_TTL_SECONDS') ?? '43200', 'MEMBER_SESSION_TTL_SECONDS', 60, 2_592_000, problems),
  };

  const role = (value('ROLE') ?? 'all').toLowerCase();
  if (!isServerRole(role)) problems.push(`ROLE must be one of ${SERVER_ROLES.join(', ')} (got '${role}')`);
  const shutdownGraceSeconds = integer(value('SHUTDOWN_GRACE_SECONDS') ?? '10', 'SHUTDOWN_GRACE_SECONDS', 0, 600, problems);
  const http: HttpConfig = {
    headersTimeoutSeconds: integer(value('HTTP_HEADERS_TIMEOUT_SECONDS') ?? '20', 'HTTP_HEADERS_TIMEOUT_SECONDS', 1, 300, problems),
    requestTimeoutSeconds: integer(value('HTTP_REQUEST_TIMEOUT_SECONDS') ?? '60', 'HTTP_REQUEST_TIMEOUT_SECONDS', 1, 3_600, problems),
    hstsMaxAgeSeconds: integer(value('HSTS_MAX_AGE_SECONDS') ?? '31536000', 'HSTS_MAX_AGE_SECONDS', 0, 63_072_000, problems),
  };
  if (http.headersTimeoutSeconds > http.requestTimeoutSeconds)
    problems.push('HTTP_HEADERS_TIMEOUT_SECONDS must not exceed HTTP_REQUEST_TIMEOUT_SECONDS');

  const mail = readMailConfig(value, problems);

  if (problems.length > 0) throw new ConfigError(problems);

  if (dataEncryptionKey === undefined) {
    dataEncryptionKey = developmentSecret(dataDir, 'data-encryption-key', options.persistSecrets ?? true, () =>
      randomBytes(32).toString('base64'),
    );
  }

  if (internalApiToken === undefined) {
    internalApiToken = developmentSecret(dataDir, 'internal-api-token', options.persistSecrets ?? true);
    internalApiTokenGenerated = true;
  }

  const baseUrl = publicBaseUrl ?? defaultPublicBaseUrl(host, port);
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    redisUrl,
    redisPrefix,
    publicBaseUrl: baseUrl,
    publicBaseUrlConfigured: publicBaseUrl !== undefined,
    publicSiteUrl,
    internalApiToken,
    internalApiTokenGenerated,
    logLevel: logLevel as LogLevel,
    rateLimitPerMinute,
    production,
    dataEncryptionKey,
    webhooks: { allowHttp, allowPrivateNetworks, retrySchedule, leaseSeconds, teamChat },
    memberConnector,
    trustedProxies,
    mcp: {
      allowedHosts: allowedHosts ?? [...new Set([new URL(baseUrl).hostname, '127.0.0.1', 'localhost', '[::1]'])],
      ratePerMinute: mcpRate,
      composePerHour: mcpCompose,
    },
    role: role as ServerRole,
    shutdownGraceSeconds,
    http,
    mail: { smtpUrl: mail.smtpUrl, from: mail.from ?? `Packline <no-reply@${new URL(baseUrl).hostname}>` },
  };
}

export function isServerRole(value: string): value is ServerRole {
  return (SERVER_ROLES as readonly string[]).includes(value);
}
