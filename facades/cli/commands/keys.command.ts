import { KEY_ROLL_OVERLAPS } from '../../../core/index.ts';
import { isoDate, list, optional, parse, required } from '../args.ts';
import { overlapFlag } from './overlap-flag.ts';
import { listOutput, recordOutput, sentenceOutput, type Output, type Runtime } from '../runtime.ts';

export async function keys(rt: Runtime, sub: string, args: string[]): Promise<Output> {
  const p = parse(args, `keys ${sub}`);
  switch (sub) {
    case 'create': {
      const { key, apiKey } = (
        await rt.run('CliCreateApiKey', {
          input: {
            organizationId: required(p, 'org'),
            scopes: list(required(p, 'scopes')) ?? [],
            expiresAt: isoDate(required(p, 'expires-at'), 'expires-at')!,
            name: optional(p, 'name'),
          },
        })
      ).createApiKey;
      const { id, name, scopes, expiresAt, organizationId } = apiKey;
      return recordOutput(
        { id, key, name, scopes, expiresAt, organizationId },
        '',
        'This key is shown once. Store it now; it cannot be displayed again.',
      );
    }
    case 'list': {
      const { apiKeys } = await rt.run('CliApiKeys', { organizationId: required(p, 'org') });
      return listOutput(apiKeys, ['id', 'name', 'prefix', 'scopes', 'status', 'expires_at', 'last_used_at']);
    }
    case 'roll': {
      const overlap = overlapFlag(p, KEY_ROLL_OVERLAPS, required(p, 'overlap'));
      const { key, apiKey, rolled } = (await rt.run('CliRollApiKey', { id: p.operand, overlap })).rollApiKey;
      const { id, name, scopes, expiresAt, organizationId } = apiKey;
      const old =
        rolled.status === 'revoked' ? `${rolled.id} stopped working now.` : `${rolled.id} keeps working until ${rolled.expiresAt}.`;
      return recordOutput(
        { id, key, name, scopes, expiresAt, organizationId, rolled: { id: rolled.id, status: rolled.status, expiresAt: rolled.expiresAt } },
        '',
        `This key is shown once. Store it now; it cannot be displayed again. The old key ${old}`,
      );
    }
    case 'revoke': {
      const { revokeApiKey } = await rt.run('CliRevokeApiKey', { id: p.operand });
      return sentenceOutput(revokeApiKey, `revoked ${revokeApiKey.id}`);
    }
    default:
      throw new Error(`No runner for 'keys ${sub}'`);
  }
}
