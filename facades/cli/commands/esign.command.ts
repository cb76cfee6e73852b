import { STRING, noPositionals, parse, positional, required } from '../args.ts';
import { CliError, describeRecord, snakeCase, table, type Output, type Runtime } from '../runtime.ts';

const CONNECT = 'packline esign connect --org ID --provider NAME [--json]';

type Connection = Record<string, unknown> & { id: string; inboundPath: string };

const SECRET_NOTICE = 'This secret is shown once. Give it to the provider now; it cannot be displayed again.';

export async function esign(rt: Runtime, sub: string | undefined, args: string[]): Promise<Output> {
  switch (sub) {
    case 'connect': {
      const p = parse(args, { org: STRING, provider: STRING }, CONNECT);
      noPositionals(p, CONNECT);
      const data = await rt.run<{ connectEsignProvider: { secret: string; connection: Connection } }>('CliConnectEsign', {
        organizationId: required(p, 'org', CONNECT),
        provider: required(p, 'provider', CONNECT),
      });
      const { secret, connection } = data.connectEsignProvider;
      const inboundUrl = `${rt.config.publicBaseUrl}${connection.inboundPath}`;
      return {
        json: {
          id: connection.id,
          secret,
          inbound_url: inboundUrl,
          organization_id: connection.organizationId,
          provider: connection.provider,
        },
        text: `${describeRecord({ id: connection.id, provider: connection.provider, inboundUrl })}\nsecret: ${secret}\n\n${SECRET_NOTICE}`,
      };
    }
    case 'list': {
      const usage = 'packline esign list --org ID [--json]';
      const p = parse(args, { org: STRING }, usage);
      noPositionals(p, usage);
      const data = await rt.run<{ esignConnections: Connection[] }>('CliEsignConnections', { organizationId: required(p, 'org', usage) });
      return { json: snakeCase(data.esignConnections), text: table(data.esignConnections, ['id', 'provider', 'inboundPath', 'createdAt']) };
    }
    case 'disconnect': {
      const usage = 'packline esign disconnect CONNECTION_ID [--json]';
      const id = positional(parse(args, {}, usage), 'connection id', usage);
      const data = await rt.run<{ disconnectEsignProvider: Connection }>('CliDisconnectEsign', { id });
      return { json: snakeCase(data.disconnectEsignProvider), text: `disconnected ${id}` };
    }
    default:
      throw new CliError(`Unknown command 'esign ${sub ?? ''}'. Commands: esign connect | list | disconnect`);
  }
}
