import {
  DELIVERY_FORMATS,
  DESTINATION_SCOPES,
  LANGUAGES,
  SECRET_OVERLAPS,
  SIGNAL_TYPES,
  teamChatAuthorizeUrl,
} from '../../../core/index.ts';
import type { CliDestinationFragment } from '../../generated/cli.ts';
import { CliError, list, oneOf, optional, parse, required, type Parsed } from '../args.ts';
import { overlapFlag } from './overlap-flag.ts';
import { listOutput, recordOutput, sentenceOutput, type Output, type Runtime } from '../runtime.ts';

const SECRET_NOTICE = 'This signing secret is shown once. Store it now; it cannot be displayed again.';

export async function destinations(rt: Runtime, sub: string, args: string[]): Promise<Output> {
  const p = parse(args, `destinations ${sub}`);
  const id = p.operand;
  switch (sub) {
    case 'create': {
      const input = {
        organizationId: required(p, 'org'),
        format: oneOf(p, 'format', DELIVERY_FORMATS)!,
        url: required(p, 'url'),
        name: optional(p, 'name'),
        description: optional(p, 'description'),
        ...choices(p),
      };
      return created((await rt.run('CliCreateDestination', { input })).createWebhookDestination);
    }
    case 'list': {
      const { webhookDestinations } = await rt.run('CliDestinations', { organizationId: required(p, 'org') });
      return listOutput(webhookDestinations, ['id', 'name', 'format', 'url', 'language', 'scope', 'status', 'kinds']);
    }
    case 'update': {
      const input = { name: optional(p, 'name'), description: optional(p, 'description'), url: optional(p, 'url'), ...choices(p) };
      if (Object.values(input).every((v) => v === undefined))
        throw new CliError(`Nothing to change: give at least one flag.\nusage: ${p.usage}`);
      return recordOutput((await rt.run('CliUpdateDestination', { id, input })).updateWebhookDestination);
    }
    case 'pause': {
      const { pauseWebhookDestination } = await rt.run('CliPauseDestination', { id });
      return sentenceOutput(pauseWebhookDestination, `paused ${id}: nothing is sent to it, nor kept for it, until it is resumed`);
    }
    case 'resume': {
      const { resumeWebhookDestination } = await rt.run('CliResumeDestination', { id });
      return sentenceOutput(resumeWebhookDestination, `resumed ${id}: it takes signals from now on`);
    }
    case 'delete':
      return sentenceOutput((await rt.run('CliDeleteDestination', { id })).deleteWebhookDestination, `deleted ${id}`);
    case 'rotate-secret': {
      const given = optional(p, 'overlap');
      const overlap = given === undefined ? undefined : overlapFlag(p, SECRET_OVERLAPS, given);
      const { rotateWebhookSecret } = await rt.run('CliRotateSecret', { id, overlap });
      const until = `The previous secret keeps signing until ${rotateWebhookSecret.destination.previousSecretExpiresAt ?? '—'}.`;
      return created(rotateWebhookSecret, until);
    }
    case 'enable':
      return sentenceOutput((await rt.run('CliEnableDestination', { id })).enableWebhookDestination, `enabled ${id}`);
    case 'test': {
      // A kind the destination does not receive is refused by the service, naming the ones it does.
      const kind = oneOf(p, 'kind', SIGNAL_TYPES);
      const { sendTestSignal } = await rt.run('CliSendTestSignal', { destinationId: id, kind });
      return sentenceOutput(sendTestSignal, `test signal queued as delivery ${sendTestSignal.id}`);
    }
    case 'connect-team-chat':
      return connectTeamChat(rt, p);
    default:
      throw new Error(`No runner for 'destinations ${sub}'`);
  }
}

function choices(p: Parsed) {
  return { language: oneOf(p, 'language', LANGUAGES), kinds: list(optional(p, 'kinds')), scope: oneOf(p, 'scope', DESTINATION_SCOPES) };
}

async function connectTeamChat(rt: Runtime, p: Parsed): Promise<Output> {
  const provider = rt.config.webhooks.teamChat;
  if (!provider) {
    throw new CliError(
      "The team-chat connection flow is not configured: set TEAM_CHAT_CLIENT_ID, TEAM_CHAT_CLIENT_SECRET, TEAM_CHAT_AUTHORIZE_URL and TEAM_CHAT_TOKEN_URL, or add the channel's incoming URL with destinations create",
    );
  }
  const { state, expiresAt } = (await rt.run('CliBeginTeamChat', { input: { organizationId: required(p, 'org'), ...choices(p) } }))
    .beginTeamChatConnection;
  const authorizeUrl = teamChatAuthorizeUrl(provider, rt.config.publicBaseUrl, state);
  return {
    json: { authorize_url: authorizeUrl, expires_at: expiresAt },
    text: `Open this address as an admin of the chat workspace and pick the channel (before ${expiresAt}):\n\n${authorizeUrl}`,
  };
}

/** A destination with its new signing secret, if it has one: the secret's only showing. */
function created({ secret, destination }: { secret: string | null; destination: CliDestinationFragment }, ...notes: string[]): Output {
  if (!secret) return recordOutput(destination, ...notes);
  return recordOutput({ ...destination, secret }, ...notes, '', SECRET_NOTICE);
}
