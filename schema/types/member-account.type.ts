import type { AccountView, CredentialsReset, OpenedSession } from '../../core/services/member-account.service.ts';
import { builder } from '../builder.ts';
import { NeedReviewRef } from './assistant.type.ts';

// A member's own credentials: sign-in (run by the sign-in page as an internal caller), the
// account pages (the signed-in member) and the CLI (internal callers).

const AccountRef = builder.objectRef<AccountView>('Account').implement({
  description: 'The signed-in member.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The member's id." }),
    name: t.exposeString('name', { description: "The member's display name." }),
    email: t.exposeString('email', { description: 'The email the member signs in with.' }),
  }),
});

export const MemberSessionOpenedRef = builder.objectRef<OpenedSession>('MemberSessionOpened').implement({
  description: 'A new browser session; the token goes into a cookie and is shown this once.',
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The session token: the value of the session cookie. Stored only as a hash.' }),
    memberId: t.exposeID('memberId', { description: 'The member signed in.' }),
    expiresAt: t.expose('expiresAt', { description: 'When the session ends unless the member signs out first.', type: 'DateTime' }),
  }),
});

export const CredentialsResetRef = builder.objectRef<CredentialsReset>('CredentialsReset').implement({
  description: 'Every session and assistant grant of the member ended.',
  fields: (t) => ({
    memberId: t.exposeID('memberId', { description: 'The member whose sessions and grants ended.' }),
    endedGrants: t.exposeInt('endedGrants', { description: 'How many assistant grants ended; their next call fails.' }),
  }),
});

builder.queryFields((t) => ({
  account: t.field({
    description: "The signed-in member's own account.",
    type: AccountRef,
    authScopes: { memberSession: true },
    resolve: (_root, _args, ctx) => ctx.services.accounts.me(ctx.actor),
  }),
  accountNeed: t.field({
    type: NeedReviewRef,
    description: 'A need of one of the signed-in member’s organizations, whatever its state (the review page).',
    authScopes: { memberSession: true },
    args: { id: t.arg.id({ description: "The need's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.getForMember(ctx.actor, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  signInMember: t.field({
    type: MemberSessionOpenedRef,
    description: 'Checks a member’s email and password and opens a browser session. FORBIDDEN when either is wrong.',
    authScopes: { internal: true },
    args: {
      email: t.arg.string({ description: 'The email the member signs in with (any case).', required: true }),
      password: t.arg.string({ description: "The member's password.", required: true }),
    },
    resolve: (_root, { email, password }, ctx) => ctx.services.accounts.signIn(ctx.actor, email, password),
  }),
  setMemberPassword: t.field({
    type: CredentialsResetRef,
    description: 'Sets a member’s password; every session and assistant grant ends.',
    authScopes: { internal: true },
    args: {
      member: t.arg.string({ required: true, description: 'Member id or email.' }),
      password: t.arg.string({ description: 'The new password: at least 10 characters.', required: true }),
    },
    resolve: (_root, { member, password }, ctx) => ctx.services.accounts.setPassword(ctx.actor, member, password),
  }),
  signMemberOutEverywhere: t.field({
    type: CredentialsResetRef,
    description: 'Ends every session and assistant grant of a member.',
    authScopes: { internal: true },
    args: { member: t.arg.string({ required: true, description: 'Member id or email.' }) },
    resolve: (_root, { member }, ctx) => ctx.services.accounts.signOutEverywhereFor(ctx.actor, member),
  }),
  accountChangePassword: t.field({
    type: MemberSessionOpenedRef,
    description: 'Changes the signed-in member’s password: every session and grant ends; this browser gets a new session.',
    authScopes: { memberSession: true },
    args: {
      currentPassword: t.arg.string({ description: 'The password in use, checked first.', required: true }),
      newPassword: t.arg.string({ description: 'The new password: at least 10 characters.', required: true }),
    },
    resolve: (_root, { currentPassword, newPassword }, ctx) =>
      ctx.services.accounts.changePassword(ctx.actor, currentPassword, newPassword),
  }),
  accountSignOutEverywhere: t.field({
    description: 'Ends every session (this one included) and assistant grant of the signed-in member.',
    type: CredentialsResetRef,
    authScopes: { memberSession: true },
    resolve: (_root, _args, ctx) => ctx.services.accounts.signOutEverywhere(ctx.actor),
  }),
  accountSignOut: t.boolean({
    description: "Ends this browser's session; true when it was open.",
    authScopes: { memberSession: true },
    resolve: (_root, _args, ctx) => ctx.services.accounts.signOut(ctx.actor),
  }),
  accountPublishNeed: t.field({
    type: NeedReviewRef,
    description:
      'The signed-in member publishes a draft of their organization (need.created), as reviewed: INVALID_STATE unless it is still a draft at that revision. Never available to an assistant.',
    authScopes: { memberSession: true },
    args: {
      id: t.arg.id({ description: "The draft's id.", required: true }),
      revision: t.arg.string({ required: true, description: 'NeedReview.revision as the member reviewed it.' }),
    },
    resolve: (_root, { id, revision }, ctx) => ctx.services.needs.publishForMember(ctx.actor, String(id), revision),
  }),
  accountDiscardNeed: t.boolean({
    description:
      'The signed-in member discards (deletes) a draft of their organization: INVALID_STATE unless it is still a draft, FORBIDDEN for a draft prepared for another member. Nothing was public, so no signal. Never available to an assistant.',
    authScopes: { memberSession: true },
    args: { id: t.arg.id({ description: "The draft's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.needs.discardForMember(ctx.actor, String(id)),
  }),
}));
