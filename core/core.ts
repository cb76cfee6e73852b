import type { EntityManager } from '@mikro-orm/core';
import { randomBytes } from 'node:crypto';
import { CursorCodec } from './cursor.ts';
import { databaseKind, openDatabase, type Database, type DatabaseOptions } from './db/orm.ts';
import { ApiKeyService } from './services/api-key.service.ts';
import { ChangeFeed } from './services/change-feed.ts';
import { EventService } from './services/event.service.ts';
import { KeyAuthenticator } from './services/key-authenticator.ts';
import { MemberService } from './services/member.service.ts';
import { NeedService } from './services/need.service.ts';
import { OrganizationService } from './services/organization.service.ts';
import { lockOptions, type ServiceDeps } from './services/service-deps.ts';
import { UsageRecorder } from './services/usage-recorder.ts';

export interface CoreOptions extends DatabaseOptions {
  publicBaseUrl: string;
  /** How often other processes' changes are looked for. @default 100 */
  changePollMs?: number;
}

/** The domain services of one request, sharing its EntityManager fork. */
export interface Services {
  organizations: OrganizationService;
  members: MemberService;
  needs: NeedService;
  events: EventService;
  apiKeys: ApiKeyService;
}

/** Everything the domain holds for the life of the process. */
export interface Core {
  db: Database;
  feed: ChangeFeed;
  keys: KeyAuthenticator;
  usage: UsageRecorder;
  /** Services over a fresh EntityManager fork: one call per request. */
  services(): Services;
  close(): Promise<void>;
}

export async function openCore(options: CoreOptions): Promise<Core> {
  const db = await openDatabase(options);
  const secret = await ensureSingletons(db.em.fork());
  const feed = new ChangeFeed(db, options.changePollMs ?? 100);
  await feed.poll();
  feed.start();
  const deps: ServiceDeps = {
    links: { publicBaseUrl: options.publicBaseUrl },
    cursors: new CursorCodec(secret),
    feed,
    forUpdate: lockOptions(databaseKind(options)),
  };
  const keys = new KeyAuthenticator(db, feed);
  const usage = new UsageRecorder(db);
  return {
    db,
    feed,
    keys,
    usage,
    services() {
      const em = db.em.fork();
      return {
        organizations: new OrganizationService(em, deps),
        members: new MemberService(em, deps),
        needs: new NeedService(em, deps),
        events: new EventService(em, deps),
        apiKeys: new ApiKeyService(em, deps),
      };
    },
    async close() {
      feed.stop();
      await keys.close();
      await usage.close();
      await db.close(true);
    },
  };
}

/** Rows every instance shares: the change epoch and the cursor signing secret. */
async function ensureSingletons(em: EntityManager): Promise<string> {
  const connection = em.getConnection();
  await connection.execute('insert into change_epoch (id, value) values (1, 0) on conflict (id) do nothing');
  await connection.execute("insert into settings (key, value) values ('cursor_secret', ?) on conflict (key) do nothing", [
    randomBytes(32).toString('base64url'),
  ]);
  const rows = await connection.execute<{ value: string }[]>("select value from settings where key = 'cursor_secret'");
  return rows[0]!.value;
}
