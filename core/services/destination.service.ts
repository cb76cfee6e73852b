import type { EntityManager } from '@mikro-orm/core';
import { createHash, randomBytes } from 'node:crypto';
import { requireInternal, type Actor } from '../actor.ts';
import {
  DeliveryAttemptEntity,
  DESTINATION_SCOPES,
  OrganizationEntity,
  SIGNAL_TYPES,
  TeamChatAuthorizationEntity,
  WebhookDeliveryEntity,
  WebhookDestinationEntity,
  type DestinationScope,
  type SignalType,
  type WebhookDestination,
} from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { isPlausibleId, newId, newTimeOrderedId, randomString } from '../ids.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import { maskUrl } from '../secret-box.ts';
import { DELIVERY_FORMATS, LANGUAGES, type DeliveryFormat, type Language, type WebhookEnvelope } from '../webhooks/envelope.ts';
import { newSigningSecret } from '../webhooks/signing-secret.ts';
import { checkDestinationUrl } from '../webhooks/url-policy.ts';
import {
  deliveryView,
  destinationView,
  PAUSED_REASON,
  secretContext,
  urlContext,
  type DeliveryView,
  type DestinationView,
} from '../webhooks/views.ts';
import { lockOutbox, recordChange } from './change-feed.ts';
import { requireOrganizationAdmin, requireResourceAdmin } from './organization-admin.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface DestinationSettings {
  organizationId: string;
  language?: string;
  kinds?: string[];
  scope?: string;
}

export interface NewDestination extends DestinationSettings {
  format: string;
  url: string;
  name?: string;
  description?: string;
}

/** What an edit may change; absent fields stay as they are. A new URL keeps the secret and the deliveries. */
export interface DestinationChanges {
  name?: string;
  description?: string;
  url?: string;
  language?: string;
  kinds?: string[];
  scope?: string;
}

export interface CreatedDestination {
  destination: DestinationView;
  /** The signing secret, shown this once (standard JSON only). */
  secret: string | null;
}

/** How long a replaced signing secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
/** How long an admin has to finish the team-chat connection flow. */
const AUTHORIZATION_TTL_MS = 10 * 60 * 1000;

