import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BULK_SEED_LIMIT,
  SERVER_ROLES,
  bulkSeed,
  databaseKind,
  isServerRole,
  migrateDatabase,
  seedDemo,
  type Config,
  type Core,
  type Logger,
  type SeedResult,
} from '../../../core/index.ts';
import { createLogger } from '../../../core/logger.ts';
import { startTelemetry, stopTelemetry } from '../../../core/telemetry.ts';
import { createApp, type App } from '../../http/app.ts';
import { CliError, optional, parse } from '../args.ts';
import { progress } from '../progress.ts';
import { describeRecord, type Output, type Runtime } from '../runtime.ts';

const DEMO_KEY_FILE = 'demo-api-key';

/** Beyond the grace, what closing the pool and the database may take before the process exits anyway. */
const SHUTDOWN_MARGIN_MS = 5_000;

/** `packline start [--role all|api|dispatcher] [--no-demo] [--show-demo-key]`: serves until SIGINT or SIGTERM. */
export async function start(rt: Runtime, args: string[], print: (line: string) => void): Promise<Output | undefined> {
  const p = parse(args, 'start');
  const role = optional(p, 'role');
  if (role !== undefined && !isServerRole(role))
    throw new CliError(`--role must be one of ${SERVER_ROLES.join(', ')} (got '${role}')\nusage: ${p.usage}`);
  const config: Config = role === undefined ? rt.config : { ...rt.config, role };
  const log = createLogger(config.logLevel);
  // Before anything opens: the database and the server are instrumented only when traces are on.
  if (await startTelemetry())
    log.info(
      { endpoint: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT },
      'sending traces (OTLP/HTTP)',
    );
  // In role `all`, deliveries run on a thread of their own while there are any: the API's event loop keeps answering.
  const app = await createApp(config, log, { dispatcherThread: true });
  // The dispatcher serves no API: the demo data and its key are the API processes' business.
  const demoKey = p.values.demo === false || config.role === 'dispatcher' ? undefined : await demoData(app.core, config);
  const address = await app.listen();
  // Stops on a signal from before the banner: whoever reads it may signal at once (a test read
  // the banner and sent SIGTERM before the listener was in place, and the process died of it).
  const stopped = serveUntilSignal(app, config, log);
  if (config.role === 'dispatcher') {
    print(dispatcherBanner(config, `http://${address.address}:${address.port}`, `${address.address}:${address.port}`));
    return stopped;
  }
  // A live key printed to stdout ends up in logs: in production only when asked for.
  const keyFile = join(config.dataDir, DEMO_KEY_FILE);
  const shownKey = demoKey !== undefined && (!config.production || p.values['show-demo-key'] === true) ? demoKey : undefined;
  const keyLine =
    shownKey ??
    (demoKey !== undefined
      ? `(kept in ${keyFile}; print it with --show-demo-key)`
      : '(none: start without --no-demo, or run `packline keys create`)');
  // What the server recorded once listening: the port it got, with PORT=0.
  const base = app.core.links.publicBaseUrl;
  print(
    [
      '',
      `Packline is listening on ${address.address}:${address.port}`,
      `  REST API        ${base}/api/v1            (OpenAPI: ${base}/api/v1/openapi.json)`,
      `  API reference   ${base}/api/v1/docs`,
      `  Admin pages     ${base}/admin             (members with a password: packline members create … --password … --role admin)`,
      `  MCP             ${base}/mcp (public), ${base}/mcp/member (after OAuth consent)`,
      `  GraphQL         ${base}/graphql`,
      `  Database        ${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}${config.redisUrl ? ', limits in Redis' : ''}`,
      ...(config.role === 'api'
        ? ['  Webhooks        not delivered by this process (--role api): run `packline start --role dispatcher`']
        : []),
      `  Internal token  ${config.internalApiTokenGenerated ? `${config.internalApiToken}   (generated for development, kept in ${join(config.dataDir, 'internal-api-token')})` : '(from INTERNAL_API_TOKEN)'}`,
      `  Demo API key    ${keyLine}`,
      '',
      `Try: curl -H "Authorization: Bearer ${shownKey ?? '<API_KEY>'}" ${base}/api/v1/opportunities?limit=2`,
      '',
    ].join('\n'),
  );
  return stopped;
}

function dispatcherBanner(config: Config, base: string, address: string): string {
  return [
    '',
    `Packline dispatcher is listening on ${address} (webhook delivery; no API in this process)`,
    `  Health          ${base}/healthz, ${base}/readyz`,
    `  Metrics         ${base}/metrics   (Authorization: Bearer <internal token>)`,
    `  Database        ${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}`,
    '',
  ].join('\n');
}

/**
 * Runs until SIGINT or SIGTERM, then shuts down gracefully (App.close) and resolves, so the process
 * exits 0. Should closing hang past the grace and a margin, the process exits 1 regardless. The
 * signal listeners are in place when it returns.
 */
