// The named GraphQL operations behind the member connector: its authorization server (run as
// the internal caller), the member's pages (run as the signed-in member) and its tools (run as
// the assistant acting for the member). Parsed and validated against the schema at start-up.
export const MEMBER_OPERATIONS = /* GraphQL */ `
  fragment MemberApplication on AssistantApplication { id name redirectUris createdAt }
  fragment MemberTokens on AssistantTokens { accessToken refreshToken expiresIn scope }
  fragment MemberGrant on AssistantGrant { id scopes createdAt lastUsedAt active application { ...MemberApplication } }

  mutation OAuthRegisterApplication($input: NewAssistantApplicationInput!) { registerAssistantApplication(input: $input) { ...MemberApplication } }
  query OAuthApplication($id: ID!) { assistantApplication(id: $id) { ...MemberApplication } }
  mutation OAuthExchangeCode($input: AssistantCodeExchangeInput!) { exchangeAssistantCode(input: $input) { ...MemberTokens } }
  mutation OAuthRefresh($input: AssistantRefreshInput!) { refreshAssistantTokens(input: $input) { ...MemberTokens } }
  mutation OAuthRevokeToken($clientId: ID!, $token: String!) { revokeAssistantToken(clientId: $clientId, token: $token) }
  mutation AccountSignIn($email: String!, $password: String!) { signInMember(email: $email, password: $password) { token expiresAt } }

  query AccountMe { account { id name email } }
  query AccountConsent($clientId: ID!) { account { id name email } assistantApplication(id: $clientId) { ...MemberApplication } }
  mutation AccountAuthorize($input: AssistantAuthorizationInput!) { authorizeAssistantApplication(input: $input) { code } }
  query AccountSettings {
    account { id name email }
    accountGrants { ...MemberGrant }
    accountAuditLog(first: 50) { id applicationName tool outcome at }
  }
  mutation AccountRevokeGrant($id: ID!) { accountRevokeGrant(id: $id) { id } }
  mutation AccountChangePassword($currentPassword: String!, $newPassword: String!) {
    accountChangePassword(currentPassword: $currentPassword, newPassword: $newPassword) { token expiresAt }
  }
  mutation AccountSignOutEverywhere { accountSignOutEverywhere { endedGrants } }
  mutation AccountSignOut { accountSignOut }
  query AccountNeed($id: ID!) {
    accountNeed(id: $id) { state reviewUrl need { id title description requiredExpertise remoteAllowed url organization { id name } } }
  }
  mutation AccountPublishNeed($id: ID!) { accountPublishNeed(id: $id) { state need { id url } } }

  query AssistantMyAccount { assistantAccount { id name profileUrl organizations { id name role profileUrl } } }
  query AssistantMyInvitations {
    assistantInvitations { id teamName invitedBy { id name } opportunity { id title url } invitedAt url }
  }
  mutation AssistantDraftNeed($input: AssistantNeedDraftInput!) {
    assistantDraftNeed(input: $input) { state reviewUrl need { id title description requiredExpertise remoteAllowed organization { id name } } }
  }
`;
