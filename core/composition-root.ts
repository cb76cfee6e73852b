// The composition root: opens the database and builds the process-wide components once (`openCore`);
// `services()` then gives each request its services over a fresh EntityManager fork.
import type { EntityManager } from '@mikro-orm/sql';
import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import { CursorCodec } from './cursor.ts';
import { databaseKind, openDatabase, type Database, type DatabaseOptions } from './db/orm.ts';
import { PreparedStatements } from './db/prepared.ts';
import { sqlOf } from './db/sql.ts';
import { PublicReads } from './components/public-reads.ts';
import { RequestServices, type ServiceRoots, type Services } from './request-services.ts';
import { SecretBox } from './secret-box.ts';
import { RedisChangeBus } from './components/change-bus.ts';
import { ChangeFeed } from './components/change-feed.ts';
import { DirectorySnapshot } from './components/directory-snapshot.ts';
import { ServiceLinks, type LinksMode } from './components/service-links.ts';
import type { LiveLimits } from './services/usage.service.ts';
import { DEFAULT_MEMBER_ACCESS_POLICY, type MemberAccessPolicy } from './service-kit/member-access-policy.ts';
import { MemberAuthenticator } from './components/member-authenticator.ts';
import { DeliveryStore } from './webhooks/delivery-store.ts';
import { createScriptRunner } from './webhooks/script-runners.ts';
import type { UrlPolicy } from './webhooks/url-policy.ts';
import { KeyAuthenticator } from './components/key-authenticator.ts';
import { lockOptions, type ServiceDeps } from './service-kit/service-deps.ts';
import { UsageRecorder } from './components/usage-recorder.ts';
import { logMailerOnFirstUse, type Mailer } from './mail/index.ts';

export type { Services } from './request-services.ts';

export interface CoreOptions extends DatabaseOptions {
  /** PUBLIC_BASE_URL, or the HOST/PORT default. */
  publicBaseUrl: string;
  /**
   * `serve`: this process serves the API and records `publicBaseUrl` for the others; `follow`: its
   * links use the address the serving API recorded (no PUBLIC_BASE_URL, not the API). @default 'fixed'
   */
  links?: LinksMode;
  /** 32 bytes in base64: seals webhook URLs and secrets. */
  dataEncryptionKey: string;
  /** @default https only, no private networks */
  urlPolicy?: UrlPolicy;
  /** How often other processes' changes are looked for. @default 100 */
  changePollMs?: number;
  /** Lifetimes of the member connector's secrets and of member sessions. */
  memberAccess?: MemberAccessPolicy;
  /** Redis URL: changes reach other processes at once over pub/sub; the database feed stays the fallback. */
  redisUrl?: string | undefined;
  /** Prefix of the Redis channel. @default 'packline' */
  redisPrefix?: string;
  /** Outgoing mail (reset links, invitations). @default the log mailer: each message's link in the log */
  mailer?: Mailer;
}

/** Everything the domain holds for the life of the process. */
export interface Core {
  db: Database;
  /** The hot paths' statements, compiled once (the public read path's). */
  statements: PreparedStatements;
  feed: ChangeFeed;
  /** The base of the links this process hands out; the serving API records its own with `links.serve`. */
  links: ServiceLinks;
  keys: KeyAuthenticator;
  /** Resolves member connector tokens and member sessions. */
  memberAuth: MemberAuthenticator;
  usage: UsageRecorder;
  /** The webhook dispatcher's durable bookkeeping. */
  deliveryStore: DeliveryStore;
  urlPolicy: UrlPolicy;
  /** Services over a fresh EntityManager fork: one call per request. */
  services(): Services;
  /** The API's live limiter registers here so usage reports read the windows it enforces. */
  attachLimits(limits: LiveLimits): void;
  close(): Promise<void>;
}

/** The core's options as the configuration sets them. */
export function coreOptions(config: Config, extra: Partial<CoreOptions> = {}): CoreOptions {
  return {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    publicBaseUrl: config.publicBaseUrl,
    links: config.publicBaseUrlConfigured ? 'fixed' : 'follow',
    dataEncryptionKey: config.dataEncryptionKey,
    urlPolicy: { allowHttp: config.webhooks.allowHttp, allowPrivateNetworks: config.webhooks.allowPrivateNetworks },
    memberAccess: config.memberConnector,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    ...extra,
  };
}

export async function openCore(options: CoreOptions): Promise<Core> {
  const db = await openDatabase(options);
  const secret = await ensureSingletons(db.em.fork());
  const box = SecretBox.fromBase64Key(options.dataEncryptionKey);
  const urlPolicy = options.urlPolicy ?? { allowHttp: false, allowPrivateNetworks: false };
  const statements = new PreparedStatements(db);
  const feed = new ChangeFeed(db, statements, { intervalMs: options.changePollMs ?? 100 });
  const links = new ServiceLinks(db, feed, options.publicBaseUrl, options.links ?? 'fixed');
  await links.open();
  await feed.poll();
  feed.start();
  const bus = options.redisUrl ? await RedisChangeBus.connect(options.redisUrl, `${options.redisPrefix ?? 'packline'}:changes`) : undefined;
  if (bus) feed.attachBus(bus);
  const deps: ServiceDeps = {
    links,
    cursors: new CursorCodec(secret),
    feed,
    reads: new PublicReads(statements, links),
    forUpdate: lockOptions(databaseKind(options)),
    webhooks: { box, policy: urlPolicy },
  };
  const keys = new KeyAuthenticator(db, feed);
  const usage = new UsageRecorder(db);
  const memberAccess = options.memberAccess ?? DEFAULT_MEMBER_ACCESS_POLICY;
  const directory = new DirectorySnapshot(deps.reads, feed);
  const deliveryStore = new DeliveryStore(createScriptRunner(db), box);
  let liveLimits: LiveLimits | undefined;
  // Its logger (and pino) loaded on first use: most processes without a mailer of their own (the CLI, the dispatcher) send nothing.
  const mailer = options.mailer ?? logMailerOnFirstUse(async () => (await import('./logger.ts')).createLogger('info'));
  const roots: ServiceRoots = { db, deps, memberAccess, directory, usage, mailer, liveLimits: () => liveLimits };
  return {
    db,
    statements,
    feed,
    links,
    keys,
    memberAuth: new MemberAuthenticator(db),
    usage,
    deliveryStore,
    urlPolicy,
    services() {
      return new RequestServices(roots);
    },
    attachLimits(limits) {
      liveLimits = limits;
    },
    async close() {
      await feed.stop();
      await bus?.close();
      await keys.close();
      await usage.close();
      await deliveryStore.close();
      await db.close(true);
    },
  };
}

/** Rows every instance shares: the change epoch and the cursor signing secret. */
async function ensureSingletons(em: EntityManager): Promise<string> {
  const db = sqlOf(em);
  await db
    .insertInto('ChangeEpoch')
    .values([
      { id: 1, value: 0 },
      { id: 2, value: 0 },
    ])
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  await db
    .insertInto('Setting')
    .values({ key: 'cursor_secret', value: randomBytes(32).toString('base64url') })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('Setting').select('value').where('key', '=', 'cursor_secret').executeTakeFirstOrThrow();
  return row.value;
}