async function serveUntilSignal(app: App, config: Config, log: Logger): Promise<undefined> {
  await new Promise<void>((resolve, reject) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal, grace_seconds: config.shutdownGraceSeconds }, 'shutting down');
      setTimeout(
        () => {
          log.error('shutdown did not finish in time; exiting');
          process.exit(1);
        },
        config.shutdownGraceSeconds * 1000 + SHUTDOWN_MARGIN_MS,
      ).unref();
      // Spans still buffered go out last (the exporter's own timeout bounds the wait).
      app
        .close()
        .then(() => stopTelemetry().catch((error: unknown) => log.warn({ err: error }, 'could not send the last traces')))
        .then(resolve, reject);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  log.info('stopped');
  return undefined;
}

/** Loads the demo data on first start and returns a usable demo key, if there is one. */
async function demoData(core: Core, config: Config): Promise<string | undefined> {
  const result = await seedDemo(core);
  const file = join(config.dataDir, DEMO_KEY_FILE);
  if (result.demoApiKey) {
    writeFileSync(file, `${result.demoApiKey.key}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return result.demoApiKey.key;
  }
  if (!existsSync(file)) return undefined;
  const key = readFileSync(file, 'utf8').trim();
  return (await core.keys.authenticate(key)) ? key : undefined;
}

export async function migrate(rt: Runtime, args: string[]): Promise<Output> {
  parse(args, 'migrate');
  const result = await migrateDatabase({ databaseUrl: rt.config.databaseUrl, dataDir: rt.config.dataDir });
  return {
    json: result,
    text: result.applied.length
      ? `Applied ${result.applied.join(', ')}; ${result.total} migrations in all.`
      : `Database is up to date (${result.total} migrations).`,
  };
}

/**
 * `packline seed`: the demo data, once. With --needs/--events: that many generated public needs and
 * upcoming public events, bulk-inserted as already-published history (no webhook is sent for them).
 */
export async function seed(rt: Runtime, args: string[], err: (line: string) => void = () => {}): Promise<Output> {
  const p = parse(joinNegativeCounts(args), 'seed');
  const needs = seedCount(optional(p, 'needs'), 'needs', p.usage);
  const events = seedCount(optional(p, 'events'), 'events', p.usage);
  if (needs !== undefined || events !== undefined) return bulk(rt, needs ?? 0, events ?? 0, err);
  const result: SeedResult = await seedDemo(await rt.openCore());
  if (!result.seeded) return { json: { seeded: false }, text: 'Demo data is already loaded.' };
  const key = result.demoApiKey!;
  return {
    json: {
      seeded: true,
      organizations: result.organizations,
      needs: result.needs,
      events: result.events,
      demo_api_key: { organization_id: key.organizationId, key: key.key, expires_at: key.expiresAt.toISOString() },
    },
    text: `${describeRecord({ organizations: result.organizations, needs: result.needs, events: result.events })}\ndemo key (${key.organizationId}): ${key.key}\n\nThe key is shown once.`,
  };
}

/** `--needs -5` would parse as a missing value followed by a flag; joined, the message names the value. */
function joinNegativeCounts(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const next = args[i + 1];
    if ((args[i] === '--needs' || args[i] === '--events') && next !== undefined && /^-\d/.test(next)) out.push(`${args[i]}=${args[++i]}`);
    else out.push(args[i]!);
  }
  return out;
}

function seedCount(value: string | undefined, name: string, usage: string): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n > BULK_SEED_LIMIT) {
    throw new CliError(
      `--${name} must be a whole number from 0 to ${BULK_SEED_LIMIT.toLocaleString('en-US')} (got '${value}')\nusage: ${usage}`,
    );
  }
  return n;
}

async function bulk(rt: Runtime, needs: number, events: number, err: (line: string) => void): Promise<Output> {
  const core = await rt.openCore();
  const count = (n: number) => n.toLocaleString('en-US');
  const bar = progress({ total: needs + events, line: err });
  const result = await bulkSeed(core, databaseKind(rt.config), {
    needs,
    events,
    onProgress: (p) =>
      bar.update(p.needs + p.events, `needs ${count(p.needs)}/${count(p.totalNeeds)}, events ${count(p.events)}/${count(p.totalEvents)}`),
  }).finally(() => bar.finish());
  const rowsPerSecond = Math.round((result.needs + result.events) / Math.max(result.seconds, 0.001));
  return {
    json: {
      seeded: true,
      needs: result.needs,
      events: result.events,
      organizations: result.organizations,
      seconds: Math.round(result.seconds * 10) / 10,
      rows_per_second: rowsPerSecond,
      outbox_rows: 0,
    },
    text: [
      `Inserted ${count(result.needs)} public needs and ${count(result.events)} upcoming public events in ${result.seconds.toFixed(1)} s (${count(rowsPerSecond)} rows/s),`,
      `across ${result.organizations.length} generated organizations (${result.organizations.join(', ')}).`,
      'Written as already-published history: no webhook is sent for them.',
    ].join('\n'),
  };
}
