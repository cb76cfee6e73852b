import { STRING, noPositionals, optional, parse, required } from '../args.ts';
import { CliError, describeRecord, snakeCase, table, type Output, type Runtime } from '../runtime.ts';

const CREATE = 'packline members create --email E --name N [--password P] [--org ID] [--role admin|member] [--json]';
const SET_PASSWORD = 'packline members set-password --email E --password P [--json]';
const SIGN_OUT = 'packline members sign-out-everywhere --email E [--json]';

type Member = Record<string, unknown> & { id: string; memberships: { organizationId: string; role: string }[] };

export async function members(rt: Runtime, sub: string | undefined, args: string[]): Promise<Output> {
  switch (sub) {
    case 'create': {
      const p = parse(args, { email: STRING, name: STRING, password: STRING, org: STRING, role: STRING }, CREATE);
      noPositionals(p, CREATE);
      const role = optional(p, 'role');
      if (role !== undefined && role !== 'admin' && role !== 'member') throw new CliError(`--role must be admin or member (got '${role}')`);
      const data = await rt.run<{ createMember: Member }>('CliCreateMember', {
        input: {
          email: required(p, 'email', CREATE),
          name: required(p, 'name', CREATE),
          password: optional(p, 'password'),
          organizationId: optional(p, 'org'),
          role,
        },
      });
      return { json: snakeCase(data.createMember), text: describeRecord(data.createMember) };
    }
    case 'list': {
      const usage = 'packline members list --org ID [--json]';
      const p = parse(args, { org: STRING }, usage);
      noPositionals(p, usage);
      const org = required(p, 'org', usage);
      const data = await rt.run<{ members: Member[] }>('CliMembers', { organizationId: org });
      const rows = data.members.map((m) => ({ ...m, role: m.memberships.find((x) => x.organizationId === org)?.role }));
      return { json: snakeCase(data.members), text: table(rows, ['id', 'email', 'name', 'role']) };
    }
    case 'set-password': {
      const p = parse(args, { email: STRING, password: STRING }, SET_PASSWORD);
      noPositionals(p, SET_PASSWORD);
      const data = await rt.run<{ setMemberPassword: Reset }>('CliSetMemberPassword', {
        member: required(p, 'email', SET_PASSWORD),
        password: required(p, 'password', SET_PASSWORD),
      });
      return reset(data.setMemberPassword, 'Password set');
    }
    case 'sign-out-everywhere': {
      const p = parse(args, { email: STRING }, SIGN_OUT);
      noPositionals(p, SIGN_OUT);
      const data = await rt.run<{ signMemberOutEverywhere: Reset }>('CliSignMemberOutEverywhere', {
        member: required(p, 'email', SIGN_OUT),
      });
      return reset(data.signMemberOutEverywhere, 'Signed out everywhere');
    }
    default:
      throw new CliError(`Unknown command 'members ${sub ?? ''}'. Commands: members create | list | set-password | sign-out-everywhere`);
  }
}

type Reset = { memberId: string; endedGrants: number };

function reset(result: Reset, what: string): Output {
  return {
    json: snakeCase(result),
    text: `${what}: member ${result.memberId}; every session ended; ${result.endedGrants} connected application(s) disconnected`,
  };
}
