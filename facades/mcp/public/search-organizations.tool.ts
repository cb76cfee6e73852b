import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, READ_ONLY, structured, text, whole } from '../tool-kit.ts';
import { query, remembered, type ToolDeps } from './tool-kit.ts';
import { organizationJson, organizationOutput } from './organization-json.ts';

const input = z.strictObject({
  capability: text(120)
    .optional()
    .describe(
      'An expertise offered, English or French; synonyms match ("ux" finds "ux design", "développement web" finds "web development")',
    ),
  sector: text(120).optional().describe('A sector, e.g. "energy", "software"'),
  place: text(120)
    .optional()
    .describe('A city, region or country (name or ISO code), e.g. "Lyon", "Québec", "France"; "Lille, FR" needs both'),
  network: text(120).optional().describe('A network the organization belongs to, e.g. "French Tech"'),
  query: text(200).optional().describe('Free text; results are then ranked by relevance'),
  limit: whole(1, 50).optional().describe('Organizations per page, 1 to 50 (default 10)'),
  cursor: text(512).optional().describe('next_cursor of the previous page of the same search, unchanged'),
});

const output = z.object({
  organizations: z.array(organizationOutput),
  next_cursor: z.string().nullable().describe('Pass back as cursor for the next page; null on the last page'),
});
/** The structured content of a successful call. */
export type SearchOrganizationsOutput = z.infer<typeof output>;

export function registerSearchOrganizations(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'search_organizations',
    {
      title: 'Search organizations',
      description:
        'Searches the public directory of organizations by capability (expertise offered), sector, place and network, and/or free text. ' +
        'All given criteria must match; with none, lists every listed organization. Returns public profiles (proofs as counts, never amounts) ' +
        'and next_cursor for the following page. Only organizations that chose to be listed and have a complete profile are returned.',
      inputSchema: input,
      outputSchema: output,
      annotations: { title: 'Search organizations', ...READ_ONLY },
    },
    guarded(deps, 'search_organizations', (args: z.infer<typeof input>) =>
      remembered(deps, 'search_organizations', args, async () => {
        const filter = { capability: args.capability, sector: args.sector, place: args.place, network: args.network, text: args.query };
        const found = await query(deps, 'McpSearchOrganizations', { filter, first: args.limit ?? 10, after: args.cursor ?? null });
        if (!found.ok) return found.result;
        const { nodes, pageInfo } = found.data.directoryOrganizations;
        return structured({
          organizations: nodes.map((node) => organizationJson(node)),
          next_cursor: pageInfo.hasNextPage ? pageInfo.endCursor : null,
        });
      }),
    ),
  );
}
