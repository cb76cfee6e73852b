import type { EntityManager } from '@mikro-orm/sql';
import { sqlOf } from '../db/sql.ts';
import {
  DEFAULT_SCOPE,
  DESTINATION_SCOPES,
  OrganizationEntity,
  SIGNAL_TYPES,
  WebhookDestinationEntity,
  type DestinationScope,
  type SignalType,
} from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import { maskUrl } from '../secret-box.ts';
import { LANGUAGES, type DeliveryFormat, type Language } from '../webhooks/contract.ts';
import { newSigningSecret } from '../webhooks/signing-secret.ts';
import { destinationView, secretContext, urlContext, type DestinationView } from '../webhooks/views.ts';
import type { ServiceDeps } from './service-deps.ts';

// What the destination edits (destination.service.ts) and the team-chat connection flow
// (team-chat-connection.service.ts) share: the checks of a destination's settings and labels,
// the plan's room, and the insert of a new destination.

export interface DestinationSettings {
  organizationId: string;
  language?: string;
  kinds?: string[];
  scope?: string;
}

export interface CreatedDestination {
  destination: DestinationView;
  /** The signing secret, shown this once (standard JSON only). */
  secret: string | null;
}

export interface Settings {
  language: Language;
  kinds: SignalType[];
  scope: DestinationScope;
}

export interface Labels {
  name: string;
  description: string;
}

export function checkLabels(input: { name?: string; description?: string }): Labels {
  const name = (input.name ?? '').trim();
  const description = (input.description ?? '').trim();
  if (name.length > 100) throw invalidInput('name', 'name must be at most 100 characters');
  if (description.length > 500) throw invalidInput('description', 'description must be at most 500 characters');
  return { name, description };
}

export function checkSettings(input: DestinationSettings): Settings {
  const language = oneOf('language', input.language ?? 'en', LANGUAGES);
  const scope = oneOf('scope', input.scope ?? DEFAULT_SCOPE, DESTINATION_SCOPES);
  const kinds =
    input.kinds === undefined ? [...SIGNAL_TYPES] : [...new Set(input.kinds.map((kind) => oneOf('kinds', kind.trim(), SIGNAL_TYPES)))];
  if (kinds.length === 0) throw invalidInput('kinds', 'kinds must name at least one event kind');
  return { language, kinds, scope };
}

export function oneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw invalidInput(field, `${field} must be one of ${allowed.join(', ')} (got '${value}')`);
  return value as T;
}

/** The outbox's last sequence number, read in `em`'s transaction. */
export async function lastSeq(em: EntityManager): Promise<number> {
  const row = await sqlOf(em)
    .selectFrom('OutboxEvent')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** Refuses a destination beyond the plan's allowance. */
export async function requireRoom(em: EntityManager, organizationId: string, plan: keyof typeof PLAN_ALLOWANCES): Promise<void> {
  const count = await em.count(WebhookDestinationEntity, { organization: organizationId });
  const limit = PLAN_ALLOWANCES[plan].destinations;
  if (count >= limit) {
    throw new DomainError(
      'plan_limit',
      `The ${plan} plan allows ${limit} webhook destination${limit === 1 ? '' : 's'}; delete one before adding another`,
    );
  }
}

/** A new active destination, taking signals from now on; a standard JSON one gets its signing secret. */
export async function insertDestination(
  em: EntityManager,
  deps: ServiceDeps,
  destination: {
    organizationId: string;
    format: DeliveryFormat;
    url: string;
    settings: Settings & Labels;
    connectedVia: 'manual' | 'oauth';
  },
): Promise<CreatedDestination> {
  const { organizationId, format, url, settings, connectedVia } = destination;
  const now = new Date();
  const secret = format === 'standard-json' ? newSigningSecret() : null;
  const created = await em.transactional(async (em) => {
    // Locking the organization serializes concurrent creations against the plan limit.
    const org = await em.findOne(OrganizationEntity, { id: organizationId }, deps.forUpdate);
    if (!org) throw notFound('organization', organizationId);
    await requireRoom(em, org.id, org.plan);
    const id = newId('destination');
    return em.create(WebhookDestinationEntity, {
      id,
      organization: org,
      format,
      urlSealed: deps.webhooks.box.seal(url, urlContext(id)),
      urlMasked: maskUrl(url),
      ...settings,
      connectedVia,
      secretSealed: secret ? deps.webhooks.box.seal(secret, secretContext(id)) : null,
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      status: 'active',
      disabledReason: null,
      sinceSeq: await lastSeq(em),
      leaseOwner: null,
      leaseExpiresAt: null,
      createdAt: now,
      updatedAt: now,
    });
  });
  return { destination: destinationView(created, deps.webhooks.box, now), secret };
}
