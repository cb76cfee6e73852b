// The named GraphQL operations behind the member's sign-in (run as the internal caller), consent
// and account pages (run as the signed-in member). Parsed and validated against the schema at
// start-up.
export const ACCOUNT_OPERATIONS = /* GraphQL */ `
  fragment AccountApplication on AssistantApplication { id name redirectUris createdAt }
  fragment AccountGrant on AssistantGrant { id scopes createdAt lastUsedAt active application { ...AccountApplication } }

  mutation AccountSignIn($email: String!, $password: String!) { signInMember(email: $email, password: $password) { token expiresAt } }

  query AccountApplicationName($clientId: ID!) { assistantApplication(id: $clientId) { id name } }
  query AccountConsent($clientId: ID!) { account { id name email } assistantApplication(id: $clientId) { ...AccountApplication } }
  mutation AccountAuthorize($input: AssistantAuthorizationInput!) { authorizeAssistantApplication(input: $input) { code } }
  query AccountSettings {
    account { id name email }
    accountOrganizations { id role }
    accountGrants { ...AccountGrant }
    accountAuditLog(first: 50) { id applicationName tool outcome at }
  }
  query AccountDrafts { account { id name } accountDrafts { id title organizationName createdAt reviewUrl } }
  mutation AccountRevokeGrant($id: ID!) { accountRevokeGrant(id: $id) { id } }
  mutation AccountChangePassword($currentPassword: String!, $newPassword: String!) {
    accountChangePassword(currentPassword: $currentPassword, newPassword: $newPassword) { token expiresAt }
  }
  mutation AccountSignOutEverywhere { accountSignOutEverywhere { endedGrants } }
  mutation AccountSignOut { accountSignOut }
  query AccountNeed($id: ID!) {
    accountNeed(id: $id) { state reviewUrl revision discardable need { id title description requiredExpertise remoteAllowed url organization { id name } } }
  }
  mutation AccountPublishNeed($id: ID!, $revision: String!) { accountPublishNeed(id: $id, revision: $revision) { state need { id url } } }
  mutation AccountDiscardNeed($id: ID!) { accountDiscardNeed(id: $id) }
  query AccountTeamInvitation($id: ID!) {
    account { id name }
    accountTeamInvitation(id: $id) { id teamName invitedBy { id name } opportunity { id title url } invitedAt status }
  }
  mutation AccountAcceptTeamInvitation($id: ID!) { accountAcceptTeamInvitation(id: $id) { id status } }
  mutation AccountRefuseTeamInvitation($id: ID!) { accountRefuseTeamInvitation(id: $id) { id status } }

  mutation AccountRequestPasswordReset($email: String!) { requestPasswordReset(email: $email) }
  query AccountPasswordResetTarget($token: String!) { passwordResetTarget(token: $token) { email expiresAt } }
  fragment AccountInvitationView on Invitation { organizationId organizationName email role expiresAt accountExists }
  query AccountInvitation($token: String!) { invitation(token: $token) { ...AccountInvitationView } }
  query AccountInvitationSignedIn($token: String!) { account { id name email } invitation(token: $token) { ...AccountInvitationView } }
  mutation AccountAcceptInvitationWithNewAccount($token: String!, $name: String!, $password: String!) {
    acceptInvitationWithNewAccount(token: $token, name: $name, password: $password) { token expiresAt }
  }
  mutation AccountAcceptInvitation($token: String!) { acceptInvitation(token: $token) { organizationId organizationName role } }
  mutation AccountResetPassword($token: String!, $newPassword: String!) { resetPassword(token: $token, newPassword: $newPassword) { memberId } }
`;
