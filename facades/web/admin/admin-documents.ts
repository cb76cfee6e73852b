import { organization } from '../../representations/resources.ts';

// The named GraphQL operations behind the administration pages, run as the signed-in member
// (the services check that member administers the organization). Parsed and validated at start-up.
// The profile is the public one, selected as the REST API selects it (representations/resources.ts).
export const ADMIN_OPERATIONS = /* GraphQL */ `
  fragment AdminProfile on Organization { ${organization.selection} }
  fragment AdminKey on ApiKey { id name prefix scopes createdAt expiresAt lastUsedAt revokedAt rolledAt status }
  fragment AdminDestination on WebhookDestination {
    id organizationId name description format url receiverUrl language kinds scope connectedVia status disabledReason secret previousSecretExpiresAt createdAt
    lastDayDeliveries { finished succeeded }
  }
  fragment AdminDelivery on WebhookDelivery {
    id organizationId destinationId eventId type test status attemptCount nextAttemptAt lastStatusCode lastError lastAttemptAt deliveredAt createdAt
  }

  query AdminAccount { account { id name email } accountOrganizations { id name role plan } }

  query AdminOrganization($id: ID!) {
    account { id name email }
    organizationAdministration(id: $id) {
      id plan listed complete
      allowances { activeKeys monthlyQuota destinations retainedDeliveries manualRetry }
      profile { ...AdminProfile }
    }
  }
  query AdminProfilePreview($id: ID!, $input: OrganizationPublicProfileChanges!) {
    organizationProfilePreview(id: $id, input: $input) { organization { ...AdminProfile } problems { field message } }
  }
  mutation AdminUpdateProfile($id: ID!, $input: OrganizationPublicProfileChanges!) {
    updateOrganizationProfile(id: $id, input: $input) { organization { id } problems { field message } }
  }

  query AdminKeys($id: ID!) { apiKeys(organizationId: $id) { ...AdminKey } }
  mutation AdminCreateKey($input: NewApiKeyInput!) { createApiKey(input: $input) { key apiKey { ...AdminKey } } }
  mutation AdminRevokeKey($id: ID!) { revokeApiKey(id: $id) { ...AdminKey } }
  mutation AdminRollKey($id: ID!, $overlap: KeyRollOverlap!) { rollApiKey(id: $id, overlap: $overlap) { key apiKey { ...AdminKey } rolled { ...AdminKey } } }

  query AdminApplications($id: ID!) {
    organizationAssistantGrants(organizationId: $id) {
      memberName memberEmail grant { id scopes createdAt lastUsedAt application { id name } }
    }
  }
  mutation AdminRevokeApplication($organizationId: ID!, $id: ID!) { revokeOrganizationAssistantGrant(organizationId: $organizationId, id: $id) { id active } }

  query AdminPlanUse($id: ID!) {
    organizationAdministration(id: $id) { id usage { quota { used } } }
    apiKeys(organizationId: $id) { id status }
    webhookDestinations(organizationId: $id) { id }
  }

  query AdminUsage($id: ID!, $month: String) {
    organizationAdministration(id: $id) {
      id
      usage(month: $month) {
        month current months
        answers { keyId name prefix answer calls }
        quota { limit used remaining resetsAt }
        rateWindows { keyId name prefix limit used remaining resetsAt }
        days { day calls }
      }
    }
  }

  query AdminDestinations($id: ID!) { webhookDestinations(organizationId: $id) { ...AdminDestination } }
  query AdminDestination($id: ID!, $organizationId: ID!, $first: Int!, $after: String, $status: String, $type: String) {
    webhookDestination(id: $id) { ...AdminDestination }
    webhookDeliveries(organizationId: $organizationId, destinationId: $id, first: $first, after: $after, status: $status, type: $type) {
      edges { node { ...AdminDelivery } }
      pageInfo { hasNextPage endCursor }
    }
  }
  mutation AdminCreateDestination($input: NewWebhookDestinationInput!) {
    createWebhookDestination(input: $input) { secret destination { ...AdminDestination } }
  }
  mutation AdminBeginTeamChat($input: TeamChatConnectionInput!) { beginTeamChatConnection(input: $input) { state expiresAt } }
  mutation AdminDeleteDestination($id: ID!) { deleteWebhookDestination(id: $id) { id } }
  mutation AdminRotateSecret($id: ID!, $overlap: SecretOverlap) {
    rotateWebhookSecret(id: $id, overlap: $overlap) { secret destination { ...AdminDestination } }
  }
  mutation AdminRevealSecret($id: ID!, $password: String!) { revealWebhookSecret(id: $id, password: $password) { secret destination { ...AdminDestination } } }
  mutation AdminEnableDestination($id: ID!) { enableWebhookDestination(id: $id) { id status } }
  mutation AdminPauseDestination($id: ID!) { pauseWebhookDestination(id: $id) { id status } }
  mutation AdminUpdateDestination($id: ID!, $input: WebhookDestinationChangesInput!) {
    updateWebhookDestination(id: $id, input: $input) { ...AdminDestination }
  }
  mutation AdminSendTest($id: ID!, $kind: String) { sendTestSignal(destinationId: $id, kind: $kind) { ...AdminDelivery } }
  query AdminDelivery($id: ID!) {
    webhookDelivery(id: $id) {
      ...AdminDelivery
      body
      attempts { number at durationMs statusCode error responseExcerpt requestHeaders { name value } responseHeaders { name value } }
    }
  }
  query AdminDeliveries(
    $organizationId: ID!, $first: Int!, $after: String, $status: String, $type: String, $from: DateTime, $to: DateTime, $search: String
  ) {
    webhookDestinations(organizationId: $organizationId) { ...AdminDestination }
    webhookDeliveries(
      organizationId: $organizationId, first: $first, after: $after, status: $status, type: $type, from: $from, to: $to, search: $search
    ) {
      edges { node { ...AdminDelivery } }
      pageInfo { hasNextPage endCursor }
    }
  }
  query AdminDeliverySummary($id: ID!) { webhookDelivery(id: $id) { ...AdminDelivery } }
  mutation AdminRetryDelivery($id: ID!) { retryWebhookDelivery(id: $id) { ...AdminDelivery } }

  query AdminMembers($id: ID!) {
    organizationMembers(organizationId: $id) { members { id name email role joinedAt } invitations { id email role createdAt expiresAt } }
  }
  mutation AdminInviteMember($id: ID!, $email: String!, $role: String!) { inviteMember(organizationId: $id, email: $email, role: $role) { id email } }
  mutation AdminWithdrawInvitation($id: ID!, $invitation: ID!) { withdrawInvitation(organizationId: $id, id: $invitation) { id email } }
  mutation AdminChangeMemberRole($id: ID!, $member: ID!, $role: String!) {
    changeMemberRole(organizationId: $id, memberId: $member, role: $role) { id name role }
  }
  mutation AdminRemoveMember($id: ID!, $member: ID!) { removeMember(organizationId: $id, memberId: $member) { id name } }
`;
