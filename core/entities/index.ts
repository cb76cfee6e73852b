export { OrganizationEntity, PLANS, type Organization, type Plan } from './organization.entity.ts';
export { MemberEntity, type Member } from './member.entity.ts';
export { MembershipEntity, ROLES, type Membership, type Role } from './membership.entity.ts';
export { NeedEntity, NEED_STATES, type Need, type NeedState } from './need.entity.ts';
export { EventEntity, EVENT_STATUSES, type Event, type EventStatus } from './event.entity.ts';
export { ApiKeyEntity, API_SCOPES, type ApiKey, type ApiScope } from './api-key.entity.ts';
export { OutboxEventEntity, type OutboxEvent } from './outbox-event.entity.ts';
export { SIGNAL_TYPES, type SignalType } from '../webhooks/contract.ts';
export { ChangeEpochEntity } from './change-epoch.entity.ts';
export { ChangeEntity, type Change } from './change.entity.ts';
export {
  WebhookDestinationEntity,
  DEFAULT_SCOPE,
  DESTINATION_SCOPES,
  DESTINATION_STATUSES,
  type WebhookDestination,
  type DestinationScope,
  type DestinationStatus,
} from './webhook-destination.entity.ts';
export {
  WebhookDeliveryEntity,
  DeliveryAttemptEntity,
  DELIVERY_STATUSES,
  type WebhookDelivery,
  type DeliveryAttempt,
  type DeliveryStatus,
} from './webhook-delivery.entity.ts';
export { EsignConnectionEntity, EsignInboundEventEntity, type EsignConnection } from './esign.entity.ts';
export { TeamChatAuthorizationEntity, type TeamChatAuthorization } from './team-chat-authorization.entity.ts';
export { ApiUsageEntity } from './api-usage.entity.ts';
export { ApiKeyUsageEntity, ANSWER_CLASSES, type AnswerClass } from './api-key-usage.entity.ts';
export { SettingEntity } from './setting.entity.ts';
export { OnceMarkEntity, type OnceMark } from './once-mark.entity.ts';
export {
  AssistantClientEntity,
  AuthorizationCodeEntity,
  AssistantGrantEntity,
  AssistantTokenEntity,
  AssistantAuditEntryEntity,
  ASSISTANT_SCOPES,
  GRANT_END_REASONS,
  UNUSED_CLIENT_DAYS,
  type AssistantClient,
  type AssistantGrant,
  type AssistantScope,
  type GrantEndReason,
} from './assistant-access.entity.ts';
export { MemberSessionEntity, type MemberSession } from './member-session.entity.ts';
export { PasswordResetEntity, type PasswordReset } from './password-reset.entity.ts';
export { InvitationEntity, type Invitation } from './invitation.entity.ts';
export { PackEntity, PackMemberEntity, PackInvitationEntity, type PackInvitation } from './private/pack.entity.ts';
export {
  RevenueSplitEntity,
  CollectionEntity,
  PayoutEntity,
  PayoutConfirmationEntity,
} from './private/money.entity.ts';
export { MilestoneEntity, PackDocumentEntity, PrivateThreadEntity, ThreadMessageEntity } from './private/pack-work.entity.ts';
export {
  QuoteEntity,
  PactEntity,
  PactSignatureEntity,
  PrivateClauseEntity,
  ContractTemplateEntity,
} from './private/agreement.entity.ts';

import { OrganizationEntity } from './organization.entity.ts';
import { MemberEntity } from './member.entity.ts';
import { MembershipEntity } from './membership.entity.ts';
import { NeedEntity } from './need.entity.ts';
import { EventEntity } from './event.entity.ts';
import { ApiKeyEntity } from './api-key.entity.ts';
import { OutboxEventEntity } from './outbox-event.entity.ts';
import { ChangeEpochEntity } from './change-epoch.entity.ts';
import { ChangeEntity } from './change.entity.ts';
import { WebhookDestinationEntity } from './webhook-destination.entity.ts';
import { WebhookDeliveryEntity, DeliveryAttemptEntity } from './webhook-delivery.entity.ts';
import { EsignConnectionEntity, EsignInboundEventEntity } from './esign.entity.ts';
import { TeamChatAuthorizationEntity } from './team-chat-authorization.entity.ts';
import { ApiUsageEntity } from './api-usage.entity.ts';
import { ApiKeyUsageEntity } from './api-key-usage.entity.ts';
import { SettingEntity } from './setting.entity.ts';
import { OnceMarkEntity } from './once-mark.entity.ts';
import {
  AssistantClientEntity,
  AuthorizationCodeEntity,
  AssistantGrantEntity,
  AssistantTokenEntity,
  AssistantAuditEntryEntity,
} from './assistant-access.entity.ts';
import { MemberSessionEntity } from './member-session.entity.ts';
import { PasswordResetEntity } from './password-reset.entity.ts';
import { InvitationEntity } from './invitation.entity.ts';
import { PackEntity, PackMemberEntity, PackInvitationEntity } from './private/pack.entity.ts';
import { RevenueSplitEntity, CollectionEntity, PayoutEntity, PayoutConfirmationEntity } from './private/money.entity.ts';
import { MilestoneEntity, PackDocumentEntity, PrivateThreadEntity, ThreadMessageEntity } from './private/pack-work.entity.ts';
import { QuoteEntity, PactEntity, PactSignatureEntity, PrivateClauseEntity, ContractTemplateEntity } from './private/agreement.entity.ts';

/** Every entity the ORM maps; migrations are generated from this list. */
export const ENTITIES = [
  OrganizationEntity,
  MemberEntity,
  MembershipEntity,
  NeedEntity,
  EventEntity,
  ApiKeyEntity,
  OutboxEventEntity,
  ChangeEpochEntity,
  ChangeEntity,
  WebhookDestinationEntity,
  WebhookDeliveryEntity,
  DeliveryAttemptEntity,
  EsignConnectionEntity,
  EsignInboundEventEntity,
  TeamChatAuthorizationEntity,
  ApiUsageEntity,
  ApiKeyUsageEntity,
  SettingEntity,
  OnceMarkEntity,
  AssistantClientEntity,
  AuthorizationCodeEntity,
  AssistantGrantEntity,
  AssistantTokenEntity,
  AssistantAuditEntryEntity,
  MemberSessionEntity,
  PasswordResetEntity,
  InvitationEntity,
  PackEntity,
  PackMemberEntity,
  PackInvitationEntity,
  RevenueSplitEntity,
  CollectionEntity,
  PayoutEntity,
  PayoutConfirmationEntity,
  MilestoneEntity,
  PackDocumentEntity,
  PrivateThreadEntity,
  ThreadMessageEntity,
  QuoteEntity,
  PactEntity,
  PactSignatureEntity,
  PrivateClauseEntity,
  ContractTemplateEntity,
];
