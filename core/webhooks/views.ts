// How webhook destinations, deliveries and attempts are shown to their organization's admins:
// the views the destination, delivery and team-chat connection services return and the schema's
// webhook types expose, with the URL and signing secret masked. Also the associated data that
// binds each sealed URL and secret to its destination (the dispatcher's delivery store unseals
// with it) and the disabled reason of a paused destination.
import type { DeliveryAttempt, SignalType, WebhookDelivery, WebhookDestination } from '../entities/index.ts';
import type { SecretBox } from '../secret-box.ts';
import { maskSecret } from '../secret-box.ts';

export interface DestinationView {
  id: string;
  organizationId: string;
  /** Empty for a destination added before names. */
  name: string;
  description: string;
  format: WebhookDestination['format'];
  /** Masked: a chat or suite URL is a credential, never shown after creation. */
  url: string;
  /** Standard JSON only: the URL whole, the admins' own receiver; null for the other formats. */
  receiverUrl: string | null;
  language: WebhookDestination['language'];
  kinds: SignalType[];
  scope: WebhookDestination['scope'];
  connectedVia: WebhookDestination['connectedVia'];
  /** `paused` when an admin paused it; `disabled` by a 410 answer. */
  status: WebhookDestination['status'] | 'paused';
  disabledReason: string | null;
  /** Masked signing secret (standard JSON only). */
  secret: string | null;
  /** While a rotation is under way, when the replaced secret stops signing. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
}

export interface AttemptView {
  number: number;
  at: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  /** The headers sent (signatures included) and the receiver's (no cookies), as stored (attempt-headers.ts); null for attempts recorded before they were kept. */
  requestHeaders?: string | null;
  responseHeaders?: string | null;
}

export interface DeliveryView {
  id: string;
  destinationId: string;
  organizationId: string;
  eventId: string;
  type: string;
  test: boolean;
  status: WebhookDelivery['status'];
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export function destinationView(destination: WebhookDestination, box: SecretBox, now = new Date()): DestinationView {
  const rotating =
    destination.previousSecretExpiresAt && destination.previousSecretExpiresAt > now ? destination.previousSecretExpiresAt : null;
  return {
    id: destination.id,
    organizationId: destination.organization.id,
    name: destination.name,
    description: destination.description,
    format: destination.format,
    url: destination.urlMasked,
    receiverUrl: destination.format === 'standard-json' ? box.open(destination.urlSealed, urlContext(destination.id)) : null,
    language: destination.language,
    kinds: [...destination.kinds],
    scope: destination.scope,
    connectedVia: destination.connectedVia,
    status: destination.status === 'disabled' && destination.disabledReason === PAUSED_REASON ? 'paused' : destination.status,
    disabledReason: destination.disabledReason ?? null,
    secret: destination.secretSealed ? maskSecret(box.open(destination.secretSealed, secretContext(destination.id))) : null,
    previousSecretExpiresAt: rotating,
    createdAt: destination.createdAt,
  };
}

export function deliveryView(delivery: WebhookDelivery): DeliveryView {
  return {
    id: delivery.id,
    destinationId: delivery.destination.id,
    organizationId: delivery.organizationId,
    eventId: delivery.eventId,
    type: delivery.type,
    test: delivery.test,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt : null,
    lastStatusCode: delivery.lastStatusCode ?? null,
    lastError: delivery.lastError ?? null,
    lastAttemptAt: delivery.lastAttemptAt ?? null,
    deliveredAt: delivery.deliveredAt ?? null,
    createdAt: delivery.createdAt,
  };
}

export function attemptView(attempt: DeliveryAttempt): AttemptView {
  return {
    number: attempt.number,
    at: attempt.at,
    durationMs: attempt.durationMs,
    statusCode: attempt.statusCode ?? null,
    error: attempt.error ?? null,
    responseExcerpt: attempt.responseExcerpt ?? null,
    requestHeaders: attempt.requestHeaders ?? null,
    responseHeaders: attempt.responseHeaders ?? null,
  };
}

/** The disabled reason of a destination an admin paused (DestinationService.pause): it accrues nothing until resumed. */
export const PAUSED_REASON = 'paused by an admin';

/** Associated data binding each sealed value to its destination and its role. */
export const secretContext = (destinationId: string) => `${destinationId}:secret`;
export const urlContext = (destinationId: string) => `${destinationId}:url`;
