import type * as documents from '../../generated/mcp-public.ts';
import type { OperationsOf } from '../../operation-runner.ts';
import { organization } from '../../representations/resources.ts';

// The named GraphQL operations behind the public assistant connector, one or two per tool. An
// organization's selection comes from its declaration in representations/resources.ts.
// `npm run codegen` turns them into the typed documents of facades/generated/mcp-public.ts, which
// the connector runs (validated at start-up) with the public actor.
export const PUBLIC_MCP_OPERATIONS = /* GraphQL */ `
  query McpSearchOrganizations($filter: DirectoryFilter, $first: Int!, $after: String) {
    directoryOrganizations(filter: $filter, first: $first, after: $after) {
      nodes { ...McpOrganization }
      pageInfo { hasNextPage endCursor }
    }
  }

  query McpOrganization($id: ID!) {
    directoryOrganization(id: $id) { ...McpOrganization }
  }

  query McpComposeTeam($input: ComposeTeamInput!) {
    composeTeam(input: $input) {
      required { concept label }
      members { organizationId name profileUrl covers reasons score }
      coveragePercent gaps explanation
    }
  }

  query McpExplainService($query: String!, $limit: Int!) {
    faqSearch(query: $query, limit: $limit) { score entry { ...McpFaqEntry } }
  }

  query McpSearch($text: String!, $first: Int!, $faqLimit: Int!) {
    directoryOrganizations(filter: { text: $text }, first: $first) { nodes { id name profileUrl } }
    faqSearch(query: $text, limit: $faqLimit) { entry { id question faqUrl } }
  }

  query McpFaqEntry($id: ID!) {
    faqEntry(id: $id) { ...McpFaqEntry }
  }

  fragment McpOrganization on Organization { ${organization.selection} }

  fragment McpFaqEntry on FaqEntry {
    id question answer url faqUrl
  }
`;

export type PublicMcpOperations = OperationsOf<typeof documents>;
