import type { Config, Logger } from '../../core/index.ts';
import { schema, type Contexts } from '../../schema/index.ts';
import * as documents from '../generated/integrations.ts';
import { Operations } from '../operation-runner.ts';
import { createEsignInbound } from './esign.route.ts';
import { createTeamChatCallback } from './team-chat.route.ts';

/** Addresses third parties call: provider notifications under /inbound/, browser callbacks under /integrations/. */
export const INBOUND_PREFIX = '/inbound/';
export const INTEGRATIONS_PREFIX = '/integrations/';

export function createIntegrations({ contexts, config, log }: { contexts: Contexts; config: Config; log: Logger }) {
  const operations = Operations.generated(schema, documents);
  return {
    inbound: createEsignInbound({ contexts, operations }),
    pages: createTeamChatCallback({ provider: config.webhooks.teamChat, publicBaseUrl: config.publicBaseUrl, contexts, operations, log }),
  };
}
