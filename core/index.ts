// What the outer layers (schema, facades, CLI) may use of the core. The ORM stays inside.
export { INTERNAL, PUBLIC, type Actor } from './actor.ts';
export { loadConfig, ConfigError, DEFAULT_RETRY_SCHEDULE, type Config, type LogLevel, type TeamChatProvider } from './config.ts';
export { SERVER_ROLES, isServerRole, type ServerRole } from './config.ts';
export { clientAddress, limitKey, type AddressedRequest } from './client-address.ts';
export { coreOptions, openCore, type Core, type CoreOptions, type Services } from './composition-root.ts';
export { defaultPublicBaseUrl } from './links.ts';
export { FAQ_PATH } from './faq/index.ts';
export type { ServiceLinks } from './components/service-links.ts';
export { migrateDatabase, databaseKind, type DatabaseKind } from './db/orm.ts';
export { outboxLagSeconds, pingDatabase } from './db/probes.ts';
export { seedDemo, DEMO_KEY_ORGANIZATION, type SeedResult } from './demo/seed.ts';
export { bulkSeed, BULK_SEED_LIMIT, type BulkSeedOptions, type BulkSeedProgress, type BulkSeedResult } from './demo/bulk-seed.ts';
export { API_SCOPES, PLANS, NEED_STATES, ROLES, type ApiScope, type Plan, type NeedState, type Role } from './entities/index.ts';
export { ASSISTANT_SCOPES, type AssistantScope } from './entities/index.ts';
export { DEFAULT_SCOPE, DESTINATION_SCOPES, SIGNAL_TYPES, type DestinationScope, type SignalType } from './entities/index.ts';
export { DELIVERY_FORMATS, LANGUAGES, type DeliveryFormat, type Language } from './webhooks/contract.ts';
export { EVENT_SIGNAL_DATA, SIGNAL_DATA } from './visibility.ts';
export { instant, type AnyField, type AnySignalData, type JsonSchema } from './webhooks/signal-data.ts';
export { ROTATION_OVERLAP_MS } from './services/destination.service.ts';
export {
  DRAFT_REVIEW_PATH,
  MEMBER_ACCOUNT_PATH,
  MEMBER_CONNECTOR_PATH,
  memberConnectorUrl,
  TEAM_INVITATION_PATH,
  type MemberAccessPolicy,
} from './service-kit/member-access-policy.ts';
export type { AccessTokenCheck, AuthenticatedAssistant } from './components/member-authenticator.ts';
export { DomainError, type ErrorCode } from './errors.ts';
export { MAX_ID_LENGTH, hasControlCharacters } from './ids.ts';
export { PASSWORD_MAX, PASSWORD_MIN, passwordProblem } from './passwords.ts';
export { PASSWORD_RESET_PATH, PASSWORD_RESET_TTL_SECONDS } from './services/password-reset.service.ts';
export { INVITATION_PATH, INVITATION_TTL_SECONDS } from './services/organization-members.service.ts';
export { createMailer, type Mailer, type MailMessage } from './mail/index.ts';
// The logger (createLogger, createAccessLog) is imported from './logger.ts' by the processes that log: pino stays out of a CLI command.
export type { AccessEntry, Logger } from './logger.ts';
export { PLAN_ALLOWANCES, type PlanAllowances } from './plans.ts';
export { listTag, kindTag, resourceTag, type ChangeFeed, type ChangeBus, type ChangeNotice } from './components/change-feed.ts';
export type { AuthenticatedKey } from './components/key-authenticator.ts';
export type { UsageRecorder } from './components/usage-recorder.ts';
export type { LiveLimits, UsageReport, KeyRateWindow } from './services/usage.service.ts';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './service-kit/paging.ts';
export { SIGN_IN_LIMITS, SignInLimits, type SignInDecision } from './components/sign-in-limits.ts';
export { OnceMarks } from './components/once-marks.ts';
export { ESIGN_INBOUND_PREFIX } from './services/esign.service.ts';
export { TEAM_CHAT_CALLBACK_PATH, teamChatAuthorizeUrl, teamChatCallbackUrl } from './services/team-chat-connection.service.ts';
export { MAX_ESIGN_BODY_BYTES } from './esign/esign-notification.ts';
export {
  KEY_ROLL_OVERLAPS,
  OVERLAPS,
  SECRET_OVERLAPS,
  overlapNamed,
  type KeyRollOverlap,
  type Overlap,
  type SecretOverlap,
} from './overlaps.ts';
