import type { AssistantApplicationView, IssuedTokens } from '../../core/services/assistant-access.service.ts';
import type { AuditEntryView, GrantView } from '../../core/services/assistant-grant.service.ts';
import { builder } from '../builder.ts';

// The member connector's authorization server and the member's connected applications.
// Codes and tokens go out once, to the connector; grants and the audit log are readable by the
// member (account pages) and by internal callers.

export const AssistantApplicationRef = builder.objectRef<AssistantApplicationView>('AssistantApplication').implement({
  description: 'An application registered by dynamic client registration. Its name is self-declared.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The OAuth client_id.' }),
    name: t.exposeString('name'),
    redirectUris: t.exposeStringList('redirectUris'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const AssistantGrantRef = builder.objectRef<GrantView>('AssistantGrant').implement({
  description: 'A member’s consent to one application (a connected application).',
  fields: (t) => ({
    id: t.exposeID('id'),
    memberId: t.exposeID('memberId'),
    application: t.expose('application', { type: AssistantApplicationRef }),
    scopes: t.exposeStringList('scopes', { description: 'Abilities granted: account:read, invitations:read, needs:draft.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    active: t.exposeBoolean('active', { description: 'False once revoked, or once the member changed password or signed out everywhere.' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    revokedReason: t.exposeString('revokedReason', { nullable: true }),
  }),
});

export const AssistantAuditEntryRef = builder.objectRef<AuditEntryView>('AssistantAuditEntry').implement({
  description: 'One tool call an application made for a member.',
  fields: (t) => ({
    id: t.exposeID('id'),
    memberId: t.exposeID('memberId'),
    grantId: t.exposeID('grantId'),
    applicationId: t.exposeID('applicationId'),
    applicationName: t.exposeString('applicationName'),
    tool: t.exposeString('tool'),
    outcome: t.exposeString('outcome', { description: 'ok, or the error code the call ended with.' }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

const AssistantTokensRef = builder.objectRef<IssuedTokens>('AssistantTokens').implement({
  description: 'A fresh access and refresh token pair, shown this once.',
  fields: (t) => ({
    accessToken: t.exposeString('accessToken'),
    refreshToken: t.exposeString('refreshToken'),
    expiresIn: t.exposeInt('expiresIn', { description: 'Seconds the access token lives.' }),
    scope: t.string({ resolve: (r) => r.scopes.join(' ') }),
    grantId: t.exposeID('grantId'),
  }),
});

const AuthorizationCodeRef = builder.objectRef<{ code: string; expiresAt: Date }>('AuthorizationCodeIssued').implement({
  fields: (t) => ({ code: t.exposeString('code'), expiresAt: t.expose('expiresAt', { type: 'DateTime' }) }),
});

const NewAssistantApplicationInput = builder.inputType('NewAssistantApplicationInput', {
  fields: (t) => ({ name: t.string(), redirectUris: t.stringList({ required: true }) }),
});

const AuthorizationInput = builder.inputType('AssistantAuthorizationInput', {
  description: 'The authorization request the member approved.',
  fields: (t) => ({
    clientId: t.id({ required: true }),
    redirectUri: t.string({ required: true }),
    scopes: t.stringList({ required: true, description: 'Empty: every ability.' }),
    codeChallenge: t.string({ required: true, description: 'PKCE S256 challenge.' }),
    resource: t.string({ description: 'RFC 8707 resource; the member connector’s address when absent.' }),
  }),
});

const CodeExchangeInput = builder.inputType('AssistantCodeExchangeInput', {
  fields: (t) => ({
    clientId: t.id({ required: true }),
    code: t.string({ required: true }),
    codeVerifier: t.string({ required: true }),
    redirectUri: t.string(),
    resource: t.string(),
  }),
});

const RefreshInput = builder.inputType('AssistantRefreshInput', {
  fields: (t) => ({
    clientId: t.id({ required: true }),
    refreshToken: t.string({ required: true }),
    scopes: t.stringList(),
    resource: t.string(),
  }),
});

builder.queryFields((t) => ({
  assistantApplication: t.field({
    type: AssistantApplicationRef,
    authScopes: { internal: true, memberSession: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.assistantAccess.application(ctx.actor, String(id)),
  }),
  assistantGrants: t.field({
    type: [AssistantGrantRef],
    description: 'Every grant of a member, ended ones included, newest first.',
    authScopes: { internal: true },
    args: { member: t.arg.string({ required: true, description: 'Member id or email.' }) },
    resolve: (_root, { member }, ctx) => ctx.services.assistantGrants.list(ctx.actor, member),
  }),
  assistantAuditLog: t.field({
    type: [AssistantAuditEntryRef],
    description: 'Tool calls made for a member, newest first.',
    authScopes: { internal: true },
    args: {
      member: t.arg.string({ required: true, description: 'Member id or email.' }),
      first: t.arg.int({ description: '1 to 200, default 50.' }),
    },
    resolve: (_root, { member, first }, ctx) => ctx.services.assistantGrants.auditLog(ctx.actor, { member, first }),
  }),
  accountGrants: t.field({
    type: [AssistantGrantRef],
    description: 'The signed-in member’s connected applications.',
    authScopes: { memberSession: true },
    resolve: (_root, _args, ctx) => ctx.services.assistantGrants.list(ctx.actor),
  }),
  accountAuditLog: t.field({
    type: [AssistantAuditEntryRef],
    description: 'What applications did for the signed-in member, newest first.',
    authScopes: { memberSession: true },
    args: { first: t.arg.int() },
    resolve: (_root, { first }, ctx) => ctx.services.assistantGrants.auditLog(ctx.actor, { first }),
  }),
}));

builder.mutationFields((t) => ({
  registerAssistantApplication: t.field({
    type: AssistantApplicationRef,
    description: 'Dynamic client registration (behind /register). Public clients only.',
    authScopes: { internal: true },
    args: { input: t.arg({ type: NewAssistantApplicationInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.assistantAccess.registerApplication(ctx.actor, { name: input.name, redirectUris: input.redirectUris }),
  }),
  authorizeAssistantApplication: t.field({
    type: AuthorizationCodeRef,
    description: 'The signed-in member approves an application: a single-use authorization code.',
    authScopes: { memberSession: true },
    args: { input: t.arg({ type: AuthorizationInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.assistantAccess.authorize(ctx.actor, { ...input, clientId: String(input.clientId) }),
  }),
  exchangeAssistantCode: t.field({
    type: AssistantTokensRef,
    description: 'Authorization code grant with PKCE (behind /token).',
    authScopes: { internal: true },
    args: { input: t.arg({ type: CodeExchangeInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.assistantAccess.exchangeCode(ctx.actor, { ...input, clientId: String(input.clientId) }),
  }),
  refreshAssistantTokens: t.field({
    type: AssistantTokensRef,
    description: 'Refresh token grant with rotation (behind /token). A reused refresh token ends the grant.',
    authScopes: { internal: true },
    args: { input: t.arg({ type: RefreshInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.assistantAccess.refresh(ctx.actor, { ...input, clientId: String(input.clientId) }),
  }),
  revokeAssistantToken: t.boolean({
    description: 'RFC 7009 (behind /revoke): false when the token is unknown to this application.',
    authScopes: { internal: true },
    args: { clientId: t.arg.id({ required: true }), token: t.arg.string({ required: true }) },
    resolve: (_root, { clientId, token }, ctx) =>
      ctx.services.assistantAccess.revokeToken(ctx.actor, { clientId: String(clientId), token }),
  }),
  revokeAssistantGrant: t.field({
    type: AssistantGrantRef,
    description: 'Ends a grant: the next call with its tokens is refused.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.assistantGrants.revoke(ctx.actor, String(id)),
  }),
  accountRevokeGrant: t.field({
    type: AssistantGrantRef,
    description: 'The signed-in member disconnects one of their applications.',
    authScopes: { memberSession: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.assistantGrants.revoke(ctx.actor, String(id)),
  }),
}));
