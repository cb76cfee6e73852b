import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../actor.ts';
import { displayPrefix, generateApiKey, hashApiKey } from '../api-key-format.ts';
import { API_SCOPES, ApiKeyEntity, OrganizationEntity, type ApiKey, type ApiScope, type Organization } from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { OVERLAPS, type KeyRollOverlap } from '../overlaps.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import * as v from '../validate.ts';
import { recordChange } from '../components/change-feed.ts';
import { requireOrganizationAdmin, requireResourceAdmin } from '../service-kit/organization-admin.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

export type ApiKeyStatus = 'active' | 'retiring' | 'expired' | 'revoked';

export interface ApiKeyView {
  id: string;
  organizationId: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** When it was rolled (a replacement created); it works until `expiresAt`. */
  rolledAt: Date | null;
  status: ApiKeyStatus;
}

export interface NewApiKey {
  organizationId: string;
  name?: string;
  scopes: string[];
  expiresAt: Date;
}

/** Longest lifetime a key may be given at creation. */
const MAX_LIFETIME_MS = 2 * 366 * 24 * 3600 * 1000;

export class ApiKeyService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;

  constructor(em: EntityManager, deps: ServiceDeps) {
    this.em = em;
    this.deps = deps;
  }

  /** Creates a key; the returned `key` is the only time its value is ever shown. */
  async create(actor: Actor, input: NewApiKey, now = new Date()): Promise<{ apiKey: ApiKeyView; key: string }> {
    await requireOrganizationAdmin(this.em, actor, input.organizationId, 'create API keys');
    const scopes = checkScopes(input.scopes);
    const expiresAt = v.date('expires_at', input.expiresAt);
    if (expiresAt.getTime() <= now.getTime()) throw invalidInput('expires_at', 'expires_at must be in the future');
    if (expiresAt.getTime() - now.getTime() > MAX_LIFETIME_MS) throw invalidInput('expires_at', 'expires_at must be within two years');
    const name = input.name === undefined ? 'API key' : v.text('name', input.name, { max: 100 });

    const result = await this.em.transactional(async (em) => {
      // Locking the organization row serializes concurrent creations against the plan limit.
      const org = await em.findOne(OrganizationEntity, { id: input.organizationId }, this.deps.forUpdate);
      if (!org) throw notFound('organization', input.organizationId);
      await requireRoomForKey(em, org, now, 'revoke one before creating another');
      const { entity, key } = issueKey(em, org, { name, scopes, expiresAt }, now);
      const change = recordChange(em, { kind: 'api_key', id: entity.id, lists: [] });
      return { apiKey: apiKeyView(entity, now), key, change };
    });
    this.deps.feed.changed([result.change]);
    return { apiKey: result.apiKey, key: result.key };
  }

  /**
   * Rolls a key: a replacement with the same name, scopes and lifetime, its value returned this
   * once, while the old key keeps working for `overlap` outside the plan's active-key limit.
   */
  async roll(
    actor: Actor,
    id: string,
    overlap: KeyRollOverlap,
    now = new Date(),
  ): Promise<{ apiKey: ApiKeyView; key: string; rolled: ApiKeyView }> {
    const result = await this.em.transactional(async (em) => {
      const found = await em.findOne(ApiKeyEntity, { id });
      if (!found) throw notFound('API key', id);
      await requireResourceAdmin(em, actor, found.organization.id, 'API key', id);
      const org = await em.findOne(OrganizationEntity, { id: found.organization.id }, this.deps.forUpdate);
      if (!org) throw notFound('organization', found.organization.id);
      await em.refresh(found);
      const status = apiKeyView(found, now).status;
      if (status !== 'active') throw new DomainError('invalid_state', `Only an active key can be rolled; '${id}' is ${status}`);
      await requireRoomForKey(em, org, now, 'revoke one before rolling this one', found.id);
      found.rolledAt = now;
      const lifetime = Math.min(Math.max(found.expiresAt.getTime() - found.createdAt.getTime(), 86_400_000), MAX_LIFETIME_MS);
      const { entity, key } = issueKey(
        em,
        org,
        { name: found.name, scopes: [...found.scopes], expiresAt: new Date(now.getTime() + lifetime) },
        now,
      );
      const until = now.getTime() + OVERLAPS[overlap].seconds * 1000;
      if (until === now.getTime()) found.revokedAt = now;
      else if (until < found.expiresAt.getTime()) found.expiresAt = new Date(until);
      const changes = [entity.id, found.id].map((changed) => recordChange(em, { kind: 'api_key', id: changed, lists: [] }));
      return { apiKey: apiKeyView(entity, now), key, rolled: apiKeyView(found, now), changes };
    });
    this.deps.feed.changed(result.changes);
    return { apiKey: result.apiKey, key: result.key, rolled: result.rolled };
  }

  /** Revokes a key at once; revoking twice is harmless. */
  async revoke(actor: Actor, id: string): Promise<ApiKeyView> {
    const view = await this.em.transactional(async (em) => {
      const key = await em.findOne(ApiKeyEntity, { id });
      if (!key) throw notFound('API key', id);
      await requireResourceAdmin(em, actor, key.organization.id, 'API key', id);
      key.revokedAt ??= new Date();
      const change = recordChange(em, { kind: 'api_key', id: key.id, lists: [] });
      return { view: apiKeyView(key), change };
    });
    this.deps.feed.changed([view.change]);
    return view.view;
  }

  async list(actor: Actor, organizationId: string): Promise<ApiKeyView[]> {
    await requireOrganizationAdmin(this.em, actor, organizationId, 'list API keys');
    if (!(await this.em.count(OrganizationEntity, { id: organizationId }))) throw notFound('organization', organizationId);
    const keys = await this.em.find(ApiKeyEntity, { organization: organizationId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    return keys.map((k) => apiKeyView(k));
  }
}

export function apiKeyView(key: ApiKey, now = new Date()): ApiKeyView {
  const status: ApiKeyStatus = key.revokedAt
    ? 'revoked'
    : key.expiresAt.getTime() <= now.getTime()
      ? 'expired'
      : key.rolledAt
        ? 'retiring'
        : 'active';
  return {
    id: key.id,
    organizationId: key.organization.id,
    name: key.name,
    prefix: key.prefix,
    scopes: [...key.scopes],
    createdAt: key.createdAt,
    expiresAt: key.expiresAt,
    lastUsedAt: key.lastUsedAt ?? null,
    revokedAt: key.revokedAt ?? null,
    rolledAt: key.rolledAt ?? null,
    status,
  };
}

/** Refuses a new key when the organization's active keys (rolled ones aside) fill its plan. */
async function requireRoomForKey(em: EntityManager, org: Organization, now: Date, advice: string, rolling?: string): Promise<void> {
  const others = rolling === undefined ? {} : { id: { $ne: rolling } };
  const active = await em.count(ApiKeyEntity, { organization: org, revokedAt: null, rolledAt: null, expiresAt: { $gt: now }, ...others });
  const limit = PLAN_ALLOWANCES[org.plan].activeKeys;
  if (active >= limit) {
    throw new DomainError('plan_limit', `The ${org.plan} plan allows ${limit} active API key${limit === 1 ? '' : 's'}; ${advice}`);
  }
}

function issueKey(
  em: EntityManager,
  org: Organization,
  fields: { name: string; scopes: ApiScope[]; expiresAt: Date },
  now: Date,
): { entity: ApiKey; key: string } {
  const key = generateApiKey();
  const entity = em.create(ApiKeyEntity, {
    id: newId('apiKey'),
    organization: org,
    ...fields,
    prefix: displayPrefix(key),
    hash: hashApiKey(key),
    revokedAt: null,
    rolledAt: null,
    lastUsedAt: null,
    createdAt: now,
  });
  return { entity, key };
}

function checkScopes(values: string[]): ApiScope[] {
  const scopes = [...new Set(values.map((s) => s.trim()).filter((s) => s !== ''))];
  if (scopes.length === 0) throw invalidInput('scopes', `Choose at least one scope: ${API_SCOPES.join(', ')}`);
  const unknown = scopes.filter((s) => !(API_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw invalidInput('scopes', `Unknown scope ${unknown.map((s) => `'${s}'`).join(', ')}; scopes are ${API_SCOPES.join(', ')}`);
  return scopes as ApiScope[];
}
