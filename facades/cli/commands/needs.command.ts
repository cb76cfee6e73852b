import { BOOLEAN, STRING, flag, isoDate, list, noPositionals, optional, parse, positional, required, type Parsed } from '../args.ts';
import { CliError, describeRecord, snakeCase, table, type Output, type Runtime } from '../runtime.ts';

const PUBLISH =
  'packline needs publish --org ID --title T --description D --expertise a,b [--remote] [--discreet] [--demo] [--city C] [--country CC] [--deadline ISO] [--draft] [--json]';
const UPDATE =
  'packline needs update ID [--title T] [--description D] [--expertise a,b] [--remote|--no-remote] [--city C] [--country CC] [--deadline ISO] [--json]';
const CONTENT = {
  title: STRING,
  description: STRING,
  expertise: STRING,
  remote: BOOLEAN,
  city: STRING,
  region: STRING,
  country: STRING,
  deadline: STRING,
} as const;

type Need = Record<string, unknown> & { id: string; admin: { state: string } };

const STATE_CHANGES = {
  withdraw: ['CliWithdrawNeed', 'withdrawNeed'],
  'make-private': ['CliMakeNeedPrivate', 'makeNeedPrivate'],
  'publish-draft': ['CliPublishNeedDraft', 'publishNeedDraft'],
} as const;

export async function needs(rt: Runtime, sub: string | undefined, args: string[]): Promise<Output> {
  switch (sub) {
    case 'publish': {
      const p = parse(args, { ...CONTENT, org: STRING, discreet: BOOLEAN, demo: BOOLEAN, draft: BOOLEAN }, PUBLISH);
      noPositionals(p, PUBLISH);
      const input = {
        organizationId: required(p, 'org', PUBLISH),
        ...content(p),
        title: required(p, 'title', PUBLISH),
        description: required(p, 'description', PUBLISH),
        requiredExpertise: list(required(p, 'expertise', PUBLISH)),
        discreet: flag(p, 'discreet'),
        demo: flag(p, 'demo'),
      };
      const [operation, field] = flag(p, 'draft') ? ['CliCreateNeedDraft', 'createNeedDraft'] : ['CliPublishNeed', 'publishNeed'];
      const data = await rt.run<Record<string, Need>>(operation, { input });
      return show(data[field]!);
    }
    case 'update': {
      const p = parse(args, CONTENT, UPDATE);
      const id = positional(p, 'need id', UPDATE);
      const data = await rt.run<{ updateNeed: Need }>('CliUpdateNeed', { id, input: content(p) });
      return show(data.updateNeed);
    }
    case 'withdraw':
    case 'make-private':
    case 'publish-draft': {
      const usage = `packline needs ${sub} ID [--json]`;
      const p = parse(args, {}, usage);
      const [operation, field] = STATE_CHANGES[sub];
      const data = await rt.run<Record<string, Need>>(operation, { id: positional(p, 'need id', usage) });
      return show(data[field]!);
    }
    case 'show': {
      const usage = 'packline needs show ID [--json]';
      const p = parse(args, {}, usage);
      const data = await rt.run<{ need: Need }>('CliNeed', { id: positional(p, 'need id', usage) });
      return show(data.need);
    }
    case 'list': {
      const usage = 'packline needs list [--org ID] [--state draft|public|private|withdrawn] [--json]';
      const p = parse(args, { org: STRING, state: STRING }, usage);
      noPositionals(p, usage);
      const all: Need[] = [];
      let after: string | null = null;
      do {
        const data: { needs: { edges: { node: Need }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } } = await rt.run(
          'CliNeeds',
          {
            organizationId: optional(p, 'org'),
            state: optional(p, 'state'),
            after,
          },
        );
        all.push(...data.needs.edges.map((e) => e.node));
        after = data.needs.pageInfo.hasNextPage ? data.needs.pageInfo.endCursor : null;
      } while (after);
      const rows = all.map((n) => ({ ...n, state: n.admin.state }));
      return { json: snakeCase(all), text: table(rows, ['id', 'state', 'title']) };
    }
    default:
      throw new CliError(
        `Unknown command 'needs ${sub ?? ''}'. Commands: needs publish | update | withdraw | make-private | publish-draft | show | list`,
      );
  }
}

function content(p: Parsed) {
  return {
    title: optional(p, 'title'),
    description: optional(p, 'description'),
    requiredExpertise: list(optional(p, 'expertise')),
    remoteAllowed: flag(p, 'remote'),
    city: optional(p, 'city'),
    region: optional(p, 'region'),
    country: optional(p, 'country'),
    deadline: isoDate(optional(p, 'deadline'), 'deadline'),
  };
}

const show = (need: Need): Output => ({ json: snakeCase(need), text: describeRecord(need) });
