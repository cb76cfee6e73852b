import { ROLES } from '../../../core/index.ts';
import type { CliSetMemberPasswordMutation } from '../../generated/cli.ts';
import { oneOf, optional, parse, required } from '../args.ts';
import { listOutput, recordOutput, sentenceOutput, type Output, type Runtime } from '../runtime.ts';

export async function members(rt: Runtime, sub: string, args: string[]): Promise<Output> {
  const p = parse(args, `members ${sub}`);
  switch (sub) {
    case 'create': {
      const input = {
        email: required(p, 'email'),
        name: required(p, 'name'),
        password: optional(p, 'password'),
        organizationId: optional(p, 'org'),
        role: oneOf(p, 'role', ROLES),
      };
      return recordOutput((await rt.run('CliCreateMember', { input })).createMember);
    }
    case 'list': {
      const org = required(p, 'org');
      const { members } = await rt.run('CliMembers', { organizationId: org });
      // Each member's role in the organization listed, beside all their memberships.
      const rows = members.map((m) => ({ ...m, role: m.memberships.find((x) => x.organizationId === org)?.role ?? null }));
      return listOutput(rows, ['id', 'email', 'name', 'role']);
    }
    case 'set-password': {
      const { setMemberPassword } = await rt.run('CliSetMemberPassword', {
        member: required(p, 'email'),
        password: required(p, 'password'),
      });
      return reset(setMemberPassword, 'Password set');
    }
    case 'sign-out-everywhere': {
      const { signMemberOutEverywhere } = await rt.run('CliSignMemberOutEverywhere', { member: required(p, 'email') });
      return reset(signMemberOutEverywhere, 'Signed out everywhere');
    }
    case 'reset-link': {
      const { createPasswordResetLink: link } = await rt.run('CliPasswordResetLink', { member: required(p, 'email') });
      return sentenceOutput(link, `${link.url}\nSingle use, until ${link.expiresAt}. Hand it to the member only.`);
    }
    default:
      throw new Error(`No runner for 'members ${sub}'`);
  }
}

function reset(result: CliSetMemberPasswordMutation['setMemberPassword'], what: string): Output {
  return sentenceOutput(
    result,
    `${what}: member ${result.memberId}; every session ended; ${result.endedGrants} connected application(s) disconnected`,
  );
}
