import type { EntityManager } from '@mikro-orm/core';
import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import { CursorCodec } from './cursor.ts';
import { databaseKind, openDatabase, type Database, type DatabaseOptions } from './db/orm.ts';
import { createQueryRunner } from './db/query-layer.ts';
import { PublicReads } from './services/public-reads.ts';
import { ApiKeyService } from './services/api-key.service.ts';
import { SecretBox } from './secret-box.ts';
import { RedisChangeBus } from './services/change-bus.ts';
import { ChangeFeed } from './services/change-feed.ts';
import { DeliveryService } from './services/delivery.service.ts';
import { DestinationService } from './services/destination.service.ts';
import { TeamChatConnectionService } from './services/team-chat-connection.service.ts';
import { DirectorySnapshot } from './services/directory-snapshot.ts';
import { DirectoryService } from './services/directory.service.ts';
import { UsageService, type LiveLimits } from './services/usage.service.ts';
import { EsignService } from './services/esign.service.ts';
import { AssistantAccessService } from './services/assistant-access.service.ts';
import { AssistantGrantService } from './services/assistant-grant.service.ts';
import { AssistantService } from './services/assistant.service.ts';
import { MemberAccountService } from './services/member-account.service.ts';
import { DEFAULT_MEMBER_ACCESS_POLICY, type MemberAccessPolicy } from './services/member-access-policy.ts';
import { MemberAuthenticator } from './services/member-authenticator.ts';
import { DeliveryStore } from './webhooks/delivery-store.ts';
import { createScriptRunner } from './webhooks/script-runners.ts';
import type { UrlPolicy } from './webhooks/url-policy.ts';
import { EventService } from './services/event.service.ts';
import { KeyAuthenticator } from './services/key-authenticator.ts';
import { MemberService } from './services/member.service.ts';
import { NeedService } from './services/need.service.ts';
import { OrganizationService } from './services/organization.service.ts';
import { lockOptions, type ServiceDeps } from './services/service-deps.ts';
import { UsageRecorder } from './services/usage-recorder.ts';

export interface CoreOptions extends DatabaseOptions {
  publicBaseUrl: string;
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
}

/** The domain services of one request, sharing its EntityManager fork. */
export interface Services {
  organizations: OrganizationService;
  members: MemberService;
  needs: NeedService;
  events: EventService;
  apiKeys: ApiKeyService;
  destinations: DestinationService;
  teamChatConnections: TeamChatConnectionService;
  deliveries: DeliveryService;
  esign: EsignService;
  /** A member's own credentials and sessions. */
  accounts: MemberAccountService;
  /** The member connector's authorization server (clients, codes, tokens). */
  assistantAccess: AssistantAccessService;
  /** Members' connected applications and their audit log. */
  assistantGrants: AssistantGrantService;
  /** The member connector's tools. */
  assistant: AssistantService;
  /** The public directory: discoverable organizations, team proposals, the FAQ. */
  directory: DirectoryService;
  usage: UsageService;
}

/** Everything the domain holds for the life of the process. */
export interface Core {
  db: Database;
  feed: ChangeFeed;
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
  const feed = new ChangeFeed(db, { intervalMs: options.changePollMs ?? 100 });
  await feed.poll();
  feed.start();
  const bus = options.redisUrl ? new RedisChangeBus(options.redisUrl, `${options.redisPrefix ?? 'packline'}:changes`) : undefined;
  if (bus) feed.attachBus(bus);
  const links = { publicBaseUrl: options.publicBaseUrl };
  // One query runner per database: the public reads' statements and, on PostgreSQL, the dispatcher's scripts.
  const queries = createQueryRunner(db, databaseKind(options));
  const deps: ServiceDeps = {
    links,
    cursors: new CursorCodec(secret),
    feed,
    reads: new PublicReads(queries, links),
    forUpdate: lockOptions(databaseKind(options)),
    webhooks: { box, policy: urlPolicy },
  };
  const keys = new KeyAuthenticator(db, feed);
  const usage = new UsageRecorder(db);
  const memberAccess = options.memberAccess ?? DEFAULT_MEMBER_ACCESS_POLICY;
  const directory = new DirectorySnapshot(deps.reads, feed);
  const deliveryStore = new DeliveryStore(createScriptRunner(db, queries), box);
  let liveLimits: LiveLimits | undefined;
  return {
    db,
    feed,
    keys,
    memberAuth: new MemberAuthenticator(db),
    usage,
    deliveryStore,
    urlPolicy,
    services() {
      // Built on first use, over one EntityManager forked on first use: a public read, which
      // goes through the query layer, forks nothing and builds one service.
      let em: EntityManager | undefined;
      const fork = () => (em ??= db.em.fork());
      return lazily<Services>({
        organizations: () => new OrganizationService(fork, deps),
        members: () => new MemberService(fork(), deps),
        needs: () => new NeedService(fork, deps),
        events: () => new EventService(fork, deps),
        apiKeys: () => new ApiKeyService(fork(), deps),
        destinations: () => new DestinationService(fork(), deps),
        teamChatConnections: () => new TeamChatConnectionService(fork(), deps),
        deliveries: () => new DeliveryService(fork(), deps),
        esign: () => new EsignService(fork(), deps),
        accounts: () => new MemberAccountService(fork(), deps, memberAccess),
        assistantAccess: () => new AssistantAccessService(fork(), deps, memberAccess),
        assistantGrants: () => new AssistantGrantService(fork()),
        assistant: (services) => new AssistantService(fork(), deps, services.needs),
        directory: () => new DirectoryService(deps, directory),
        usage: () => new UsageService(fork(), usage, () => liveLimits),
      });
    },
    attachLimits(limits) {
      liveLimits = limits;
    },
    async close() {
      feed.stop();
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
  const connection = em.getConnection();
  await connection.execute('insert into change_epoch (id, value) values (1, 0), (2, 0) on conflict (id) do nothing');
  await connection.execute("insert into settings (key, value) values ('cursor_secret', ?) on conflict (key) do nothing", [
    randomBytes(32).toString('base64url'),
  ]);
  const rows = await connection.execute<{ value: string }[]>("select value from settings where key = 'cursor_secret'");
  return rows[0]!.value;
}

/** An object whose properties are built on first read, then kept. */
function lazily<T extends object>(factories: { [K in keyof T]: (self: T) => T[K] }): T {
  const self = {} as T;
  for (const key of Object.keys(factories) as (keyof T)[]) {
    Object.defineProperty(self, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = factories[key](self);
        Object.defineProperty(self, key, { value, enumerable: true });
        return value;
      },
    });
  }
  return self;
}
