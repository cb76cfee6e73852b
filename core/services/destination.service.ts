import type { EntityManager } from '@mikro-orm/sql';
import { randomBytes } from 'node:crypto';
import { requireMemberSession, type Actor } from '../actor.ts';
import {
  MemberEntity,
  WebhookDeliveryEntity,
  WebhookDestinationEntity,
  type SignalType,
  type WebhookDestination,
} from '../entities/index.ts';
import { DomainError, notFound } from '../errors.ts';
import { isPlausibleId, newTimeOrderedId } from '../ids.ts';
import { OVERLAPS, type SecretOverlap } from '../overlaps.ts';
import { verifyPassword } from '../passwords.ts';
import { maskUrl } from '../secret-box.ts';
import { SIGNAL_DATA } from '../visibility.ts';
import { DELIVERY_FORMATS, type WebhookEnvelope } from '../webhooks/contract.ts';
import type { AnySignalData } from '../webhooks/signal-data.ts';
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
import { lockOutbox, recordChange } from '../components/change-feed.ts';
import {
  checkLabels,
  checkSettings,
  insertDestination,
  lastSeq,
  oneOf,
  type CreatedDestination,
  type DestinationSettings,
} from '../service-kit/destination-records.ts';
import { requireOrganizationAdmin, requireResourceAdmin } from '../service-kit/organization-admin.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

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

/** How long a replaced signing secret keeps signing after a rotation, unless the admin chooses. */
export const ROTATION_OVERLAP_MS = OVERLAPS.one_day.seconds * 1000;

/** Webhook destinations: creation, edits, secret rotation, pause and resume, test signals (the team-chat flow: team-chat-connection.service.ts). */
export class DestinationService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;

  constructor(em: EntityManager, deps: ServiceDeps) {
    this.em = em;
    this.deps = deps;
  }

  /** Creates a destination; the standard JSON signing secret is returned this once. */
  async create(actor: Actor, input: NewDestination): Promise<CreatedDestination> {
    await requireOrganizationAdmin(this.em, actor, input.organizationId, 'create webhook destinations');
    const format = oneOf('format', input.format, DELIVERY_FORMATS);
    const settings = checkSettings(input);
    const labels = checkLabels(input);
    const url = await checkDestinationUrl(input.url.trim(), this.deps.webhooks.policy);
    return insertDestination(this.em, this.deps, {
      organizationId: input.organizationId,
      format,
      url: url.href,
      settings: { ...settings, ...labels },
      connectedVia: 'manual',
    });
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

  /** Deletes the destination with its deliveries (the foreign keys cascade); nothing more is sent to it. */
  async delete(actor: Actor, id: string): Promise<DestinationView> {
    return this.em.transactional(async (em) => {
      const destination = await this.find(em, actor, id, true);
      const view = destinationView(destination, this.deps.webhooks.box);
      em.remove(destination);
      return view;
    });
  }

  /** A new signing secret, shown this once; the old one keeps signing for `overlap` (24 hours unless chosen). */
  async rotateSecret(actor: Actor, id: string, overlap: SecretOverlap = 'one_day', now = new Date()): Promise<CreatedDestination> {
    const secret = newSigningSecret();
    const destination = await this.em.transactional(async (em) => {
      const found = await this.find(em, actor, id, true);
      if (!found.secretSealed)
        throw new DomainError('invalid_state', `Only standard-json destinations have a signing secret; '${id}' is ${found.format}`);
      const seconds = OVERLAPS[overlap].seconds;
      found.previousSecretSealed = seconds === 0 ? null : found.secretSealed;
      found.previousSecretExpiresAt = seconds === 0 ? null : new Date(now.getTime() + seconds * 1000);
      found.secretSealed = this.deps.webhooks.box.seal(secret, secretContext(found.id));
      found.updatedAt = now;
      // Dispatchers re-read the destination at once: both secrets sign from the next delivery.
      return { found, change: recordChange(em, { kind: 'destination', id: found.id, lists: [] }) };
    });
    this.deps.feed.changed([destination.change]);
    return { destination: destinationView(destination.found, this.deps.webhooks.box, now), secret };
  }

  /**
   * The signing secret of a standard JSON destination, again, for an admin in person who confirms
   * their password (the page counts the attempt against the sign-in budgets before asking).
   */
  async revealSecret(actor: Actor, id: string, password: string): Promise<CreatedDestination> {
    requireMemberSession(actor, 'reveal a signing secret');
    const found = await this.find(this.em, actor, id);
    const member = await this.em.findOne(MemberEntity, { id: actor.memberId });
    if (!(await verifyPassword(password.slice(0, 1_000), member?.passwordHash ?? null)))
      throw new DomainError('invalid_input', 'The password is not right', 'password');
    if (!found.secretSealed)
      throw new DomainError('invalid_state', `Only standard-json destinations have a signing secret; '${id}' is ${found.format}`);
    const secret = this.deps.webhooks.box.open(found.secretSealed, secretContext(found.id));
    return { destination: destinationView(found, this.deps.webhooks.box), secret };
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

  /** Queues a test signal of `kind` (one of the destination's kinds; its first when absent), delivered like any other. */
  async sendTest(actor: Actor, id: string, kind?: string, now = new Date()): Promise<DeliveryView> {
    const view = await this.em.transactional(async (em) => {
      const destination = await this.find(em, actor, id);
      if (destination.status !== 'active') throw new DomainError('invalid_state', `Destination '${id}' is disabled; enable it first`);
      const type = kind === undefined ? destination.kinds[0] : oneOf('kind', kind, destination.kinds);
      const seq = await lastSeq(em);
      const envelope = testEnvelope(destination, now, this.deps.links.publicBaseUrl, type);
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

  /** The destination, once the actor may administer its organization. */
  private async find(em: EntityManager, actor: Actor, id: string, lock = false): Promise<WebhookDestination> {
    if (!isPlausibleId(id)) throw notFound('webhook destination', id);
    const found = await em.findOne(WebhookDestinationEntity, { id }, lock ? this.deps.forUpdate : {});
    if (!found) throw notFound('webhook destination', id);
    await requireResourceAdmin(em, actor, found.organization.id, 'webhook destination', id);
    return found;
  }
}

/** A sample of `type` (default: the destination's first kind), marked as a test by its resource id. */
export function testEnvelope(
  destination: WebhookDestination,
  now: Date,
  base: string,
  type: SignalType = destination.kinds[0] ?? 'need.created',
): WebhookEnvelope {
  const resourceId = `test_${randomBytes(6).toString('hex')}`;
  // The declared examples, with this signal's own identity, link and time.
  const data = (SIGNAL_DATA[type] as AnySignalData).sample({
    id: resourceId,
    link: `${base}/api/v1/docs#webhooks`,
    instant: now.toISOString(),
    heading: 'Packline test signal',
  }) as Record<string, unknown>;
  return {
    id: `evt-${type}-${resourceId}-v1`,
    type,
    version: '1',
    occurred_at: now.toISOString(),
    organization_id: destination.scope === 'own' ? destination.organization.id : null,
    data,
  };
}
