import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { present } from '../../operation-runner.ts';
import { guarded, READ_ONLY, structured, text } from '../tool-kit.ts';
import { query, remembered, type ToolDeps } from './tool-kit.ts';
import { organizationJson, organizationOutput } from './organization-json.ts';

const input = z.strictObject({
  id: text(124).describe('The organization id from search_organizations (org:<id> from search is accepted too)'),
});

export function registerGetOrganization(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'get_organization',
    {
      title: 'Get an organization',
      description:
        'Reads the public profile of one listed organization: description, capabilities, sectors, place, networks, and its proofs ' +
        '(completed packs, references, certifications) and partner payment record, as counts and a rate, never amounts.',
      inputSchema: input,
      outputSchema: organizationOutput,
      annotations: { title: 'Get an organization', ...READ_ONLY },
    },
    guarded(deps, 'get_organization', ({ id }: z.infer<typeof input>) =>
      remembered(deps, 'get_organization', { id }, async () => {
        const found = await query(deps, 'McpOrganization', { id: id.startsWith('org:') ? id.slice(4) : id });
        return found.ok ? structured(organizationJson(present(found.data.directoryOrganization))) : found.result;
      }),
    ),
  );
}
