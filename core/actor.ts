import type { ApiScope, Plan } from './entities/index.ts';
import { DomainError } from './errors.ts';

/** Who is asking. Built once per request by the schema's context factory. */
export type Actor =
  /** Internal teams (internal token) and the admin CLI. */
  | { kind: 'internal' }
  /** A REST integrator's API key, bound to one organization. */
  | { kind: 'apiKey'; keyId: string; organizationId: string; plan: Plan; scopes: readonly ApiScope[] }
  /** Anyone, without an account (the public assistant connector). */
  | { kind: 'public' };

export const INTERNAL: Actor = { kind: 'internal' };
export const PUBLIC: Actor = { kind: 'public' };

/** Administrative actions are for internal callers only until member roles arrive. */
export function requireInternal(actor: Actor, action: string): void {
  if (actor.kind !== 'internal') throw new DomainError('forbidden', `Not allowed to ${action}`);
}
