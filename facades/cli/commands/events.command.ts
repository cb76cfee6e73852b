import { BOOLEAN, STRING, flag, isoDate, noPositionals, optional, parse, positional, required, type Parsed } from '../args.ts';
import { CliError, describeRecord, snakeCase, type Output, type Runtime } from '../runtime.ts';

const CREATE =
  'packline events create --org ID --title T --starts-at ISO --ends-at ISO [--online | --city C --country CC] [--timezone TZ] [--description D] [--json]';
const UPDATE =
  'packline events update ID [--title T] [--starts-at ISO] [--ends-at ISO] [--online | --city C --country CC] [--timezone TZ] [--description D] [--json]';
const FIELDS = {
  title: STRING,
  description: STRING,
  'starts-at': STRING,
  'ends-at': STRING,
  timezone: STRING,
  online: BOOLEAN,
  city: STRING,
  region: STRING,
  country: STRING,
} as const;

type Event = Record<string, unknown> & { id: string };

export async function events(rt: Runtime, sub: string | undefined, args: string[]): Promise<Output> {
  switch (sub) {
    case 'create': {
      const p = parse(
        args,
        { ...FIELDS, org: STRING, 'host-contact-email': STRING, 'host-contact-phone': STRING, 'host-notes': STRING },
        CREATE,
      );
      noPositionals(p, CREATE);
      const input = {
        ...fields(p),
        organizationId: required(p, 'org', CREATE),
        title: required(p, 'title', CREATE),
        startsAt: isoDate(required(p, 'starts-at', CREATE), 'starts-at'),
        endsAt: isoDate(required(p, 'ends-at', CREATE), 'ends-at'),
        hostContactEmail: optional(p, 'host-contact-email'),
        hostContactPhone: optional(p, 'host-contact-phone'),
        hostNotes: optional(p, 'host-notes'),
      };
      if (!input.online && !(input.city && input.country)) throw new CliError(`Give --online, or --city and --country\nusage: ${CREATE}`);
      const data = await rt.run<{ createEvent: Event }>('CliCreateEvent', { input });
      return show(data.createEvent);
    }
    case 'update': {
      const p = parse(args, FIELDS, UPDATE);
      const id = positional(p, 'event id', UPDATE);
      const data = await rt.run<{ updateEvent: Event }>('CliUpdateEvent', { id, input: fields(p) });
      return show(data.updateEvent);
    }
    case 'cancel': {
      const usage = 'packline events cancel ID [--json]';
      const p = parse(args, {}, usage);
      const data = await rt.run<{ cancelEvent: Event }>('CliCancelEvent', { id: positional(p, 'event id', usage) });
      return show(data.cancelEvent);
    }
    case 'show': {
      const usage = 'packline events show ID [--json]';
      const p = parse(args, {}, usage);
      const data = await rt.run<{ anyEvent: Event }>('CliEvent', { id: positional(p, 'event id', usage) });
      return show(data.anyEvent);
    }
    default:
      throw new CliError(`Unknown command 'events ${sub ?? ''}'. Commands: events create | update | cancel | show`);
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

const show = (event: Event): Output => ({ json: snakeCase(event), text: describeRecord(event) });
