import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { requireInternal, type Actor } from '../actor.ts';
import {
  EsignConnectionEntity,
  EsignInboundEventEntity,
  OrganizationEntity,
  PactSignatureEntity,
  type EsignConnection,
} from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { MAX_ESIGN_BODY_BYTES, parseEsignNotification } from '../esign/esign-notification.ts';
import { newEsignSecret, verifyEsignSignature } from '../esign/esign-signature.ts';
import { isPlausibleId, newId } from '../ids.ts';
import * as v from '../validate.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

export interface EsignConnectionView {
  id: string;
  organizationId: string;
  provider: string;
  createdAt: Date;
  /** Where the provider posts its notifications, below the public base URL. */
  inboundPath: string;
}

export interface ConnectedEsignProvider {
  connection: EsignConnectionView;
  /** The secret the provider signs with, shown this once. */
  secret: string;
}

export interface EsignReceipt {
  /** The provider's event id was seen before: nothing changed. */
  duplicate: boolean;
  /** Signature rows set to the notified state. */
  updated: number;
}

export const ESIGN_INBOUND_PREFIX = '/inbound/e-signature/';

/** One answer for every rejection, so connection ids cannot be probed. */
const rejected = () => new DomainError('forbidden', 'The notification signature is missing, invalid or expired');
/** Verified against when the connection is unknown, so both rejections take the same work. */
const UNKNOWN_CONNECTION_SECRET = newEsignSecret();

/**
 * E-signature providers: organizations connect one, and the provider's signed notifications
 * update pact signature state. Nothing here is public: no outbox row, no change epoch.
 */
export class EsignService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;

  constructor(em: EntityManager, deps: ServiceDeps) {
    this.em = em;
    this.deps = deps;
  }

  /** Connects a provider; the returned secret, which signs its notifications, is shown this once. */
  async connect(actor: Actor, input: { organizationId: string; provider: string }, now = new Date()): Promise<ConnectedEsignProvider> {
    requireInternal(actor, 'connect e-signature providers');
    const provider = v.text('provider', input.provider, { max: 60 });
    const secret = newEsignSecret();
    const connection = await this.em.transactional(async (em) => {
      const org = await em.findOne(OrganizationEntity, { id: input.organizationId });
      if (!org) throw notFound('organization', input.organizationId);
      const id = newId('esignConnection');
      return em.create(EsignConnectionEntity, {
        id,
        organization: org,
        provider,
        secretSealed: this.deps.webhooks.box.seal(secret, secretContext(id)),
        createdAt: now,
      });
    });
    return { connection: connectionView(connection), secret };
  }

  async list(actor: Actor, organizationId: string): Promise<EsignConnectionView[]> {
    requireInternal(actor, 'list e-signature connections');
    const rows = await this.em.find(EsignConnectionEntity, { organization: organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return rows.map(connectionView);
  }

  /** Removes the connection and (by cascade) its record of applied notifications; later ones are refused. */
  async disconnect(actor: Actor, id: string): Promise<EsignConnectionView> {
    requireInternal(actor, 'disconnect e-signature providers');
    return this.em.transactional(async (em) => {
      const found = isPlausibleId(id) ? await em.findOne(EsignConnectionEntity, { id }) : null;
      if (!found) throw notFound('e-signature connection', id);
      const view = connectionView(found);
      em.remove(found);
      return view;
    });
  }

  /**
   * Applies one provider notification, once. `signatureHeader` is `X-Esign-Signature` as sent;
   * a missing, wrong or stale signature and an unknown connection all fail as `forbidden`.
   * Signatures of pacts in packs the connection's organization leads take the notified state.
   */
  async receive(actor: Actor, connectionId: string, rawBody: string, signatureHeader: string, now = new Date()): Promise<EsignReceipt> {
    requireInternal(actor, 'receive e-signature notifications');
    if (Buffer.byteLength(rawBody) > MAX_ESIGN_BODY_BYTES)
      throw invalidInput('body', `The notification body exceeds ${MAX_ESIGN_BODY_BYTES} bytes`);
    const connection = isPlausibleId(connectionId) ? await this.em.findOne(EsignConnectionEntity, { id: connectionId }) : null;
    const secret = connection
      ? this.deps.webhooks.box.open(connection.secretSealed, secretContext(connection.id))
      : UNKNOWN_CONNECTION_SECRET;
    if (!verifyEsignSignature(secret, signatureHeader, rawBody, now) || !connection) throw rejected();
    const notification = parseEsignNotification(rawBody);
    try {
      return await this.em.transactional(async (em) => {
        // Inserted first: a replay fails here, on the unique (connection, event id), before any change.
        await em.insert(EsignInboundEventEntity, { connection: connection.id, providerEventId: notification.eventId, receivedAt: now });
        const signatures = await em.find(PactSignatureEntity, {
          providerEnvelopeId: notification.envelopeId,
          pact: { pack: { leadOrganization: connection.organization.id } },
        });
        for (const signature of signatures) {
          signature.state = notification.status;
          signature.signedAt = notification.status === 'signed' ? notification.occurredAt : null;
        }
        return { duplicate: false, updated: signatures.length };
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return { duplicate: true, updated: 0 };
      throw error;
    }
  }
}

const secretContext = (connectionId: string) => `${connectionId}:secret`;

function connectionView(connection: EsignConnection): EsignConnectionView {
  return {
    id: connection.id,
    organizationId: connection.organization.id,
    provider: connection.provider,
    createdAt: connection.createdAt,
    inboundPath: `${ESIGN_INBOUND_PREFIX}${connection.id}`,
  };
}
