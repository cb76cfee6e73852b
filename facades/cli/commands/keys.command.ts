import { STRING, isoDate, list, noPositionals, optional, parse, positional, required } from '../args.ts';
import { CliError, describeRecord, snakeCase, table, type Output, type Runtime } from '../runtime.ts';

const CREATE =
  'packline keys create --org ID --scopes organization:read,opportunities:read,events:read --expires-at ISO8601 [--name N] [--json]';

type Key = Record<string, unknown> & { id: string; scopes: string[]; expiresAt: string };

export async function keys(rt: Runtime, sub: string | undefined, args: string[]): Promise<Output> {
  switch (sub) {
    case 'create': {
      const p = parse(args, { org: STRING, scopes: STRING, 'expires-at': STRING, name: STRING }, CREATE);
      noPositionals(p, CREATE);
      const data = await rt.run<{ createApiKey: { key: string; apiKey: Key } }>('CliCreateApiKey', {
        input: {
          organizationId: required(p, 'org', CREATE),
          scopes: list(required(p, 'scopes', CREATE)),
          expiresAt: isoDate(required(p, 'expires-at', CREATE), 'expires-at'),
          name: optional(p, 'name'),
        },
      });
      const { key, apiKey } = data.createApiKey;
      return {
        json: {
          id: apiKey.id,
          key,
          scopes: apiKey.scopes,
          expires_at: apiKey.expiresAt,
          name: apiKey.name,
          organization_id: apiKey.organizationId,
        },
        text: `${describeRecord({ id: apiKey.id, scopes: apiKey.scopes, expiresAt: apiKey.expiresAt })}\nkey: ${key}\n\nThis key is shown once. Store it now; it cannot be displayed again.`,
      };
    }
    case 'list': {
      const usage = 'packline keys list --org ID [--json]';
      const p = parse(args, { org: STRING }, usage);
      noPositionals(p, usage);
      const data = await rt.run<{ apiKeys: Key[] }>('CliApiKeys', { organizationId: required(p, 'org', usage) });
      return {
        json: snakeCase(data.apiKeys),
        text: table(data.apiKeys, ['id', 'name', 'prefix', 'scopes', 'status', 'expiresAt', 'lastUsedAt']),
      };
    }
    case 'revoke': {
      const usage = 'packline keys revoke KEY_ID [--json]';
      const p = parse(args, {}, usage);
      const data = await rt.run<{ revokeApiKey: Key }>('CliRevokeApiKey', { id: positional(p, 'key id', usage) });
      return { json: snakeCase(data.revokeApiKey), text: `revoked ${data.revokeApiKey.id}` };
    }
    default:
      throw new CliError(`Unknown command 'keys ${sub ?? ''}'. Commands: keys create | list | revoke`);
  }
}
