import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../actor.ts';
import { displayPrefix, generateApiKey, hashApiKey } from '../api-key-format.ts';
import { API_SCOPES, ApiKeyEntity, OrganizationEntity, type ApiKey, type ApiScope } from '../entities/index.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import * as v from '../validate.ts';
import { recordChange } from '../components/change-feed.ts';
import { requireOrganizationAdmin, requireResourceAdmin } from '../service-kit/organization-admin.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

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
      const active = await em.count(ApiKeyEntity, { organization: org, revokedAt: null, expiresAt: { $gt: now } });
      const limit = PLAN_ALLOWANCES[org.plan].activeKeys;
      if (active >= limit) {
        throw new DomainError(
          'plan_limit',
          `The ${org.plan} plan allows ${limit} active API key${limit === 1 ? '' : 's'}; revoke one before creating another`,
        );
      }
      const key = generateApiKey();
      const entity = em.create(ApiKeyEntity, {
        id: newId('apiKey'),
        organization: org,
        name,
        prefix: displayPrefix(key),
        hash: hashApiKey(key),
        scopes,
        expiresAt,
        revokedAt: null,
        lastUsedAt: null,
        createdAt: now,
      });
      const change = recordChange(em, { kind: 'api_key', id: entity.id, lists: [] });
      return { apiKey: apiKeyView(entity, now), key, change };
    });
    this.deps.feed.changed([result.change]);
    return { apiKey: result.apiKey, key: result.key };
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
  const status: ApiKeyStatus = key.revokedAt ? 'revoked' : key.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
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
    status,
  };
}

function checkScopes(values: string[]): ApiScope[] {
  const scopes = [...new Set(values.map((s) => s.trim()).filter((s) => s !== ''))];
  if (scopes.length === 0) throw invalidInput('scopes', `Choose at least one scope: ${API_SCOPES.join(', ')}`);
  const unknown = scopes.filter((s) => !(API_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw invalidInput('scopes', `Unknown scope ${unknown.map((s) => `'${s}'`).join(', ')}; scopes are ${API_SCOPES.join(', ')}`);
  return scopes as ApiScope[];
}
