import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger, migrateDatabase, seedDemo, type Config, type Core, type SeedResult } from '../../../core/index.ts';
import { createApp } from '../../http/app.ts';
import { BOOLEAN, noPositionals, parse } from '../args.ts';
import { describeRecord, type Output, type Runtime } from '../runtime.ts';

const DEMO_KEY_FILE = 'demo-api-key';

/** `packline start [--no-demo]`: serves until SIGINT or SIGTERM. */
export async function start(rt: Runtime, args: string[], print: (line: string) => void): Promise<Output | undefined> {
  const usage = 'packline start [--no-demo]';
  const p = parse(args, { demo: BOOLEAN }, usage);
  noPositionals(p, usage);
  const config = rt.config;
  const log = createLogger(config.logLevel);
  const app = await createApp(config, log);
  const demoKey = p.values.demo === false ? undefined : await demoData(app.core, config);
  const address = await app.listen();
  const base = config.port === 0 ? config.publicBaseUrl.replace(/:0$/, `:${address.port}`) : config.publicBaseUrl;
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
      `  Internal token  ${config.internalApiTokenGenerated ? `${config.internalApiToken}   (generated for development, kept in ${join(config.dataDir, 'internal-api-token')})` : '(from INTERNAL_API_TOKEN)'}`,
      `  Demo API key    ${demoKey ?? '(none: start without --no-demo, or run `packline keys create`)'}`,
      '',
      `Try: curl -H "Authorization: Bearer ${demoKey ?? '<API_KEY>'}" ${base}/api/v1/opportunities?limit=2`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log.info({ signal }, 'shutting down');
      app.close().then(resolve, resolve);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
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
  const p = parse(args, {}, 'packline migrate [--json]');
  noPositionals(p, 'packline migrate');
  const result = await migrateDatabase({ databaseUrl: rt.config.databaseUrl, dataDir: rt.config.dataDir });
  return {
    json: result,
    text: result.applied.length ? `Applied ${result.applied.join(', ')}; ${result.total} migrations in all.` : `Database is up to date (${result.total} migrations).`,
  };
}

export async function seed(rt: Runtime, args: string[]): Promise<Output> {
  const p = parse(args, {}, 'packline seed [--json]');
  noPositionals(p, 'packline seed');
  const result: SeedResult = await seedDemo(await rt.openCore());
  if (!result.seeded) return { json: { seeded: false }, text: 'Demo data is already loaded.' };
  const key = result.demoApiKey!;
  return {
    json: { seeded: true, organizations: result.organizations, needs: result.needs, events: result.events, demo_api_key: { organization_id: key.organizationId, key: key.key, expires_at: key.expiresAt.toISOString() } },
    text: `${describeRecord({ organizations: result.organizations, needs: result.needs, events: result.events })}\ndemo key (${key.organizationId}): ${key.key}\n\nThe key is shown once.`,
  };
}
