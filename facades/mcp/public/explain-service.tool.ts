import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, READ_ONLY, structured, text, whole } from '../tool-kit.ts';
import { query, remembered, type ToolDeps } from './tool-kit.ts';

const input = z.strictObject({
  question: text(500)
    .regex(/\S/, 'expected some words')
    .describe('A question about the service, English or French, e.g. "How do I verify a webhook signature?"'),
  limit: whole(1, 10).optional().describe('Most answers, 1 to 10 (default 3)'),
});

const output = z.object({
  answers: z
    .array(
      z.object({
        id: z.string().describe('Also fetchable as faq:<id>'),
        question: z.string(),
        answer: z.string(),
        url: z.string().describe('Where to read more (absolute link)'),
        faq_url: z.string().describe('This entry on the FAQ page (absolute link)'),
        score: z.number().describe('Relevance; higher is better'),
      }),
    )
    .describe('Best first; empty when the FAQ has nothing on the question'),
});
/** The structured content of a successful call. */
export type ExplainServiceOutput = z.infer<typeof output>;

export function registerExplainService(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'explain_service',
    {
      title: 'Explain the service',
      description:
        'Answers questions about the service (what it is, API keys and scopes, limits, pagination, errors, webhooks and their signatures, ' +
        'the assistant connectors, privacy) from its FAQ. Returns the most relevant entries, best first, each with a link to read more. ' +
        'Quote the answer and give the link; say so when no entry fits.',
      inputSchema: input,
      outputSchema: output,
      annotations: { title: 'Explain the service', ...READ_ONLY },
    },
    guarded(deps, 'explain_service', (args: z.infer<typeof input>) =>
      remembered(deps, 'explain_service', args, async () => {
        const found = await query(deps, 'McpExplainService', { query: args.question, limit: args.limit ?? 3 });
        if (!found.ok) return found.result;
        return structured({
          answers: found.data.faqSearch.map(({ entry, score }) => ({
            id: entry.id,
            question: entry.question,
            answer: entry.answer,
            url: entry.url,
            faq_url: entry.faqUrl,
            score,
          })),
        });
      }),
    ),
  );
}
