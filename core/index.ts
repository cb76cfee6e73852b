// What the outer layers (schema, facades, CLI) may use of the core. The ORM stays inside.
export { INTERNAL, PUBLIC, type Actor } from './actor.ts';
export { loadConfig, ConfigError, type Config, type LogLevel } from './config.ts';
export { openCore, type Core, type CoreOptions, type Services } from './core.ts';
export { migrateDatabase, databaseKind, type DatabaseKind } from './db/orm.ts';
export { seedDemo, DEMO_KEY_ORGANIZATION, type SeedResult } from './demo/seed.ts';
export { API_SCOPES, PLANS, NEED_STATES, ROLES, type ApiScope, type Plan, type NeedState, type Role } from './entities/index.ts';
export { DomainError, type ErrorCode } from './errors.ts';
export { MAX_ID_LENGTH, hasControlCharacters } from './ids.ts';
export { createAccessLog, createLogger, type AccessEntry, type Logger } from './logger.ts';
export { PLAN_ALLOWANCES, type PlanAllowances } from './plans.ts';
export type { ChangeFeed } from './services/change-feed.ts';
export type { AuthenticatedKey } from './services/key-authenticator.ts';
export type { UsageRecorder } from './services/usage-recorder.ts';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './services/service-deps.ts';
