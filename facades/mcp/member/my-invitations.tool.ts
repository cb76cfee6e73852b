import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, READ_ONLY } from '../tool-kit.ts';
import { runTool, type MemberToolDeps } from './tool-kit.ts';

const NOTE = 'Accepting or refusing an invitation happens on Packline: give the member the url of the invitation.';

const output = z.object({
  invitations: z.array(
    z.object({
      id: z.string(),
      team_name: z.string(),
      invited_by: z.object({ id: z.string(), name: z.string() }),
      opportunity: z.object({ id: z.string(), title: z.string(), url: z.string() }).nullable(),
      invited_at: z.string(),
      url: z.string(),
    }),
  ),
  note: z.string(),
});

export function registerMyInvitations(server: McpServer, deps: MemberToolDeps): void {
  server.registerTool(
    'my_invitations',
    {
      title: 'My pending team invitations',
      description: `Lists the member's pending invitations to join a team, newest first: the team, who invited, the public need it forms around. ${NOTE}`,
      outputSchema: output,
      annotations: { title: 'My pending team invitations', ...READ_ONLY },
    },
    guarded(
      deps,
      'my_invitations',
      () =>
        runTool(deps, 'AssistantMyInvitations', {}, ({ assistantInvitations }) => ({
          invitations: assistantInvitations.map((i) => ({
            id: i.id,
            team_name: i.teamName,
            invited_by: i.invitedBy,
            opportunity: i.opportunity,
            invited_at: i.invitedAt,
            url: i.url,
          })),
          note: NOTE,
        })),
      // Lower layers' messages can quote the member's data: only the error's class is logged.
      { sensitive: true },
    ),
  );
}
