// The named GraphQL operations behind the integration addresses (inbound notifications and
// connection callbacks). Parsed and validated against the schema at start-up.
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
