import type { PasswordResetLink, PasswordResetTarget } from '../../core/services/password-reset.service.ts';
import { builder } from '../builder.ts';
import { CredentialsResetRef } from './member-account.type.ts';

// Password reset by mailed link: the sign-in page's "Forgot password?" and the reset page run
// these as the internal caller; the CLI hands an operator a link.

const PasswordResetLinkRef = builder.objectRef<PasswordResetLink>('PasswordResetLink').implement({
  description: 'A single-use link that lets a member choose a new password.',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'The reset page with the link’s token; shown this once, stored only as a hash.' }),
    expiresAt: t.expose('expiresAt', { description: 'When the link stops working (30 minutes after it was made).', type: 'DateTime' }),
  }),
});

const PasswordResetTargetRef = builder.objectRef<PasswordResetTarget>('PasswordResetTarget').implement({
  description: 'The account a reset link that still works is for.',
  fields: (t) => ({
    email: t.exposeString('email', { description: 'The email of the member whose password the link sets.' }),
    expiresAt: t.expose('expiresAt', { description: 'When the link stops working.', type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  passwordResetTarget: t.field({
    type: PasswordResetTargetRef,
    description: 'The account a reset link is for; INVALID_STATE when the link was used, expired or is unknown.',
    authScopes: { internal: true },
    args: { token: t.arg.string({ required: true, description: 'The token of the reset link.' }) },
    resolve: (_root, { token }, ctx) => ctx.services.passwordResets.target(ctx.actor, token),
  }),
}));

builder.mutationFields((t) => ({
  requestPasswordReset: t.boolean({
    description: 'Mails a reset link when a member has this email. Always true: the answer never tells whether an account exists.',
    authScopes: { internal: true },
    args: { email: t.arg.string({ required: true, description: 'The email the member signs in with (any case).' }) },
    resolve: (_root, { email }, ctx) => ctx.services.passwordResets.request(ctx.actor, email),
  }),
  createPasswordResetLink: t.field({
    type: PasswordResetLinkRef,
    description: 'A reset link for a member, for an operator to hand over; NOT_FOUND for an unknown member.',
    authScopes: { internal: true },
    args: { member: t.arg.string({ required: true, description: 'Member id or email.' }) },
    resolve: (_root, { member }, ctx) => ctx.services.passwordResets.link(ctx.actor, member),
  }),
  resetPassword: t.field({
    type: CredentialsResetRef,
    description:
      'Sets the password a reset link is for, once: every session and assistant grant of the member ends. INVALID_STATE when the link no longer works.',
    authScopes: { internal: true },
    args: {
      token: t.arg.string({ required: true, description: 'The token of the reset link.' }),
      newPassword: t.arg.string({ required: true, description: 'The new password: at least 10 characters.' }),
    },
    resolve: (_root, { token, newPassword }, ctx) => ctx.services.passwordResets.reset(ctx.actor, token, newPassword),
  }),
}));
