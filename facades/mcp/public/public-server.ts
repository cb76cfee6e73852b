import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SHARED_SCHEMA_VALIDATOR } from '../schema-validator.ts';
import { registerComposeTeam } from './compose-team.tool.ts';
import { registerExplainService } from './explain-service.tool.ts';
import { registerFetch } from './fetch.tool.ts';
import { registerGetOrganization } from './get-organization.tool.ts';
import { registerSearchOrganizations } from './search-organizations.tool.ts';
import { registerSearch } from './search.tool.ts';
import type { ToolDeps } from './tool-kit.ts';

const instructions = (deps: ToolDeps) =>
  'Read-only public data of the platform, without key or account: listed organizations (search_organizations, get_organization), ' +
  'proposed teams for a need (compose_team; a proposal only, nobody is contacted), and answers about the service itself (explain_service). ' +
  'search and fetch serve deep-research clients over the same data. People, needs, events, quotes and pacts are never available here. ' +
  `Limits: ${deps.limits.perMinute} calls per minute and ${deps.limits.composePerHour} compose_team per hour per address.`;

/** The public connector's server, built afresh for each HTTP request (stateless). */
export function createPublicServer(deps: ToolDeps): McpServer {
  const server = new McpServer(
    { name: 'packline-public', title: 'Packline public directory', version: '1.0.0' },
    { instructions: instructions(deps), jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR },
  );
  registerSearchOrganizations(server, deps);
  registerGetOrganization(server, deps);
  registerComposeTeam(server, deps);
  registerExplainService(server, deps);
  registerSearch(server, deps);
  registerFetch(server, deps);
  return server;
}
