import type * as documents from '../generated/integrations.ts';
import type { OperationsOf } from '../operation-runner.ts';

// The named GraphQL operations behind the integration addresses (inbound notifications and
// connection callbacks). Parsed and validated against the schema at start-up;
// `npm run codegen` turns them into the typed documents of facades/generated/integrations.ts, which
// the routes run.
export const INTEGRATION_OPERATIONS = /* GraphQL */ `
  mutation IntegrationReceiveEsignNotification($connectionId: ID!, $body: String!, $hmac: String!) {
    receiveEsignNotification(connectionId: $connectionId, body: $body, hmac: $hmac) { duplicate updated }
  }
  query IntegrationPendingTeamChatConnection($state: String!, $sessionId: ID) {
    pendingTeamChatConnection(state: $state, sessionId: $sessionId) { expiresAt }
  }
  mutation IntegrationCompleteTeamChatConnection($state: String!, $incomingUrl: String!, $sessionId: ID) {
    completeTeamChatConnection(state: $state, incomingUrl: $incomingUrl, sessionId: $sessionId) { id url }
  }
`;

export type IntegrationOperations = OperationsOf<typeof documents>;
