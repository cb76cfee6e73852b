import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, READ_ONLY, structured, text } from '../tool-kit.ts';
import { query, remembered, type ToolDeps } from './tool-kit.ts';

// The `search` of deep-research clients: ids they pass to `fetch`, a title and a link to cite.

const ORGANIZATIONS = 10;
const FAQ_ENTRIES = 5;

const input = z.strictObject({
  query: text(200)
    .regex(/\S/, 'expected some words')
    .describe('What to look for: an expertise, a sector, a place, or a question about the service'),
});

const output = z.object({
  results: z.array(
    z.object({
      id: z.string().describe('org:<id> or faq:<id>; pass to fetch'),
      title: z.string(),
      url: z.string(),
    }),
  ),
});
/** The structured content of a successful call. */
export type SearchOutput = z.infer<typeof output>;

export function registerSearch(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'search',
    {
      title: 'Search',
      description:
        'Searches the public directory of listed organizations and the FAQ of the service. Returns result ids (org:<id> for organizations, ' +
        'faq:<id> for FAQ entries) with a title and a link; read one in full with fetch. Organizations come first, most relevant first.',
      inputSchema: input,
      outputSchema: output,
      annotations: { title: 'Search', ...READ_ONLY },
    },
    guarded(deps, 'search', (args: z.infer<typeof input>) =>
      remembered(deps, 'search', args, async () => {
        const found = await query(deps, 'McpSearch', { text: args.query, first: ORGANIZATIONS, faqLimit: FAQ_ENTRIES });
        if (!found.ok) return found.result;
        const { directoryOrganizations, faqSearch } = found.data;
        return structured({
          results: [
            ...directoryOrganizations.nodes.map((node) => ({ id: `org:${node.id}`, title: node.name, url: node.profileUrl })),
            ...faqSearch.map(({ entry }) => ({ id: `faq:${entry.id}`, title: entry.question, url: entry.faqUrl })),
          ],
        });
      }),
    ),
  );
}
