import { STRING, list, noPositionals, optional, parse, positional, required } from '../args.ts';
import { CliError, describeRecord, snakeCase, table, type Output, type Runtime } from '../runtime.ts';
import { teamChatAuthorizeUrl } from '../../integrations/team-chat.route.ts';

const CREATE =
  'packline destinations create --org ID --format standard-json|team-chat|collaboration-suite --url URL [--name NAME] [--description TEXT] [--language en|fr] [--kinds need.created,...] [--scope platform|own] [--json]';

const UPDATE =
  'packline destinations update DESTINATION_ID [--name NAME] [--description TEXT] [--url URL] [--language en|fr] [--kinds need.created,...] [--scope platform|own] [--json]';

const CONNECT_TEAM_CHAT =
  'packline destinations connect-team-chat --org ID [--language en|fr] [--kinds need.created,...] [--scope platform|own] [--json]';

type Destination = Record<string, unknown> & { id: string };
type Created = { secret: string | null; destination: Destination };

const SECRET_NOTICE = 'This signing secret is shown once. Store it now; it cannot be displayed again.';

export async function destinations(rt: Runtime, sub: string | undefined, args: string[]): Promise<Output> {
  switch (sub) {
    case 'create': {
      const p = parse(
        args,
        { org: STRING, format: STRING, url: STRING, name: STRING, description: STRING, language: STRING, kinds: STRING, scope: STRING },
        CREATE,
      );
      noPositionals(p, CREATE);
      const kinds = optional(p, 'kinds');
      const data = await rt.run<{ createWebhookDestination: Created }>('CliCreateDestination', {
        input: {
          organizationId: required(p, 'org', CREATE),
          format: required(p, 'format', CREATE),
          url: required(p, 'url', CREATE),
          name: optional(p, 'name'),
          description: optional(p, 'description'),
          language: optional(p, 'language'),
          kinds: kinds === undefined ? undefined : list(kinds),
          scope: optional(p, 'scope'),
        },
      });
      return created(data.createWebhookDestination);
    }
    case 'list': {
      const usage = 'packline destinations list --org ID [--json]';
      const p = parse(args, { org: STRING }, usage);
      noPositionals(p, usage);
      const data = await rt.run<{ webhookDestinations: Destination[] }>('CliDestinations', { organizationId: required(p, 'org', usage) });
      return {
        json: snakeCase(data.webhookDestinations),
        text: table(data.webhookDestinations, ['id', 'name', 'format', 'url', 'language', 'scope', 'status', 'kinds']),
      };
    }
    case 'delete': {
      const id = only(args, 'packline destinations delete DESTINATION_ID [--json]');
      const data = await rt.run<{ deleteWebhookDestination: Destination }>('CliDeleteDestination', { id });
      return { json: snakeCase(data.deleteWebhookDestination), text: `deleted ${id}` };
    }
    case 'rotate-secret': {
      const id = only(args, 'packline destinations rotate-secret DESTINATION_ID [--json]');
      const data = await rt.run<{ rotateWebhookSecret: Created }>('CliRotateSecret', { id });
      const out = created(data.rotateWebhookSecret);
      return {
        ...out,
        text: `${out.text}\nThe previous secret keeps signing until ${String(data.rotateWebhookSecret.destination.previousSecretExpiresAt)}.`,
      };
    }
    case 'enable': {
      const id = only(args, 'packline destinations enable DESTINATION_ID [--json]');
      const data = await rt.run<{ enableWebhookDestination: Destination }>('CliEnableDestination', { id });
      return { json: snakeCase(data.enableWebhookDestination), text: `enabled ${id}` };
    }
    case 'update': {
      const p = parse(args, { name: STRING, description: STRING, url: STRING, language: STRING, kinds: STRING, scope: STRING }, UPDATE);
      const id = positional(p, 'destination id', UPDATE);
      const kinds = optional(p, 'kinds');
      const input = {
        name: optional(p, 'name'),
        description: optional(p, 'description'),
        url: optional(p, 'url'),
        language: optional(p, 'language'),
        kinds: kinds === undefined ? undefined : list(kinds),
        scope: optional(p, 'scope'),
      };
      if (Object.values(input).every((v) => v === undefined)) throw new CliError(`Nothing to change. Usage: ${UPDATE}`);
      const data = await rt.run<{ updateWebhookDestination: Destination }>('CliUpdateDestination', { id, input });
      return { json: snakeCase(data.updateWebhookDestination), text: describeRecord(data.updateWebhookDestination) };
    }
    case 'pause': {
      const id = only(args, 'packline destinations pause DESTINATION_ID [--json]');
      const data = await rt.run<{ pauseWebhookDestination: Destination }>('CliPauseDestination', { id });
      return {
        json: snakeCase(data.pauseWebhookDestination),
        text: `paused ${id}: nothing is sent to it, nor kept for it, until it is resumed`,
      };
    }
    case 'resume': {
      const id = only(args, 'packline destinations resume DESTINATION_ID [--json]');
      const data = await rt.run<{ resumeWebhookDestination: Destination }>('CliResumeDestination', { id });
      return { json: snakeCase(data.resumeWebhookDestination), text: `resumed ${id}: it takes signals from now on` };
    }
    case 'test': {
      const id = only(args, 'packline destinations test DESTINATION_ID [--json]');
      const data = await rt.run<{ sendTestSignal: Destination }>('CliSendTestSignal', { destinationId: id });
      return { json: snakeCase(data.sendTestSignal), text: `test signal queued as delivery ${data.sendTestSignal.id}` };
    }
    case 'connect-team-chat': {
      const p = parse(args, { org: STRING, language: STRING, kinds: STRING, scope: STRING }, CONNECT_TEAM_CHAT);
      noPositionals(p, CONNECT_TEAM_CHAT);
      const provider = rt.config.webhooks.teamChat;
      if (!provider) {
        throw new CliError(
          "The team-chat connection flow is not configured: set TEAM_CHAT_CLIENT_ID, TEAM_CHAT_CLIENT_SECRET, TEAM_CHAT_AUTHORIZE_URL and TEAM_CHAT_TOKEN_URL, or add the channel's incoming URL with destinations create",
        );
      }
      const kinds = optional(p, 'kinds');
      const data = await rt.run<{ beginTeamChatConnection: { state: string; expiresAt: string } }>('CliBeginTeamChat', {
        input: {
          organizationId: required(p, 'org', CONNECT_TEAM_CHAT),
          language: optional(p, 'language'),
          kinds: kinds === undefined ? undefined : list(kinds),
          scope: optional(p, 'scope'),
        },
      });
      const { state, expiresAt } = data.beginTeamChatConnection;
      const authorizeUrl = teamChatAuthorizeUrl(provider, rt.config.publicBaseUrl, state);
      return {
        json: { authorize_url: authorizeUrl, expires_at: expiresAt },
        text: `Open this address as an admin of the chat workspace and pick the channel (before ${expiresAt}):\n\n${authorizeUrl}`,
      };
    }
    default:
      throw new CliError(
        `Unknown command 'destinations ${sub ?? ''}'. Commands: destinations create | list | update | pause | resume | delete | rotate-secret | enable | test | connect-team-chat`,
      );
  }
}

function created({ secret, destination }: Created): Output {
  return {
    json: { ...(snakeCase(destination) as object), ...(secret ? { secret } : {}) },
    text: `${describeRecord(destination)}${secret ? `\nsecret: ${secret}\n\n${SECRET_NOTICE}` : ''}`,
  };
}

function only(args: string[], usage: string): string {
  return positional(parse(args, {}, usage), 'destination id', usage);
}
