// The named GraphQL operations behind the admin CLI.
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
  fragment CliApiKey on ApiKey { id organizationId name prefix scopes createdAt expiresAt lastUsedAt revokedAt status }
  fragment CliMember on Member { id email name createdAt memberships { organizationId role } }

  mutation CliCreateOrganization($input: CreateOrganizationInput!) { createOrganization(input: $input) { ...CliOrganization } }
  mutation CliUpdateOrganization($id: ID!, $input: OrganizationProfileChanges!) { updateOrganization(id: $id, input: $input) { ...CliOrganization } }
  query CliOrganizations($after: String) {
    organizations(first: 50, after: $after) { edges { node { ...CliOrganization } } pageInfo { hasNextPage endCursor } }
  }
  query CliOrganization($id: ID!) { organization(id: $id) { ...CliOrganization } }

  mutation CliCreateApiKey($input: NewApiKeyInput!) { createApiKey(input: $input) { key apiKey { ...CliApiKey } } }
  mutation CliRevokeApiKey($id: ID!) { revokeApiKey(id: $id) { ...CliApiKey } }
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
`;