export class DestinationService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: ServiceDeps,
  ) {}

  /** Creates a destination; the standard JSON signing secret is returned this once. */
  async create(actor: Actor, input: NewDestination): Promise<CreatedDestination> {
    await requireOrganizationAdmin(this.em, actor, input.organizationId, 'create webhook destinations');
    const format = oneOf('format', input.format, DELIVERY_FORMATS);
    const settings = checkSettings(input);
    const labels = checkLabels(input);
    const url = await checkDestinationUrl(input.url.trim(), this.deps.webhooks.policy);
    return this.insert(input.organizationId, format, url.href, { ...settings, ...labels }, 'manual');
  }

  /**
   * Starts the team-chat connection flow: keeps the settings under a one-time `state` the
   * provider hands back with the admin. Started from the administration pages, the flow is
   * bound to that browser session: a callback opened in another browser is refused.
   */
  async beginTeamChatConnection(actor: Actor, input: DestinationSettings, now = new Date()): Promise<{ state: string; expiresAt: Date }> {
    await requireOrganizationAdmin(this.em, actor, input.organizationId, 'connect team-chat destinations');
    const settings = checkSettings(input);
    const state = randomString(32);
    const expiresAt = new Date(now.getTime() + AUTHORIZATION_TTL_MS);
    await this.em.transactional(async (em) => {
      const org = await em.findOne(OrganizationEntity, { id: input.organizationId });
      if (!org) throw notFound('organization', input.organizationId);
      await this.requireRoom(em, org.id, org.plan);
      await em.nativeDelete(TeamChatAuthorizationEntity, { expiresAt: { $lt: now } });
      const sessionHash = actor.kind === 'memberSession' ? stateHash(actor.sessionId) : null;
      em.create(TeamChatAuthorizationEntity, {
        stateHash: stateHash(state),
        organization: org,
        ...settings,
        sessionHash,
        expiresAt,
        createdAt: now,
      });
    });
    return { state, expiresAt };
  }

  /**
   * Checks a state without using it, so the callback can refuse a stale or replayed one before
   * asking the provider to exchange its code (which would install a webhook nobody uses).
   */
  async pendingTeamChatConnection(
    actor: Actor,
    state: string,
    sessionId: string | null = null,
    now = new Date(),
  ): Promise<{ state: string; expiresAt: Date }> {
    requireInternal(actor, 'connect team-chat destinations');
    const found = await this.em.findOne(TeamChatAuthorizationEntity, { stateHash: stateHash(state) });
    if (!found || found.expiresAt < now) throw invalidStateError();
    checkBrowser(found, sessionId);
    return { state, expiresAt: found.expiresAt };
  }

  /** Ends the flow: the channel's incoming URL becomes a team-chat destination. The state works once. */
  async completeTeamChatConnection(
    actor: Actor,
    state: string,
    incomingUrl: string,
    sessionId: string | null = null,
    now = new Date(),
  ): Promise<DestinationView> {
    requireInternal(actor, 'connect team-chat destinations');
    const pending = await this.em.transactional(async (em) => {
      const found = await em.findOne(TeamChatAuthorizationEntity, { stateHash: stateHash(state) });
      if (!found || found.expiresAt < now) throw invalidStateError();
      checkBrowser(found, sessionId);
      em.remove(found);
      return {
        organizationId: found.organization.id,
        language: found.language as Language,
        kinds: found.kinds,
        scope: found.scope as DestinationScope,
      };
    });
    const url = await checkDestinationUrl(incomingUrl.trim(), this.deps.webhooks.policy);
    const { destination } = await this.insert(
      pending.organizationId,
      'team-chat',
      url.href,
      { ...pending, name: 'Team-chat channel', description: '' },
      'oauth',
    );
    return destination;
  }

  async list(actor: Actor, organizationId: string): Promise<DestinationView[]> {
    await requireOrganizationAdmin(this.em, actor, organizationId, 'list webhook destinations');
    const rows = await this.em.find(
      WebhookDestinationEntity,
      { organization: organizationId },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    return rows.map((row) => destinationView(row, this.deps.webhooks.box));
  }

  async get(actor: Actor, id: string): Promise<DestinationView> {
    return destinationView(await this.find(this.em, actor, id), this.deps.webhooks.box);
  }

  /** Deletes the destination with its deliveries; nothing more is sent to it. */
  async delete(actor: Actor, id: string): Promise<DestinationView> {
    return this.em.transactional(async (em) => {
      const destination = await this.find(em, actor, id, true);
      const view = destinationView(destination, this.deps.webhooks.box);
      await em.nativeDelete(DeliveryAttemptEntity, { delivery: { destination: id } });
      await em.nativeDelete(WebhookDeliveryEntity, { destination: id });
      em.remove(destination);
      return view;
    });
  }

  /** A new signing secret, shown this once; the old one keeps signing for 24 hours. */
  async rotateSecret(actor: Actor, id: string, now = new Date()): Promise<CreatedDestination> {
    const secret = newSigningSecret();
    const destination = await this.em.transactional(async (em) => {
      const found = await this.find(em, actor, id, true);
      if (!found.secretSealed)
        throw new DomainError('invalid_state', `Only standard-json destinations have a signing secret; '${id}' is ${found.format}`);
      found.previousSecretSealed = found.secretSealed;
      found.previousSecretExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
      found.secretSealed = this.deps.webhooks.box.seal(secret, secretContext(found.id));
      found.updatedAt = now;
      // Dispatchers re-read the destination at once: both secrets sign from the next delivery.
      return { found, change: recordChange(em, { kind: 'destination', id: found.id, lists: [] }) };
    });
    this.deps.feed.changed([destination.change]);
    return { destination: destinationView(destination.found, this.deps.webhooks.box, now), secret };
  }

  /**
   * Changes a destination's name, description, URL, language, kinds or scope. A new URL is checked
   * like a new destination's; the signing secret and the retained deliveries stay.
   */
  async update(actor: Actor, id: string, changes: DestinationChanges, now = new Date()): Promise<DestinationView> {
    const current = await this.find(this.em, actor, id);
    const settings = checkSettings({
      organizationId: current.organization.id,
      language: changes.language ?? current.language,
      kinds: changes.kinds ?? current.kinds,
      scope: changes.scope ?? current.scope,
    });
    const labels = checkLabels({ name: changes.name ?? current.name, description: changes.description ?? current.description });
    const url = changes.url === undefined ? undefined : await checkDestinationUrl(changes.url.trim(), this.deps.webhooks.policy);
    const destination = await this.em.transactional(async (em) => {
      const found = await this.find(em, actor, id, true);
      Object.assign(found, settings, labels);
      if (url) {
        found.urlSealed = this.deps.webhooks.box.seal(url.href, urlContext(found.id));
        found.urlMasked = maskUrl(url.href);
      }
      found.updatedAt = now;
      // Dispatchers re-read the destination at once: the next delivery goes to the new URL.
      return { found, change: recordChange(em, { kind: 'destination', id: found.id, lists: [] }) };
    });
    this.deps.feed.changed([destination.change]);
    return destinationView(destination.found, this.deps.webhooks.box, now);
  }

  /** Stops deliveries to an active destination until it is resumed (`enable`); signals meanwhile are not kept for it. */
  async pause(actor: Actor, id: string): Promise<DestinationView> {
    const destination = await this.em.transactional(async (em) => {
      const found = await this.find(em, actor, id, true);
      if (found.status !== 'active')
        throw new DomainError('invalid_state', `Destination '${id}' is not active; only an active destination can be paused`);
      found.status = 'disabled';
      found.disabledReason = PAUSED_REASON;
      found.updatedAt = new Date();
      return { found, change: recordChange(em, { kind: 'destination', id: found.id, lists: [] }) };
    });
    this.deps.feed.changed([destination.change]);
    return destinationView(destination.found, this.deps.webhooks.box);
  }

  /** Turns a destination disabled by a 410, or paused, back on; it takes signals from now on. */
  async enable(actor: Actor, id: string): Promise<DestinationView> {
    const destination = await this.em.transactional(async (em) => {
      const found = await this.find(em, actor, id, true);
      await lockOutbox(em);
      if (found.status !== 'active') {
        // Signals of the time it was disabled are not sent, however late they are fanned out:
        // it takes signals from here on, as a new destination does. (Outbox writers take the
        // outbox lock before their insert, so none can commit a lower number after this read.)
        found.sinceSeq = await lastSeq(em);
      }
      found.status = 'active';
      found.disabledReason = null;
      found.updatedAt = new Date();
      return { found, change: recordChange(em, { kind: 'destination', id: found.id, lists: [] }) };
    });
    this.deps.feed.changed([destination.change]);
    return destinationView(destination.found, this.deps.webhooks.box);
  }

  /** Queues a test signal to the destination, delivered like any other. */
  async sendTest(actor: Actor, id: string, now = new Date()): Promise<DeliveryView> {
    const view = await this.em.transactional(async (em) => {
      const destination = await this.find(em, actor, id);
      if (destination.status !== 'active') throw new DomainError('invalid_state', `Destination '${id}' is disabled; enable it first`);
      const seq = await lastSeq(em);
      const envelope = testEnvelope(destination, now, this.deps.links.publicBaseUrl);
      const delivery = em.create(WebhookDeliveryEntity, {
        id: newTimeOrderedId('delivery'),
        destination,
        organizationId: destination.organization.id,
        seq,
        eventId: envelope.id,
        type: envelope.type,
        envelope,
        test: true,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      });
      await lockOutbox(em);
      return { view: deliveryView(delivery), change: recordChange(em, { kind: 'delivery', id: delivery.id, lists: [] }) };
    });
    this.deps.feed.changed([view.change]);
    return view.view;
  }

  private async insert(
    organizationId: string,
    format: DeliveryFormat,
    url: string,
    settings: Settings & Labels,
    connectedVia: 'manual' | 'oauth',
  ) {
    const now = new Date();
    const secret = format === 'standard-json' ? newSigningSecret() : null;
    const destination = await this.em.transactional(async (em) => {
      // Locking the organization serializes concurrent creations against the plan limit.
      const org = await em.findOne(OrganizationEntity, { id: organizationId }, this.deps.forUpdate);
      if (!org) throw notFound('organization', organizationId);
      await this.requireRoom(em, org.id, org.plan);
      const id = newId('destination');
      return em.create(WebhookDestinationEntity, {
        id,
        organization: org,
        format,
        urlSealed: this.deps.webhooks.box.seal(url, urlContext(id)),
        urlMasked: maskUrl(url),
        ...settings,
        connectedVia,
        secretSealed: secret ? this.deps.webhooks.box.seal(secret, secretContext(id)) : null,
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
    return { destination: destinationView(destination, this.deps.webhooks.box, now), secret };
  }

  private async requireRoom(em: EntityManager, organizationId: string, plan: keyof typeof PLAN_ALLOWANCES) {
    const count = await em.count(WebhookDestinationEntity, { organization: organizationId });
    const limit = PLAN_ALLOWANCES[plan].destinations;
    if (count >= limit) {
      throw new DomainError(
        'plan_limit',
        `The ${plan} plan allows ${limit} webhook destination${limit === 1 ? '' : 's'}; delete one before adding another`,
      );
    }
  }

  /** The destination, once the actor may administer its organization. */
  private async find(em: EntityManager, actor: Actor, id: string, lock = false): Promise<WebhookDestination> {
    if (!isPlausibleId(id)) throw notFound('webhook destination', id);
    const found = await em.findOne(WebhookDestinationEntity, { id }, lock ? this.deps.forUpdate : {});
    if (!found) throw notFound('webhook destination', id);
    await requireResourceAdmin(em, actor, found.organization.id, 'webhook destination', id);
    return found;
  }
}

interface Settings {
  language: Language;
  kinds: SignalType[];
  scope: DestinationScope;
}

interface Labels {
  name: string;
  description: string;
}

function checkLabels(input: { name?: string; description?: string }): Labels {
  const name = (input.name ?? '').trim();
  const description = (input.description ?? '').trim();
  if (name.length > 100) throw invalidInput('name', 'name must be at most 100 characters');
  if (description.length > 500) throw invalidInput('description', 'description must be at most 500 characters');
  return { name, description };
}

function checkSettings(input: DestinationSettings): Settings {
  const language = oneOf('language', input.language ?? 'en', LANGUAGES);
  const scope = oneOf('scope', input.scope ?? 'platform', DESTINATION_SCOPES);
  const kinds =
    input.kinds === undefined ? [...SIGNAL_TYPES] : [...new Set(input.kinds.map((kind) => oneOf('kinds', kind.trim(), SIGNAL_TYPES)))];
  if (kinds.length === 0) throw invalidInput('kinds', 'kinds must name at least one event kind');
  return { language, kinds, scope };
}

function oneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw invalidInput(field, `${field} must be one of ${allowed.join(', ')} (got '${value}')`);
  return value as T;
}

async function lastSeq(em: EntityManager): Promise<number> {
  const rows = await em
    .getConnection()
    .execute<{ seq: number | null }[]>('select max(seq) as seq from outbox_events', [], 'all', em.getTransactionContext());
  return Number(rows[0]?.seq ?? 0);
}

const stateHash = (state: string) => createHash('sha256').update(state).digest('hex');
/** A flow started from the pages finishes only in the browser session that started it. */
function checkBrowser(found: { sessionHash?: string | null }, sessionId: string | null): void {
  if (found.sessionHash && (sessionId === null || stateHash(sessionId) !== found.sessionHash)) {
    throw new DomainError(
      'invalid_state',
      'This connection was started in another browser or session; start it again from the administration pages in this browser',
    );
  }
}

const invalidStateError = () => new DomainError('invalid_state', 'This connection request is unknown or expired; start again');

/** A sample of the destination's first kind, marked as a test by its resource id. */
function testEnvelope(destination: WebhookDestination, now: Date, base: string): WebhookEnvelope {
  const type = destination.kinds[0] ?? 'need.created';
  const resourceId = `test_${randomBytes(6).toString('hex')}`;
  const url = `${base}/api/v1/docs#webhooks`;
  const data: Record<string, unknown> = type.startsWith('need.')
    ? type === 'need.withdrawn'
      ? { id: resourceId, withdrawn_at: now.toISOString(), url }
      : { id: resourceId, title: 'Packline test signal', required_expertise: ['webhooks'], remote_allowed: true, url }
    : type === 'event.cancelled'
      ? { id: resourceId, cancelled_at: now.toISOString(), url }
      : { id: resourceId, title: 'Packline test signal', starts_at: now.toISOString(), ends_at: now.toISOString(), online: true, url };
  return {
    id: `evt-${type}-${resourceId}-v1`,
    type,
    version: '1',
    occurred_at: now.toISOString(),
    organization_id: destination.scope === 'own' ? destination.organization.id : null,
    data,
  };
}
