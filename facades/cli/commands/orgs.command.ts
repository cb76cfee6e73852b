import { PLANS } from '../../../core/index.ts';
import { flag, list, oneOf, optional, parse, required, type Parsed } from '../args.ts';
import { present } from '../../operation-runner.ts';
import { allPages, listOutput, recordOutput, type Output, type Runtime } from '../runtime.ts';

export async function orgs(rt: Runtime, sub: string, args: string[]): Promise<Output> {
  const p = parse(args, `orgs ${sub}`);
  switch (sub) {
    case 'create': {
      const { createOrganization } = await rt.run('CliCreateOrganization', {
        input: {
          id: required(p, 'id'),
          profile: {
            name: required(p, 'name'),
            plan: oneOf(p, 'plan', PLANS)!,
            listed: !flag(p, 'unlisted'),
            demo: flag(p, 'demo') ?? false,
            complete: !flag(p, 'incomplete'),
            ...profile(p),
          },
        },
      });
      return recordOutput(createOrganization);
    }
    case 'update': {
      const input = {
        name: optional(p, 'name'),
        plan: oneOf(p, 'plan', PLANS),
        listed: flag(p, 'listed'),
        demo: flag(p, 'demo'),
        complete: flag(p, 'complete'),
        ...profile(p),
      };
      const { updateOrganization } = await rt.run('CliUpdateOrganization', { id: p.operand, input });
      return recordOutput(updateOrganization);
    }
    case 'show': {
      const { organization } = await rt.run('CliOrganization', { id: p.operand });
      return recordOutput(present(organization));
    }
    case 'list': {
      const all = await allPages(async (after) => (await rt.run('CliOrganizations', { after })).organizations);
      return listOutput(all, ['id', 'name', 'plan', 'listed', 'demo', 'complete']);
    }
    default:
      throw new Error(`No runner for 'orgs ${sub}'`);
  }
}

function profile(p: Parsed) {
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
