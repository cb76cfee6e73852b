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
    name: t.exposeString('name', {
      description: "The name the application declared at registration; shown to the member as the application's claim, not as verified.",
    }),
    redirectUris: t.exposeStringList('redirectUris', { description: 'Where authorization codes may be sent back, exactly as registered.' }),
    createdAt: t.expose('createdAt', { description: 'When the application registered.', type: 'DateTime' }),
  }),
});

export const AssistantGrantRef = builder.objectRef<GrantView>('AssistantGrant').implement({
  description: 'A member’s consent to one application (a connected application).',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The grant's id." }),
    memberId: t.exposeID('memberId', { description: 'The member who consented.' }),
    application: t.expose('application', { description: 'The application the member connected.', type: AssistantApplicationRef }),
    scopes: t.exposeStringList('scopes', { description: 'Abilities granted: account:read, invitations:read, needs:draft.' }),
    createdAt: t.expose('createdAt', { description: 'When the member consented.', type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', {
      description: 'When the application last called a tool with this grant; null if never.',
      type: 'DateTime',
      nullable: true,
    }),
    active: t.exposeBoolean('active', { description: 'False once revoked, or once the member changed password or signed out everywhere.' }),
    revokedAt: t.expose('revokedAt', { description: 'When the grant ended; null while active.', type: 'DateTime', nullable: true }),
    revokedReason: t.exposeString('revokedReason', {
      description: 'Why the grant ended, such as revoked; null while active.',
      nullable: true,
    }),
  }),
});

export const AssistantAuditEntryRef = builder.objectRef<AuditEntryView>('AssistantAuditEntry').implement({
  description: 'One tool call an application made for a member.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The entry's id." }),
    memberId: t.exposeID('memberId', { description: 'The member the call was made for.' }),
    grantId: t.exposeID('grantId', { description: 'The grant the call was made under.' }),
    applicationId: t.exposeID('applicationId', { description: "The application's client_id." }),
    applicationName: t.exposeString('applicationName', { description: "The application's self-declared name at the time." }),
    tool: t.exposeString('tool', { description: 'The member connector tool called: my_account, my_invitations or draft_need.' }),
    outcome: t.exposeString('outcome', { description: 'ok, or the error code the call ended with.' }),
    at: t.expose('at', { description: 'When the call was made.', type: 'DateTime' }),
  }),
});

const AssistantTokensRef = builder.objectRef<IssuedTokens>('AssistantTokens').implement({
  description: 'A fresh access and refresh token pair, shown this once.',
  fields: (t) => ({
    accessToken: t.exposeString('accessToken', { description: 'Bearer token for the member connector. Stored only as a hash.' }),
    refreshToken: t.exposeString('refreshToken', {
      description: 'Single-use token for a new pair; a second use ends the grant. Stored only as a hash.',
    }),
    expiresIn: t.exposeInt('expiresIn', { description: 'Seconds the access token lives.' }),
    scope: t.string({ description: 'The granted abilities, space-separated (OAuth scope).', resolve: (r) => r.scopes.join(' ') }),
    grantId: t.exposeID('grantId', { description: 'The grant the tokens belong to.' }),
  }),
});

const AuthorizationCodeRef = builder.objectRef<{ code: string; expiresAt: Date }>('AuthorizationCodeIssued').implement({
  description: 'A single-use authorization code, for the application to exchange with its PKCE verifier.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The code itself, sent to the redirect address. Stored only as a hash.' }),
    expiresAt: t.expose('expiresAt', { description: 'When the code can no longer be exchanged.', type: 'DateTime' }),
  }),
});

const NewAssistantApplicationInput = builder.inputType('NewAssistantApplicationInput', {
  description: 'A dynamic client registration request (RFC 7591).',
  fields: (t) => ({
    name: t.string({ description: "The application's self-declared name (client_name)." }),
    redirectUris: t.stringList({ description: 'Where authorization codes may be sent back: https, or http on loopback.', required: true }),
  }),
});

const AuthorizationInput = builder.inputType('AssistantAuthorizationInput', {
  description: 'The authorization request the member approved.',
  fields: (t) => ({
    clientId: t.id({ description: "The application's client_id.", required: true }),
    redirectUri: t.string({ description: 'The redirect address of the request; one the application registered.', required: true }),
    scopes: t.stringList({ required: true, description: 'Empty: every ability.' }),
    codeChallenge: t.string({ required: true, description: 'PKCE S256 challenge.' }),
    resource: t.string({ description: 'RFC 8707 resource; the member connector’s address when absent.' }),
  }),
});

