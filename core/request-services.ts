import type { EntityManager } from '@mikro-orm/sql';
import type { Database } from './db/orm.ts';
import type { Mailer } from './mail/index.ts';
import { ApiKeyService } from './services/api-key.service.ts';
import { AssistantAccessService } from './services/assistant-access.service.ts';
import { AssistantGrantService } from './services/assistant-grant.service.ts';
import { AssistantService } from './services/assistant.service.ts';
import { DeliveryService } from './services/delivery.service.ts';
import { DestinationService } from './services/destination.service.ts';
import type { DirectorySnapshot } from './components/directory-snapshot.ts';
import { DirectoryService } from './services/directory.service.ts';
import { EsignService } from './services/esign.service.ts';
import { EventService } from './services/event.service.ts';
import { MemberAccountService } from './services/member-account.service.ts';
import type { MemberAccessPolicy } from './service-kit/member-access-policy.ts';
import { MemberService } from './services/member.service.ts';
import { MemberDraftService } from './services/member-drafts.service.ts';
import { NeedService } from './services/need.service.ts';
import { OrganizationService } from './services/organization.service.ts';
import { PasswordResetService } from './services/password-reset.service.ts';
import { InvitationService } from './services/invitation.service.ts';
import { OrganizationMembersService } from './services/organization-members.service.ts';
import type { ServiceDeps } from './service-kit/service-deps.ts';
import { TeamChatConnectionService } from './services/team-chat-connection.service.ts';
import { TeamInvitationService } from './services/team-invitations.service.ts';
import type { UsageRecorder } from './components/usage-recorder.ts';
import { UsageService, type LiveLimits } from './services/usage.service.ts';

/** The domain services of one request, sharing its EntityManager fork. */
export interface Services {
  organizations: OrganizationService;
  members: MemberService;
  needs: NeedService;
  memberDrafts: MemberDraftService;
  events: EventService;
  apiKeys: ApiKeyService;
  destinations: DestinationService;
  teamChatConnections: TeamChatConnectionService;
  deliveries: DeliveryService;
  esign: EsignService;
  /** A member's own credentials and sessions. */
  accounts: MemberAccountService;
  /** Password reset links. */
  passwordResets: PasswordResetService;
  /** An organization's members as its admins manage them: invitations, roles, removal. */
  organizationMembers: OrganizationMembersService;
  /** Invitations as the invited person accepts them. */
  invitations: InvitationService;
  /** The member connector's authorization server (clients, codes, tokens). */
  assistantAccess: AssistantAccessService;
  /** Members' connected applications and their audit log. */
  assistantGrants: AssistantGrantService;
  /** The member connector's tools. */
  assistant: AssistantService;
  /** Team invitations as the invited member reads and answers them. */
  teamInvitations: TeamInvitationService;
  /** The public directory: discoverable organizations, team proposals, the FAQ. */
  directory: DirectoryService;
  usage: UsageService;
}

/** What every request's services share: the process's parts. */
export interface ServiceRoots {
  db: Database;
  deps: ServiceDeps;
  memberAccess: MemberAccessPolicy;
  directory: DirectorySnapshot;
  usage: UsageRecorder;
  /** Outgoing mail: reset links and invitations. */
  mailer: Mailer;
  liveLimits: () => LiveLimits | undefined;
}

/**
 * One request's services, each built on first use over one EntityManager forked on first use:
 * a public read, which goes through the query layer, forks nothing and builds one service.
 *
 * A class with its getters on the prototype, so every request's object has the same shape: an
 * object given fresh accessor properties per request would get a hidden class of its own each
 * time, which the engine keeps until a full collection, and with it everything the request read.
 */
export class RequestServices implements Services {
  private em: EntityManager | undefined;
  private built: Partial<Services> = {};

  private readonly roots: ServiceRoots;

  constructor(roots: ServiceRoots) {
    this.roots = roots;
  }

  /** The request's EntityManager, forked on first use (a function, for services that fork lazily). */
  private readonly fork = (): EntityManager => (this.em ??= this.roots.db.em.fork());

  private once<K extends keyof Services>(name: K, build: () => Services[K]): Services[K] {
    const known = this.built[name];
    if (known !== undefined) return known;
    const service = build();
    this.built[name] = service;
    return service;
  }

  get organizations() {
    return this.once('organizations', () => new OrganizationService(this.fork, this.roots.deps));
  }
  get members() {
    return this.once('members', () => new MemberService(this.fork(), this.roots.deps));
  }
  get needs() {
    return this.once('needs', () => new NeedService(this.fork, this.roots.deps));
  }
  get memberDrafts() {
    return this.once('memberDrafts', () => new MemberDraftService(this.fork(), this.roots.deps));
  }
  get events() {
    return this.once('events', () => new EventService(this.fork, this.roots.deps));
  }
  get apiKeys() {
    return this.once('apiKeys', () => new ApiKeyService(this.fork(), this.roots.deps));
  }
  get destinations() {
    return this.once('destinations', () => new DestinationService(this.fork(), this.roots.deps));
  }
  get teamChatConnections() {
    return this.once('teamChatConnections', () => new TeamChatConnectionService(this.fork(), this.roots.deps));
  }
  get deliveries() {
    return this.once('deliveries', () => new DeliveryService(this.fork(), this.roots.deps));
  }
  get esign() {
    return this.once('esign', () => new EsignService(this.fork(), this.roots.deps));
  }
  get accounts() {
    return this.once('accounts', () => new MemberAccountService(this.fork(), this.roots.deps, this.roots.memberAccess));
  }
  get passwordResets() {
    return this.once('passwordResets', () => new PasswordResetService(this.fork(), this.roots.deps, this.roots.mailer));
  }
  get organizationMembers() {
    return this.once('organizationMembers', () => new OrganizationMembersService(this.fork(), this.roots.deps, this.roots.mailer));
  }
  get invitations() {
    return this.once('invitations', () => new InvitationService(this.fork(), this.roots.memberAccess));
  }
  get assistantAccess() {
    return this.once('assistantAccess', () => new AssistantAccessService(this.fork(), this.roots.deps, this.roots.memberAccess));
  }
  get assistantGrants() {
    return this.once('assistantGrants', () => new AssistantGrantService(this.fork()));
  }
  get assistant() {
    return this.once('assistant', () => new AssistantService(this.fork(), this.roots.deps, this.needs));
  }
  get teamInvitations() {
    return this.once('teamInvitations', () => new TeamInvitationService(this.fork(), this.roots.deps));
  }
  get directory() {
    return this.once('directory', () => new DirectoryService(this.roots.deps, this.roots.directory));
  }
  get usage() {
    return this.once('usage', () => new UsageService(this.fork(), this.roots.usage, this.roots.liveLimits));
  }
}
