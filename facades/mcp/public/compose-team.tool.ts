import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, READ_ONLY, structured, text, toolError, whole } from '../tool-kit.ts';
import { query, type ToolDeps } from './tool-kit.ts';

// The need text is read for expertise and dropped: it is passed to the operation and nowhere
// else, never logged (failures log the error class only) and never stored.

const input = z.strictObject({
  need_text: text(10_000)
    .optional()
    .describe('The need in plain words, English or French; read for the expertise it names, never stored or logged'),
  required_expertise: z
    .array(text(120), { error: 'expected a list of strings' })
    .max(20, 'expected at most 20 expertise')
    .optional()
    .describe('Expertise wanted, e.g. ["interior design", "lighting design"]; when given, need_text is not read'),
  place: z
    .strictObject({
      city: text(120).optional(),
      region: text(120).optional(),
      country: text(60).optional().describe('ISO code or name'),
    })
    .optional()
    .describe('Where the work happens'),
  remote: z
    .boolean({ error: 'expected true or false' })
    .optional()
    .describe('True: remote work accepted, place matters little. False: organizations in another country are penalised'),
  max_members: whole(1, 6).optional().describe('Most organizations in the team, 1 to 6 (default 4)'),
});

const output = z.object({
  required: z.array(z.object({ concept: z.string(), label: z.string() })).describe('Expertise read from the request'),
  members: z.array(
    z.object({
      organization_id: z.string(),
      name: z.string(),
      profile_url: z.string(),
      covers: z.array(z.string()).describe('Required expertise this member brings (each covered once)'),
      reasons: z.array(z.string()),
      score: z.number(),
    }),
  ),
  coverage_percent: z.number().int().min(0).max(100),
  gaps: z.array(z.string()).describe('Required expertise nobody in the team covers'),
  explanation: z.string(),
  notice: z.string(),
});
/** The structured content of a successful call. */
export type ComposeTeamOutput = z.infer<typeof output>;

const NOTICE = 'A proposal only: no organization has been contacted. Members are listed organizations of the public directory.';

export function registerComposeTeam(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'compose_team',
    {
      title: 'Compose a team',
      description:
        'Proposes a complementary team of listed organizations for a need: give the need in plain words and/or the required expertise, ' +
        'optionally a place and whether remote work is fine. Returns the members with the expertise each covers, the coverage percentage and the gaps. ' +
        'Deterministic. A proposal only: no organization is contacted, and the need text is neither stored nor logged. ' +
        `At most ${deps.limits.composePerHour} per hour per address.`,
      inputSchema: input,
      outputSchema: output,
      annotations: { title: 'Compose a team', ...READ_ONLY },
    },
    guarded(
      deps,
      'compose_team',
      async (args: z.infer<typeof input>) => {
        const allowed = await deps.limits.consumeCompose(deps.client);
        if (!allowed.allowed) {
          return toolError(
            `Team composition limit reached: at most ${deps.limits.composePerHour} compose_team calls per hour from one address. ` +
              `Retry in ${waitText(allowed.retryAfter)} (after ${new Date(Date.now() + allowed.retryAfter * 1000).toISOString()}).`,
          );
        }
        const variables = {
          input: {
            needText: args.need_text,
            requiredExpertise: args.required_expertise,
            place: args.place,
            remote: args.remote,
            maxMembers: args.max_members,
          },
        };
        const found = await query(deps, 'McpComposeTeam', variables);
        if (!found.ok) return found.result;
        const p = found.data.composeTeam;
        return structured({
          required: p.required,
          members: p.members.map((m) => ({
            organization_id: m.organizationId,
            name: m.name,
            profile_url: m.profileUrl,
            covers: m.covers,
            reasons: m.reasons,
            score: m.score,
          })),
          coverage_percent: p.coveragePercent,
          gaps: p.gaps,
          explanation: p.explanation,
          notice: NOTICE,
        });
      },
      { sensitive: true },
    ),
  );
}

function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
