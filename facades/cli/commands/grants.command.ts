import { parse, required } from '../args.ts';
import { listOutput, recordOutput, type Output, type Runtime } from '../runtime.ts';

/** A member's connected applications (member assistant connector grants). */
export async function grants(rt: Runtime, sub: string, args: string[]): Promise<Output> {
  const p = parse(args, `grants ${sub}`);
  switch (sub) {
    case 'list': {
      const { assistantGrants } = await rt.run('CliGrants', { member: required(p, 'email') });
      return listOutput(assistantGrants, ['id', 'application.name', 'scopes', 'active', 'revoked_reason', 'created_at', 'last_used_at']);
    }
    case 'revoke':
      return recordOutput((await rt.run('CliRevokeGrant', { id: p.operand })).revokeAssistantGrant);
    default:
      throw new Error(`No runner for 'grants ${sub}'`);
  }
}