const CodeExchangeInput = builder.inputType('AssistantCodeExchangeInput', {
  description: 'A token request of the authorization code grant, with PKCE.',
  fields: (t) => ({
    clientId: t.id({ description: "The application's client_id.", required: true }),
    code: t.string({ description: 'The authorization code received at the redirect address.', required: true }),
    codeVerifier: t.string({
      description: 'The PKCE verifier whose S256 hash is the challenge of the authorization request.',
      required: true,
    }),
    redirectUri: t.string({ description: 'The redirect address of the authorization request, when it named one.' }),
    resource: t.string({ description: 'RFC 8707 resource; must match the one of the authorization request.' }),
  }),
});

const RefreshInput = builder.inputType('AssistantRefreshInput', {
  description: 'A token request of the refresh token grant.',
  fields: (t) => ({
    clientId: t.id({ description: "The application's client_id.", required: true }),
    refreshToken: t.string({ description: 'The refresh token of the current pair.', required: true }),
    scopes: t.stringList({ description: "Abilities to keep, a subset of the grant's; all of them when omitted." }),
    resource: t.string({ description: "RFC 8707 resource; the member connector's address when absent." }),
  }),
});

builder.queryFields((t) => ({
  assistantApplication: t.field({
    description: 'A registered application, by client_id; NOT_FOUND when unknown.',
    type: AssistantApplicationRef,
    authScopes: { internal: true, memberSession: true },
    args: { id: t.arg.id({ description: "The application's client_id.", required: true }) },
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
    args: { first: t.arg.int({ description: 'How many entries, 1 to 200; 50 when omitted.' }) },
    resolve: (_root, { first }, ctx) => ctx.services.assistantGrants.auditLog(ctx.actor, { first }),
  }),
}));

builder.mutationFields((t) => ({
  registerAssistantApplication: t.field({
    type: AssistantApplicationRef,
    description: 'Dynamic client registration (behind /register). Public clients only.',
    authScopes: { internal: true },
    args: {
      input: t.arg({ description: "The application's name and redirect addresses.", type: NewAssistantApplicationInput, required: true }),
    },
    resolve: (_root, { input }, ctx) =>
      ctx.services.assistantAccess.registerApplication(ctx.actor, { name: input.name, redirectUris: input.redirectUris }),
  }),
  authorizeAssistantApplication: t.field({
    type: AuthorizationCodeRef,
    description: 'The signed-in member approves an application: a single-use authorization code.',
    authScopes: { memberSession: true },
    args: {
      input: t.arg({ description: 'The authorization request as the member approved it.', type: AuthorizationInput, required: true }),
    },
    resolve: (_root, { input }, ctx) => ctx.services.assistantAccess.authorize(ctx.actor, { ...input, clientId: String(input.clientId) }),
  }),
  exchangeAssistantCode: t.field({
    type: AssistantTokensRef,
    description: 'Authorization code grant with PKCE (behind /token).',
    authScopes: { internal: true },
    args: {
      input: t.arg({
        description: "The code, its PKCE verifier and the application's client_id.",
        type: CodeExchangeInput,
        required: true,
      }),
    },
    resolve: (_root, { input }, ctx) =>
      ctx.services.assistantAccess.exchangeCode(ctx.actor, { ...input, clientId: String(input.clientId) }),
  }),
  refreshAssistantTokens: t.field({
    type: AssistantTokensRef,
    description: 'Refresh token grant with rotation (behind /token). A reused refresh token ends the grant.',
    authScopes: { internal: true },
    args: { input: t.arg({ description: "The refresh token and the application's client_id.", type: RefreshInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.assistantAccess.refresh(ctx.actor, { ...input, clientId: String(input.clientId) }),
  }),
  revokeAssistantToken: t.boolean({
    description: 'RFC 7009 (behind /revoke): false when the token is unknown to this application.',
    authScopes: { internal: true },
    args: {
      clientId: t.arg.id({ description: 'The client_id of the application revoking its token.', required: true }),
      token: t.arg.string({ description: 'An access or refresh token of that application.', required: true }),
    },
    resolve: (_root, { clientId, token }, ctx) =>
      ctx.services.assistantAccess.revokeToken(ctx.actor, { clientId: String(clientId), token }),
  }),
  revokeAssistantGrant: t.field({
    type: AssistantGrantRef,
    description: 'Ends a grant: the next call with its tokens is refused.',
    authScopes: { internal: true },
    args: { id: t.arg.id({ description: "The grant's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.assistantGrants.revoke(ctx.actor, String(id)),
  }),
  accountRevokeGrant: t.field({
    type: AssistantGrantRef,
    description: 'The signed-in member disconnects one of their applications.',
    authScopes: { memberSession: true },
    args: { id: t.arg.id({ description: "The grant's id; one of the signed-in member's.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.assistantGrants.revoke(ctx.actor, String(id)),
  }),
}));
