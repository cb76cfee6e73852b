import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SHARED_SCHEMA_VALIDATOR } from '../schema-validator.ts';
import { registerDraftNeed } from './draft-need.tool.ts';
import { registerMyAccount } from './my-account.tool.ts';
import { registerMyInvitations } from './my-invitations.tool.ts';
import type { MemberToolDeps } from './tool-kit.ts';

const INSTRUCTIONS =
  'Acts for one Packline member, within what the member approved. Reads the member’s account and pending team invitations, ' +
  'and prepares draft needs that the member reviews and publishes. It can never publish, send messages, sign or submit offers; ' +
  'every call is shown to the member in their account settings.';

/** One MCP server per HTTP request (stateless), bound to the grant the request's token carries. */
export function createMemberServer(deps: MemberToolDeps): McpServer {
  const server = new McpServer(
    { name: 'packline-member', title: 'Packline (member)', version: '1.0.0' },
    { instructions: INSTRUCTIONS, jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR },
  );
  registerMyAccount(server, deps);
  registerMyInvitations(server, deps);
  registerDraftNeed(server, deps);
  return server;
}
