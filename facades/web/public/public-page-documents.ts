import type * as documents from '../../generated/web-public.ts';
import type { OperationsOf } from '../../operation-runner.ts';
import { event, opportunity, organization } from '../../representations/resources.ts';

// The named GraphQL operations behind the public pages, run as the public actor. Each resource's
// selection is the REST API's (representations.ts): a page shows what the API gives, nothing else.
// An organization has a page when it is in the public directory (listed, complete, not a demonstration).
export const PUBLIC_PAGE_OPERATIONS = /* GraphQL */ `
  query PublicOrganizationPage($id: ID!) {
    directoryOrganization(id: $id) { ...PublicOrganization }
  }

  query PublicOpportunityPage($id: ID!) {
    opportunity(id: $id) { ...PublicOpportunity }
  }

  query PublicEventPage($id: ID!) {
    event(id: $id) { ...PublicEvent }
  }

  query PublicFaqPage {
    faqEntries { id question answer url faqUrl }
  }

  fragment PublicOrganization on Organization { ${organization.selection} }

  fragment PublicOpportunity on Opportunity { ${opportunity.selection} }

  fragment PublicEvent on Event { ${event.selection} }
`;

export type PublicPageOperations = OperationsOf<typeof documents>;
