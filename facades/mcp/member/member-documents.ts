import type * as documents from '../../generated/mcp-member.ts';
import type { OperationsOf } from '../../operation-runner.ts';

// The named GraphQL operations behind the member connector: its authorization server (run as
// the internal caller) and its tools (run as the assistant acting for the member). The member's
// sign-in, consent and account pages have theirs in facades/web/account/account-documents.ts. Parsed and
// validated against the schema at start-up;
// `npm run codegen` turns them into the typed documents of facades/generated/mcp-member.ts, which
// the connector runs.
export const MEMBER_OPERATIONS = /* GraphQL */ `
  fragment MemberApplication on AssistantApplication { id name redirectUris createdAt }
  fragment MemberTokens on AssistantTokens { accessToken refreshToken expiresIn scope }

  mutation OAuthRegisterApplication($input: NewAssistantApplicationInput!) { registerAssistantApplication(input: $input) { ...MemberApplication } }
  query OAuthApplication($id: ID!) { assistantApplication(id: $id) { ...MemberApplication } }
  mutation OAuthExchangeCode($input: AssistantCodeExchangeInput!) { exchangeAssistantCode(input: $input) { ...MemberTokens } }
  mutation OAuthRefresh($input: AssistantRefreshInput!) { refreshAssistantTokens(input: $input) { ...MemberTokens } }
  mutation OAuthRevokeToken($clientId: ID!, $token: String!) { revokeAssistantToken(clientId: $clientId, token: $token) }

  query AssistantMyAccount { assistantAccount { id name profileUrl organizations { id name role profileUrl } } }
  query AssistantMyInvitations {
    assistantInvitations { id teamName invitedBy { id name } opportunity { id title url } invitedAt url }
  }
  mutation AssistantDraftNeed($input: AssistantNeedDraftInput!) {
    assistantDraftNeed(input: $input) { state reviewUrl need { id title description requiredExpertise remoteAllowed organization { id name } } }
  }
`;

export type MemberOperations = OperationsOf<typeof documents>;
