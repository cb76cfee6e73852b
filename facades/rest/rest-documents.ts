import type * as documents from '../generated/rest.ts';
import type { OperationsOf } from '../operation-runner.ts';
import { event, opportunity, organization } from '../representations/resources.ts';

// The named GraphQL operations behind the REST API, one per route. Each resource's selection comes
// from its declaration in representations/resources.ts; `npm run codegen` turns this text into the typed
// documents of facades/generated/rest.ts, which the API runs (validated at start-up).
export const REST_OPERATIONS = /* GraphQL */ `
  query RestOrganization($id: ID!) {
    organization(id: $id) { ...RestOrganization }
  }

  query RestOpportunities($first: Int!, $after: String) {
    opportunities(first: $first, after: $after) {
      nodes { ...RestOpportunity }
      pageInfo { hasNextPage endCursor }
    }
  }

  query RestOpportunity($id: ID!) {
    opportunity(id: $id) { ...RestOpportunity }
  }

  query RestEvents($first: Int!, $after: String) {
    events(first: $first, after: $after) {
      nodes { ...RestEvent }
      pageInfo { hasNextPage endCursor }
    }
  }

  query RestEvent($id: ID!) {
    event(id: $id) { ...RestEvent }
  }

  fragment RestOrganization on Organization { ${organization.selection} }

  fragment RestOpportunity on Opportunity { ${opportunity.selection} }

  fragment RestEvent on Event { ${event.selection} }
`;

export type RestOperations = OperationsOf<typeof documents>;
export type RestOperationName = keyof RestOperations & string;
