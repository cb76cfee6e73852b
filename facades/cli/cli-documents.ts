// The named GraphQL operations behind the admin CLI. `npm run codegen` turns them into the typed
// documents of facades/generated/cli.ts, which the CLI runs (facades/cli/runtime.ts).
export const CLI_OPERATIONS = /* GraphQL */ `
  fragment CliOrganization on Organization {
    id name plan listed demo complete description website logoUrl sectors capabilities networks profileUrl createdAt updatedAt
    place { city region country }
    partnerPayment { confirmedRatePercent partnersCount }
    proofs { completedPacks references certifications }
    allowances { activeKeys monthlyQuota destinations retainedDeliveries manualRetry }
  }
  fragment CliNeed on Opportunity {
    id title description requiredExpertise remoteAllowed url publishedAt updatedAt deadline
    place { city region country }
    organization { id name }
    admin { state discreet demo version withdrawnAt }
  }
  fragment CliEvent on Event {
    id title description startsAt endsAt timezone online url updatedAt
    place { city region country }
    host { id name }
    admin { status demo version cancelledAt }
  }
  fragment CliApiKey on ApiKey { id organizationId name prefix scopes createdAt expiresAt lastUsedAt revokedAt rolledAt status }
  fragment CliDestination on WebhookDestination {
    id organizationId name description format url language kinds scope connectedVia status disabledReason secret previousSecretExpiresAt createdAt
  }
  fragment CliDelivery on WebhookDelivery {
    id destinationId organizationId eventId type test status attemptCount nextAttemptAt lastStatusCode lastError lastAttemptAt deliveredAt createdAt
  }
  fragment CliMember on Member { id email name createdAt memberships { organizationId role } }

  mutation CliCreateOrganization($input: CreateOrganizationInput!) { createOrganization(input: $input) { ...CliOrganization } }
  mutation CliUpdateOrganization($id: ID!, $input: OrganizationProfileChanges!) { updateOrganization(id: $id, input: $input) { ...CliOrganization } }
  query CliOrganizations($after: String) {
    organizations(first: 50, after: $after) { edges { node { ...CliOrganization } } pageInfo { hasNextPage endCursor } }
  }
  query CliOrganization($id: ID!) { organization(id: $id) { ...CliOrganization } }

  mutation CliCreateApiKey($input: NewApiKeyInput!) { createApiKey(input: $input) { key apiKey { ...CliApiKey } } }
  mutation CliRevokeApiKey($id: ID!) { revokeApiKey(id: $id) { ...CliApiKey } }
  mutation CliRollApiKey($id: ID!, $overlap: KeyRollOverlap!) { rollApiKey(id: $id, overlap: $overlap) { key apiKey { ...CliApiKey } rolled { ...CliApiKey } } }
  query CliApiKeys($organizationId: ID!) { apiKeys(organizationId: $organizationId) { ...CliApiKey } }

  mutation CliPublishNeed($input: NewNeedInput!) { publishNeed(input: $input) { ...CliNeed } }
  mutation CliCreateNeedDraft($input: NewNeedInput!) { createNeedDraft(input: $input) { ...CliNeed } }
  mutation CliPublishNeedDraft($id: ID!) { publishNeedDraft(id: $id) { ...CliNeed } }
  mutation CliUpdateNeed($id: ID!, $input: NeedChangesInput!) { updateNeed(id: $id, input: $input) { ...CliNeed } }
  mutation CliWithdrawNeed($id: ID!) { withdrawNeed(id: $id) { ...CliNeed } }
  mutation CliMakeNeedPrivate($id: ID!) { makeNeedPrivate(id: $id) { ...CliNeed } }
  query CliNeed($id: ID!) { need(id: $id) { ...CliNeed } }
  query CliNeeds($organizationId: ID, $state: NeedState, $after: String) {
    needs(first: 50, organizationId: $organizationId, state: $state, after: $after) { edges { node { ...CliNeed } } pageInfo { hasNextPage endCursor } }
  }

  mutation CliCreateEvent($input: NewEventInput!) { createEvent(input: $input) { ...CliEvent } }
  mutation CliUpdateEvent($id: ID!, $input: EventChangesInput!) { updateEvent(id: $id, input: $input) { ...CliEvent } }
  mutation CliCancelEvent($id: ID!) { cancelEvent(id: $id) { ...CliEvent } }
  query CliEvent($id: ID!) { anyEvent(id: $id) { ...CliEvent } }

  mutation CliCreateMember($input: NewMemberInput!) { createMember(input: $input) { ...CliMember } }
  query CliMembers($organizationId: ID!) { members(organizationId: $organizationId) { ...CliMember } }
  mutation CliSetMemberPassword($member: String!, $password: String!) { setMemberPassword(member: $member, password: $password) { memberId endedGrants } }
  mutation CliSignMemberOutEverywhere($member: String!) { signMemberOutEverywhere(member: $member) { memberId endedGrants } }
  mutation CliPasswordResetLink($member: String!) { createPasswordResetLink(member: $member) { url expiresAt } }

  fragment CliGrant on AssistantGrant {
    id memberId scopes createdAt lastUsedAt active revokedAt revokedReason application { id name redirectUris }
  }
  query CliGrants($member: String!) { assistantGrants(member: $member) { ...CliGrant } }
  mutation CliRevokeGrant($id: ID!) { revokeAssistantGrant(id: $id) { ...CliGrant } }

  mutation CliCreateDestination($input: NewWebhookDestinationInput!) {
    createWebhookDestination(input: $input) { secret destination { ...CliDestination } }
  }
  query CliDestinations($organizationId: ID!) { webhookDestinations(organizationId: $organizationId) { ...CliDestination } }
  mutation CliDeleteDestination($id: ID!) { deleteWebhookDestination(id: $id) { ...CliDestination } }
  mutation CliRotateSecret($id: ID!, $overlap: SecretOverlap) { rotateWebhookSecret(id: $id, overlap: $overlap) { secret destination { ...CliDestination } } }
  mutation CliEnableDestination($id: ID!) { enableWebhookDestination(id: $id) { ...CliDestination } }
  mutation CliPauseDestination($id: ID!) { pauseWebhookDestination(id: $id) { ...CliDestination } }
  mutation CliResumeDestination($id: ID!) { resumeWebhookDestination(id: $id) { ...CliDestination } }
  mutation CliUpdateDestination($id: ID!, $input: WebhookDestinationChangesInput!) { updateWebhookDestination(id: $id, input: $input) { ...CliDestination } }
  mutation CliSendTestSignal($destinationId: ID!, $kind: String) { sendTestSignal(destinationId: $destinationId, kind: $kind) { ...CliDelivery } }
  query CliDeliveries($organizationId: ID!, $destinationId: ID, $after: String) {
    webhookDeliveries(organizationId: $organizationId, destinationId: $destinationId, first: 50, after: $after) {
      edges { node { ...CliDelivery } } pageInfo { hasNextPage endCursor }
    }
  }
  query CliDelivery($id: ID!) {
    webhookDelivery(id: $id) {
      ...CliDelivery
      attempts { number at durationMs statusCode error responseExcerpt requestHeaders { name value } responseHeaders { name value } }
    }
  }
  mutation CliRetryDelivery($id: ID!) { retryWebhookDelivery(id: $id) { ...CliDelivery } }
  mutation CliBeginTeamChat($input: TeamChatConnectionInput!) { beginTeamChatConnection(input: $input) { state expiresAt } }

  fragment CliEsignConnection on EsignConnection { id organizationId provider createdAt inboundPath }
  mutation CliConnectEsign($organizationId: ID!, $provider: String!) {
    connectEsignProvider(organizationId: $organizationId, provider: $provider) { secret connection { ...CliEsignConnection } }
  }
  query CliEsignConnections($organizationId: ID!) { esignConnections(organizationId: $organizationId) { ...CliEsignConnection } }
  mutation CliDisconnectEsign($id: ID!) { disconnectEsignProvider(id: $id) { ...CliEsignConnection } }
`;
