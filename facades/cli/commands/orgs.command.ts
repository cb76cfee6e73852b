import { PLANS } from '../../../core/index.ts';
import { BOOLEAN, STRING, flag, list, noPositionals, optional, parse, positional, required } from '../args.ts';
import { CliError, describeRecord, snakeCase, table, type Output, type Runtime } from '../runtime.ts';

const CREATE =
  'packline orgs create --id ID --name NAME --plan base|alpha|clan [--unlisted] [--demo] [--incomplete] [--description D] [--website URL] [--city C] [--region R] [--country CC] [--sectors a,b] [--capabilities a,b] [--networks a,b] [--json]';
const UPDATE =
  'packline orgs update ID [--name N] [--plan P] [--listed|--no-listed] [--demo|--no-demo] [--complete|--no-complete] [profile flags as for create] [--json]';

const PROFILE = {
  description: STRING,
  website: STRING,
  city: STRING,
  region: STRING,
  country: STRING,
  sectors: STRING,
  capabilities: STRING,
  networks: STRING,
} as const;

type Org = Record<string, unknown> & { id: string; name: string };

export async function orgs(rt: Runtime, sub: string | undefined, args: string[]): Promise<Output> {
  switch (sub) {
    case 'create': {
      const p = parse(
        args,
        { id: STRING, name: STRING, plan: STRING, unlisted: BOOLEAN, demo: BOOLEAN, incomplete: BOOLEAN, ...PROFILE },
        CREATE,
      );
      noPositionals(p, CREATE);
      const plan = checkPlan(required(p, 'plan', CREATE));
      const data = await rt.run<{ createOrganization: Org }>('CliCreateOrganization', {
        input: {
          id: required(p, 'id', CREATE),
          profile: {
            name: required(p, 'name', CREATE),
            plan,
            listed: !flag(p, 'unlisted'),
            demo: flag(p, 'demo') ?? false,
            complete: !flag(p, 'incomplete'),
            ...profile(p),
          },
        },
      });
      return show(data.createOrganization);
    }
    case 'update': {
      const p = parse(args, { name: STRING, plan: STRING, listed: BOOLEAN, demo: BOOLEAN, complete: BOOLEAN, ...PROFILE }, UPDATE);
      const id = positional(p, 'organization id', UPDATE);
      const input = {
        name: optional(p, 'name'),
        plan: optional(p, 'plan') && checkPlan(optional(p, 'plan')!),
        listed: flag(p, 'listed'),
        demo: flag(p, 'demo'),
        complete: flag(p, 'complete'),
        ...profile(p),
      };
      const data = await rt.run<{ updateOrganization: Org }>('CliUpdateOrganization', { id, input });
      return show(data.updateOrganization);
    }
    case 'show': {
      const p = parse(args, {}, 'packline orgs show ID [--json]');
      const data = await rt.run<{ organization: Org }>('CliOrganization', {
        id: positional(p, 'organization id', 'packline orgs show ID'),
      });
      return show(data.organization);
    }
    case 'list': {
      const p = parse(args, {}, 'packline orgs list [--json]');
      noPositionals(p, 'packline orgs list');
      const all: Org[] = [];
      let after: string | null = null;
      do {
        const data: { organizations: { edges: { node: Org }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } } =
          await rt.run('CliOrganizations', { after });
        all.push(...data.organizations.edges.map((e) => e.node));
        after = data.organizations.pageInfo.hasNextPage ? data.organizations.pageInfo.endCursor : null;
      } while (after);
      return { json: snakeCase(all), text: table(all, ['id', 'name', 'plan', 'listed', 'demo', 'complete']) };
    }
    default:
      throw new CliError(`Unknown command 'orgs ${sub ?? ''}'. Commands: orgs create | update | show | list`);
  }
}

function checkPlan(value: string): string {
  if (!(PLANS as readonly string[]).includes(value)) throw new CliError(`--plan must be one of ${PLANS.join(', ')} (got '${value}')`);
  return value;
}

function profile(p: ReturnType<typeof parse>) {
  return {
    description: optional(p, 'description'),
    website: optional(p, 'website'),
    city: optional(p, 'city'),
    region: optional(p, 'region'),
    country: optional(p, 'country'),
    sectors: list(optional(p, 'sectors')),
    capabilities: list(optional(p, 'capabilities')),
    networks: list(optional(p, 'networks')),
  };
}

const show = (org: Org): Output => ({ json: snakeCase(org), text: describeRecord(org) });
