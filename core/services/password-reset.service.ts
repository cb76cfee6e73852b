import type { EntityManager } from '@mikro-orm/sql';
import { hashSecret, isWellFormedSecret, newSecret } from '../access-secrets.ts';
import { requireInternal, type Actor } from '../actor.ts';
import { AssistantGrantEntity, MemberEntity, PasswordResetEntity } from '../entities/index.ts';
import { DomainError, notFound } from '../errors.ts';
import type { Mailer } from '../mail/index.ts';
import { checkPassword, hashPassword } from '../passwords.ts';
import type { CredentialsReset } from './member-account.service.ts';
import { endCredentials } from '../service-kit/member-credentials.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

/** How long a reset link works. */
export const PASSWORD_RESET_TTL_SECONDS = 30 * 60;
/** The page a reset link opens, below the public base URL. */
export const PASSWORD_RESET_PATH = '/account/password-reset';

export interface PasswordResetLink {
  url: string;
  expiresAt: Date;
}

/** A reset link still usable: whose password it sets. */
export interface PasswordResetTarget {
  email: string;
  expiresAt: Date;
}

const UNUSABLE = () =>
  new DomainError('invalid_state', 'This password reset link does not work any more: it was used, it expired, or it is incomplete');

/**
 * Password reset by mailed link: a single-use token valid 30 minutes, stored as its SHA-256. A
 * request answers the same whether or not an account has the address, and never waits for the mail.
 */
export class PasswordResetService {
  private readonly em: EntityManager;
  private readonly deps: ServiceDeps;
  private readonly mailer: Mailer;

  constructor(em: EntityManager, deps: ServiceDeps, mailer: Mailer) {
    this.em = em;
    this.deps = deps;
    this.mailer = mailer;
  }

  /** Mails a reset link when a member has this email; true either way. */
  async request(actor: Actor, email: string): Promise<boolean> {
    requireInternal(actor, 'send password reset links');
    const member = await this.em.findOne(MemberEntity, { email: email.trim().toLowerCase().slice(0, 320) });
    if (!member) return true;
    const { url } = await this.issue(member.id);
    const minutes = PASSWORD_RESET_TTL_SECONDS / 60;
    // Not awaited: an existing account must not answer later than an unknown one. The mailer logs failures.
    this.mailer
      .send({
        to: member.email,
        subject: 'Reset your Packline password',
        text: `Hello ${member.name},\n\nSomeone (we hope you) asked to reset the password of your Packline account. To choose a new one, open this link within ${minutes} minutes:\n\n${url}\n\nIt works once. If you did not ask, ignore this message: your password stays as it is.\n`,
        html: `<p>Hello ${escapeHtml(member.name)},</p><p>Someone (we hope you) asked to reset the password of your Packline account. To choose a new one, open this link within ${minutes} minutes:</p><p><a href="${escapeHtml(url)}">Choose a new password</a></p><p>It works once. If you did not ask, ignore this message: your password stays as it is.</p>`,
      })
      .catch(() => undefined);
    return true;
  }

  /** Internal callers (CLI): a reset link for the member, to hand over in person. */
  async link(actor: Actor, idOrEmail: string): Promise<PasswordResetLink> {
    requireInternal(actor, 'create password reset links');
    const member = await this.em.findOne(MemberEntity, { $or: [{ id: idOrEmail }, { email: idOrEmail.trim().toLowerCase() }] });
    if (!member) throw notFound('member', idOrEmail);
    return this.issue(member.id);
  }

  /** Whose password a link sets, while it works; INVALID_STATE otherwise. */
  async target(actor: Actor, token: string): Promise<PasswordResetTarget> {
    requireInternal(actor, 'read password reset links');
    const row = await this.usable(token);
    return { email: row.member.email, expiresAt: row.expiresAt };
  }

  /** Sets the password the link is for, once: every session and assistant grant of the member ends. */
  async reset(actor: Actor, token: string, password: string): Promise<CredentialsReset> {
    requireInternal(actor, 'reset passwords');
    checkPassword('new_password', password);
    const row = await this.usable(token);
    const hash = await hashPassword(password);
    return this.em.transactional(async (em) => {
      // Used once, whatever instance or database connection races for it.
      const claimed = await em.nativeUpdate(
        PasswordResetEntity,
        { tokenHash: row.tokenHash, usedAt: null, expiresAt: { $gt: new Date() } },
        { usedAt: new Date() },
      );
      if (claimed !== 1) throw UNUSABLE();
      const memberId = row.member.id;
      const endedGrants = await em.count(AssistantGrantEntity, { member: memberId, revokedAt: null });
      await endCredentials(em, this.deps, memberId, 'password_changed', hash);
      return { memberId, endedGrants };
    });
  }

  private async issue(memberId: string): Promise<PasswordResetLink> {
    const token = newSecret('passwordReset');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000);
    // Reset links are few: those of the member that no longer work go when a new one is made.
    await this.em.nativeDelete(PasswordResetEntity, { member: memberId, expiresAt: { $lte: now } });
    await this.em.insert(PasswordResetEntity, { tokenHash: hashSecret(token), member: memberId, createdAt: now, expiresAt, usedAt: null });
    return { url: `${this.deps.links.publicBaseUrl}${PASSWORD_RESET_PATH}?token=${token}`, expiresAt };
  }

  private async usable(token: string) {
    if (!isWellFormedSecret('passwordReset', token)) throw UNUSABLE();
    const row = await this.em.findOne(PasswordResetEntity, { tokenHash: hashSecret(token) }, { populate: ['member'] });
    if (!row || row.usedAt || row.expiresAt.getTime() <= Date.now()) throw UNUSABLE();
    return row;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
