import { parse, required } from '../args.ts';
import { listOutput, recordOutput, sentenceOutput, type Output, type Runtime } from '../runtime.ts';

const SECRET_NOTICE = 'This secret is shown once. Give it to the provider now; it cannot be displayed again.';

export async function esign(rt: Runtime, sub: string, args: string[]): Promise<Output> {
  const p = parse(args, `esign ${sub}`);
  switch (sub) {
    case 'connect': {
      const { secret, connection } = (
        await rt.run('CliConnectEsign', { organizationId: required(p, 'org'), provider: required(p, 'provider') })
      ).connectEsignProvider;
      const { id, organizationId, provider } = connection;
      const inboundUrl = `${rt.config.publicBaseUrl}${connection.inboundPath}`;
      return recordOutput({ id, provider, organizationId, inboundUrl, secret }, '', SECRET_NOTICE);
    }
    case 'list': {
      const { esignConnections } = await rt.run('CliEsignConnections', { organizationId: required(p, 'org') });
      return listOutput(esignConnections, ['id', 'provider', 'inbound_path', 'created_at']);
    }
    case 'disconnect': {
      const { disconnectEsignProvider } = await rt.run('CliDisconnectEsign', { id: p.operand });
      return sentenceOutput(disconnectEsignProvider, `disconnected ${p.operand}`);
    }
    default:
      throw new Error(`No runner for 'esign ${sub}'`);
  }
}
