import { STRING, noPositionals, parse, positional, required } from '../args.ts';
import { CliError, describeRecord, snakeCase, table, type Output, type Runtime } from '../runtime.ts';

type Grant = Record<string, unknown> & {
  id: string;
  application: { id: string; name: string; redirectUris: string[] };
  scopes: string[];
  active: boolean;
};

/** A member's connected applications (member assistant connector grants). */
export async function grants(rt: Runtime, sub: string | undefined, args: string[]): Promise<Output> {
  switch (sub) {
    case 'list': {
      const usage = 'packline grants list --email E [--json]';
      const p = parse(args, { email: STRING }, usage);
      noPositionals(p, usage);
      const data = await rt.run<{ assistantGrants: Grant[] }>('CliGrants', { member: required(p, 'email', usage) });
      const rows = data.assistantGrants.map((g) => ({
        ...g,
        application: g.application.name,
        status: g.active ? 'active' : `ended (${String(g.revokedReason ?? 'credentials changed')})`,
      }));
      return {
        json: snakeCase(data.assistantGrants),
        text: table(rows, ['id', 'application', 'scopes', 'status', 'createdAt', 'lastUsedAt']),
      };
    }
    case 'revoke': {
      const usage = 'packline grants revoke GRANT_ID [--json]';
      const id = positional(parse(args, {}, usage), 'GRANT_ID', usage);
      const data = await rt.run<{ revokeAssistantGrant: Grant }>('CliRevokeGrant', { id });
      return { json: snakeCase(data.revokeAssistantGrant), text: describeRecord(data.revokeAssistantGrant) };
    }
    default:
      throw new CliError(`Unknown command 'grants ${sub ?? ''}'. Commands: grants list | revoke`);
  }
}
