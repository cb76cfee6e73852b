import type { ApiScope, AssistantScope, Plan } from './entities/index.ts';
import { DomainError } from './errors.ts';

/** Who is asking. Built once per request by the schema's context factory. */
export type Actor =
  /** Internal teams (internal token) and the admin CLI. */
  | { kind: 'internal' }
  /** A REST integrator's API key, bound to one organization. */
  | { kind: 'apiKey'; keyId: string; organizationId: string; plan: Plan; scopes: readonly ApiScope[] }
  /** Anyone, without an account (the public assistant connector). */
  | { kind: 'public' }
  /** An assistant acting for a member through the member's grant to one application (member connector). */
  | { kind: 'member'; memberId: string; grantId: string; clientId: string; scopes: readonly AssistantScope[] }
  /** The member in person, signed in in a browser (consent and account pages). */
  | { kind: 'memberSession'; memberId: string; sessionId: string };

export const INTERNAL: Actor = { kind: 'internal' };
export const PUBLIC: Actor = { kind: 'public' };

/** Administrative actions are for internal callers only until member roles arrive. */
export function requireInternal(actor: Actor, action: string): void {
  if (actor.kind !== 'internal') throw new DomainError('forbidden', `Not allowed to ${action}`);
}

export type AssistantActor = Extract<Actor, { kind: 'member' }>;
export type SessionActor = Extract<Actor, { kind: 'memberSession' }>;

/** Account actions are for the member in person, never for an assistant acting for them. */
export function requireMemberSession(actor: Actor, action: string): asserts actor is SessionActor {
  if (actor.kind !== 'memberSession') throw new DomainError('forbidden', `Only the signed-in member can ${action}`);
}
