import { NEED_STATES } from '../../../core/index.ts';
import { present } from '../../operation-runner.ts';
import { flag, isoDate, list, oneOf, optional, parse, required, type Parsed } from '../args.ts';
import { allPages, listOutput, recordOutput, type Output, type Runtime } from '../runtime.ts';

export async function needs(rt: Runtime, sub: string, args: string[]): Promise<Output> {
  const p = parse(args, `needs ${sub}`);
  switch (sub) {
    case 'publish': {
      const input = {
        organizationId: required(p, 'org'),
        ...content(p),
        title: required(p, 'title'),
        description: required(p, 'description'),
        requiredExpertise: list(required(p, 'expertise')),
        discreet: flag(p, 'discreet'),
        demo: flag(p, 'demo'),
      };
      if (flag(p, 'draft')) return recordOutput((await rt.run('CliCreateNeedDraft', { input })).createNeedDraft);
      return recordOutput((await rt.run('CliPublishNeed', { input })).publishNeed);
    }
    case 'update':
      return recordOutput((await rt.run('CliUpdateNeed', { id: p.operand, input: content(p) })).updateNeed);
    case 'withdraw':
      return recordOutput((await rt.run('CliWithdrawNeed', { id: p.operand })).withdrawNeed);
    case 'make-private':
      return recordOutput((await rt.run('CliMakeNeedPrivate', { id: p.operand })).makeNeedPrivate);
    case 'publish-draft':
      return recordOutput((await rt.run('CliPublishNeedDraft', { id: p.operand })).publishNeedDraft);
    case 'show':
      return recordOutput(present((await rt.run('CliNeed', { id: p.operand })).need));
    case 'list': {
      const variables = { organizationId: optional(p, 'org'), state: oneOf(p, 'state', NEED_STATES) };
      const all = await allPages(async (after) => (await rt.run('CliNeeds', { ...variables, after })).needs);
      return listOutput(all, ['id', 'admin.state', 'title']);
    }
    default:
      throw new Error(`No runner for 'needs ${sub}'`);
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
