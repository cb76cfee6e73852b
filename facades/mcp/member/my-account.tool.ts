import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, READ_ONLY } from '../tool-kit.ts';
import { runTool, type MemberToolDeps } from './tool-kit.ts';

const output = z.object({
  id: z.string(),
  name: z.string(),
  profile_url: z.string().describe("The member's own account page on Packline (the member signs in there; members have no public page)"),
  organizations: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      role: z.string(),
      profile_url: z.string().describe("The organization's public profile page"),
    }),
  ),
});

export function registerMyAccount(server: McpServer, deps: MemberToolDeps): void {
  server.registerTool(
    'my_account',
    {
      title: 'My account',
      description:
        "Reads the member's name, the address of the member's own account page (for the member, after signing in), and the organizations " +
        "the member belongs to with the member's role in each.",
      outputSchema: output,
      annotations: { title: 'My account', ...READ_ONLY },
    },
    guarded(
      deps,
      'my_account',
      () =>
        runTool(deps, 'AssistantMyAccount', {}, ({ assistantAccount: a }) => ({
          id: a.id,
          name: a.name,
          profile_url: a.profileUrl,
          organizations: a.organizations.map((o) => ({ id: o.id, name: o.name, role: o.role, profile_url: o.profileUrl })),
        })),
      // Lower layers' messages can quote the member's data: only the error's class is logged.
      { sensitive: true },
    ),
  );
}
