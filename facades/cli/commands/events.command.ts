import { present } from '../../operation-runner.ts';
import { CliError, flag, isoDate, optional, parse, required, type Parsed } from '../args.ts';
import { recordOutput, type Output, type Runtime } from '../runtime.ts';

export async function events(rt: Runtime, sub: string, args: string[]): Promise<Output> {
  const p = parse(args, `events ${sub}`);
  switch (sub) {
    case 'create': {
      const input = {
        ...fields(p),
        organizationId: required(p, 'org'),
        title: required(p, 'title'),
        startsAt: isoDate(required(p, 'starts-at'), 'starts-at')!,
        endsAt: isoDate(required(p, 'ends-at'), 'ends-at')!,
        hostContactEmail: optional(p, 'host-contact-email'),
        hostContactPhone: optional(p, 'host-contact-phone'),
        hostNotes: optional(p, 'host-notes'),
      };
      if (!input.online && !(input.city && input.country)) throw new CliError(`Give --online, or --city and --country\nusage: ${p.usage}`);
      return recordOutput((await rt.run('CliCreateEvent', { input })).createEvent);
    }
    case 'update':
      return recordOutput((await rt.run('CliUpdateEvent', { id: p.operand, input: fields(p) })).updateEvent);
    case 'cancel':
      return recordOutput((await rt.run('CliCancelEvent', { id: p.operand })).cancelEvent);
    case 'show':
      return recordOutput(present((await rt.run('CliEvent', { id: p.operand })).anyEvent));
    default:
      throw new Error(`No runner for 'events ${sub}'`);
  }
}

function fields(p: Parsed) {
  return {
    title: optional(p, 'title'),
    description: optional(p, 'description'),
    startsAt: isoDate(optional(p, 'starts-at'), 'starts-at'),
    endsAt: isoDate(optional(p, 'ends-at'), 'ends-at'),
    timezone: optional(p, 'timezone'),
    online: flag(p, 'online'),
    city: optional(p, 'city'),
    region: optional(p, 'region'),
    country: optional(p, 'country'),
  };
}
