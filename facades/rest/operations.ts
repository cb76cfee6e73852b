// The named GraphQL operations behind the REST API, one per route. Parsed and validated
// against the schema at start-up.
export const REST_OPERATIONS = /* GraphQL */ `
  query RestOrganization($id: ID!) {
    organization(id: $id) {
      id name description website logoUrl sectors capabilities networks profileUrl updatedAt
      place { city region country }
      partnerPayment { confirmedRatePercent partnersCount }
      proofs { completedPacks references certifications }
    }
  }

  query RestOpportunities($first: Int!, $after: String) {
    opportunities(first: $first, after: $after) {
      edges { node { ...RestOpportunity } }
      pageInfo { hasNextPage endCursor }
    }
  }

  query RestOpportunity($id: ID!) {
    opportunity(id: $id) { ...RestOpportunity }
  }

  query RestEvents($first: Int!, $after: String) {
    events(first: $first, after: $after) {
      edges { node { ...RestEvent } }
      pageInfo { hasNextPage endCursor }
    }
  }

  query RestEvent($id: ID!) {
    event(id: $id) { ...RestEvent }
  }

  fragment RestOpportunity on Opportunity {
    id title description requiredExpertise remoteAllowed url publishedAt updatedAt deadline
    place { city region country }
    organization { id name }
  }

  fragment RestEvent on Event {
    id title description startsAt endsAt timezone online url updatedAt
    place { city region country }
    host { id name }
  }
`;
