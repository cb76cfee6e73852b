import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { present } from '../../operation-runner.ts';
import { guarded, READ_ONLY, structured, text, toolError } from '../tool-kit.ts';
import { query, remembered, type ToolDeps } from './tool-kit.ts';
import { organizationJson, organizationText } from './organization-json.ts';

// The `fetch` of deep-research clients: one document in full, by an id `search` returned.

const input = z.strictObject({
  id: text(130).describe('An id returned by search: org:<id> or faq:<id>'),
});

const output = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  url: z.string(),
  metadata: z.record(z.string(), z.string()),
});
/** The structured content of a successful call. */
export type FetchOutput = z.infer<typeof output>;

export function registerFetch(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'fetch',
    {
      title: 'Fetch',
      description:
        'Reads one search result in full by its id: the public profile of a listed organization (org:<id>) or an FAQ entry (faq:<id>). ' +
        'Returns its title, full text, link and metadata.',
      inputSchema: input,
      outputSchema: output,
      annotations: { title: 'Fetch', ...READ_ONLY },
    },
    guarded(deps, 'fetch', ({ id }: z.infer<typeof input>) =>
      remembered(deps, 'fetch', { id }, async () => {
        const colon = id.indexOf(':');
        const [kind, key] = colon === -1 ? ['', id] : [id.slice(0, colon), id.slice(colon + 1)];
        if (kind === 'org') {
          const found = await query(deps, 'McpOrganization', { id: key });
          if (!found.ok) return found.result;
          const org = organizationJson(present(found.data.directoryOrganization));
          return structured({
            id,
            title: org.name,
            text: organizationText(org),
            url: org.profile_url,
            metadata: { type: 'organization', updated_at: org.updated_at, ...(org.place.country ? { country: org.place.country } : {}) },
          });
        }
        if (kind === 'faq') {
          const found = await query(deps, 'McpFaqEntry', { id: key });
          if (!found.ok) return found.result;
          const entry = present(found.data.faqEntry);
          return structured({
            id,
            title: entry.question,
            text: `${entry.question}\n\n${entry.answer}\n\nRead more: ${entry.url}`,
            url: entry.faqUrl,
            metadata: { type: 'faq', read_more: entry.url },
          });
        }
        return toolError(`Unknown id '${id}': ids look like org:<id> or faq:<id>, as search returns them.`);
      }),
    ),
  );
}
