import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from '../tool-kit.ts';
import { runTool, type MemberToolDeps } from './tool-kit.ts';

const NOTE = 'Nothing is published. The member opens review_url, reviews the draft and publishes it there.';

const input = z.strictObject({
  title: z.string().min(1).max(200).describe('Title of the need'),
  description: z.string().max(10_000).optional().describe('What the organization needs, in plain words'),
  required_expertise: z.array(z.string().min(1).max(80)).max(20).optional().describe('Expertise wanted, e.g. ["structural engineering"]'),
  remote_allowed: z.boolean().optional(),
  city: z.string().max(120).optional(),
  region: z.string().max(120).optional(),
  country: z.string().length(2).optional().describe('ISO 3166-1 alpha-2 code, e.g. FR'),
  deadline: z.iso.datetime({ offset: true }).optional().describe('ISO 8601 date-time, e.g. 2027-03-31T00:00:00Z'),
  organization_id: z.string().max(64).optional().describe('Needed only when the member belongs to several organizations (see my_account)'),
});

const output = z.object({
  id: z.string(),
  title: z.string(),
  state: z.string(),
  organization: z.object({ id: z.string(), name: z.string() }),
  review_url: z.string(),
  note: z.string(),
});

export function registerDraftNeed(server: McpServer, deps: MemberToolDeps): void {
  server.registerTool(
    'draft_need',
    {
      title: 'Draft a need',
      description: `Prepares an unpublished draft need for one of the member's organizations and returns the link where the member reviews and publishes it. ${NOTE}`,
      inputSchema: input,
      outputSchema: output,
      annotations: { title: 'Draft a need', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(
      deps,
      'draft_need',
      (args: z.infer<typeof input>) =>
        runTool(
          deps,
          'AssistantDraftNeed',
          {
            input: {
              title: args.title,
              description: args.description,
              requiredExpertise: args.required_expertise,
              remoteAllowed: args.remote_allowed,
              city: args.city,
              region: args.region,
              country: args.country,
              deadline: args.deadline,
              organizationId: args.organization_id,
            },
          },
          ({ assistantDraftNeed: d }) => ({
            id: d.need.id,
            title: d.need.title,
            state: d.state,
            organization: d.need.organization,
            review_url: d.reviewUrl,
            note: NOTE,
          }),
        ),
      // Lower layers' messages can quote the member's data: only the error's class is logged.
      { sensitive: true },
    ),
  );
}
