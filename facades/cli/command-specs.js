// @ts-check
// Every command of `packline`, its operand and its flags, declared once: the help texts are
// rendered from here (facades/cli/usage.js) and the commands parse their arguments against it
// (facades/cli/args.ts), so a flag a command accepts is a flag its help describes. Plain
// JavaScript, like usage.js: help is answered before any TypeScript loads.

/**
 * @typedef {object} Flag
 * @property {string} name without the dashes, as the command reads it (`expires-at`)
 * @property {string} [value] placeholder of the value (`ID`); a flag without one is a switch
 * @property {boolean} [required]
 * @property {'both' | 'only'} [negation] `both`: `--x` and `--no-x` are shown; `only`: `--no-x` alone is
 * @property {string} help
 */

/**
 * @typedef {object} Spec One runnable command: `packline keys create`, `packline migrate`.
 * @property {string} summary
 * @property {string} [operand] placeholder of its one positional argument (`KEY_ID`), if it takes one
 * @property {Flag[]} flags
 * @property {string[]} examples
 */

/**
 * @typedef {object} Group A command with subcommands: `packline keys`.
 * @property {string} summary
 * @property {Record<string, Spec>} subcommands
 */

/** @param {string} [help] @param {string} [value] @returns {Flag} */
const org = (help = 'the organization (its id, such as atelier-nord)', value = 'ID') => ({ name: 'org', value, required: true, help });

/** @type {Flag[]} */
const PROFILE = [
  { name: 'description', value: 'TEXT', help: 'what the organization does' },
  { name: 'website', value: 'URL', help: 'its website' },
  { name: 'city', value: 'CITY', help: 'city' },
  { name: 'region', value: 'REGION', help: 'region' },
  { name: 'country', value: 'CC', help: 'ISO 3166-1 alpha-2 country code, such as FR' },
  { name: 'sectors', value: 'LIST', help: 'comma-separated sectors' },
  { name: 'capabilities', value: 'LIST', help: 'comma-separated capabilities' },
  { name: 'networks', value: 'LIST', help: 'comma-separated networks it belongs to' },
];

/** @type {Flag[]} */
const NEED_CONTENT = [
  { name: 'title', value: 'TEXT', help: 'the title' },
  { name: 'description', value: 'TEXT', help: 'what is needed' },
  { name: 'expertise', value: 'LIST', help: 'comma-separated required expertise' },
  { name: 'remote', help: 'remote work is allowed' },
  { name: 'city', value: 'CITY', help: 'where the work is' },
  { name: 'region', value: 'REGION', help: 'region' },
  { name: 'country', value: 'CC', help: 'ISO 3166-1 alpha-2 country code' },
  { name: 'deadline', value: 'ISO8601', help: 'answers wanted by this date, such as 2027-03-31' },
];

/** @type {Flag[]} */
const EVENT_FIELDS = [
  { name: 'title', value: 'TEXT', help: 'the title' },
  { name: 'description', value: 'TEXT', help: 'what happens' },
  { name: 'starts-at', value: 'ISO8601', help: 'start, with a time zone: 2027-05-12T09:00:00+02:00' },
  { name: 'ends-at', value: 'ISO8601', help: 'end, after the start' },
  { name: 'timezone', value: 'TZ', help: 'IANA time zone, such as Europe/Paris (default UTC)' },
  { name: 'online', help: 'held online (else give --city and --country)' },
  { name: 'city', value: 'CITY', help: 'where it is held' },
  { name: 'region', value: 'REGION', help: 'region' },
  { name: 'country', value: 'CC', help: 'ISO 3166-1 alpha-2 country code' },
];

/** @type {Flag[]} */
const DESTINATION_CHOICES = [
  { name: 'language', value: 'en|fr', help: 'language of chat and suite messages (default en)' },
  {
    name: 'kinds',
    value: 'LIST',
    help: 'comma-separated event kinds it receives: need.created, need.updated, need.withdrawn, event.created, event.updated, event.cancelled (default all)',
  },
  { name: 'scope', value: 'platform|own', help: "own: the organization's own content (default); platform: the public feed" },
];

/** @type {Flag} */
const DESTINATION_URL = { name: 'url', value: 'URL', help: 'https address it is sent to; never a private or reserved address' };

/** @param {string} summary @param {string} operand @param {string} example @returns {Spec} */
const byId = (summary, operand, example) => ({ summary, operand, flags: [], examples: [example] });

/** @type {Record<string, Spec | Group>} */
export const COMMANDS = {
  start: {
    summary: 'serve the API, the pages and the connectors, and deliver webhooks (what `npm start` runs)',
    flags: [
      {
        name: 'role',
        value: 'all|api|dispatcher',
        help: 'all (default) serves HTTP and delivers webhooks; api serves HTTP only; dispatcher delivers webhooks and answers /healthz, /readyz and /metrics only (or ROLE)',
      },
      { name: 'demo', negation: 'only', help: 'load no demo data on a fresh database' },
      { name: 'show-demo-key', help: 'print the demo API key in production too' },
    ],
    examples: ['packline start', 'packline start --role dispatcher'],
  },
  migrate: { summary: 'bring the database schema up to date', flags: [], examples: ['packline migrate'] },
  seed: {
    summary: 'load the demo data (once), or bulk-insert generated public needs and events',
    flags: [
      {
        name: 'needs',
        value: 'N',
        help: 'insert N generated public needs (at most 5,000,000), as already-published history: no webhook is sent',
      },
      { name: 'events', value: 'N', help: 'insert N generated upcoming public events (at most 5,000,000), likewise' },
    ],
    examples: ['packline seed', 'packline seed --needs 100000 --events 20000'],
  },
  orgs: {
    summary: 'organizations and their plans',
    subcommands: {
      create: {
        summary: 'create an organization',
        flags: [
          { name: 'id', value: 'ID', required: true, help: 'lowercase slug: letters, digits and dashes, up to 64 characters' },
          { name: 'name', value: 'NAME', required: true, help: 'its name' },
          { name: 'plan', value: 'base|alpha|clan', required: true, help: 'its plan, which sets its allowances' },
          { name: 'unlisted', help: 'not listed by the public assistant connector' },
          { name: 'demo', help: 'a demonstration account: its content is never public output' },
          { name: 'incomplete', help: 'its profile is incomplete (not listed by the public assistant connector)' },
          ...PROFILE,
        ],
        examples: [
          'packline orgs create --id acme-tools --name "Acme Tools" --plan alpha --city Lyon --country FR --sectors tooling,robotics',
        ],
      },
      update: {
        summary: "change an organization's name, plan, listing or profile; absent flags stay as they are",
        operand: 'ID',
        flags: [
          { name: 'name', value: 'NAME', help: 'its name' },
          { name: 'plan', value: 'base|alpha|clan', help: 'its plan' },
          { name: 'listed', negation: 'both', help: 'listed (or not) by the public assistant connector' },
          { name: 'demo', negation: 'both', help: 'a demonstration account (or not)' },
          { name: 'complete', negation: 'both', help: 'its profile is complete (or not)' },
          ...PROFILE,
        ],
        examples: ['packline orgs update acme-tools --plan clan --no-listed --website https://acme.example'],
      },
      show: byId('show one organization', 'ID', 'packline orgs show atelier-nord'),
      list: { summary: 'list every organization', flags: [], examples: ['packline orgs list', 'packline orgs list --json'] },
    },
  },
  keys: {
    summary: "organizations' API keys (each shown once, stored hashed)",
    subcommands: {
      create: {
        summary: 'create an API key; the key is printed once',
        flags: [
          org('the organization the key reads as'),
          {
            name: 'scopes',
            value: 'LIST',
            required: true,
            help: 'comma-separated, any of organization:read, opportunities:read, events:read',
          },
          { name: 'expires-at', value: 'ISO8601', required: true, help: 'when it stops working, in the future: 2027-01-31T00:00:00Z' },
          { name: 'name', value: 'NAME', help: 'a label to tell keys apart' },
        ],
        examples: [
          'packline keys create --org atelier-nord --scopes organization:read,events:read --expires-at 2027-01-31T00:00:00Z --name "CI"',
        ],
      },
      list: {
        summary: "list an organization's keys (never the keys themselves)",
        flags: [org()],
        examples: ['packline keys list --org atelier-nord'],
      },
      revoke: byId('revoke a key: the next request with it is refused', 'KEY_ID', 'packline keys revoke key_3f9a…'),
      roll: {
        summary:
          "replace a key by a new one (printed once) of the same name and scopes; the old one works on for the overlap, outside the plan's limit",
        operand: 'KEY_ID',
        flags: [{ name: 'overlap', value: 'WHEN', required: true, help: 'how long the old key keeps working: now, 1h, 24h or 7d' }],
        examples: ['packline keys roll key_3f9a… --overlap 24h'],
      },
    },
  },
  needs: {
    summary: "organizations' needs (opportunities)",
    subcommands: {
      publish: {
        summary: 'publish a need (or, with --draft, keep it as a draft)',
        flags: [
          org('the organization that needs it'),
          ...NEED_CONTENT.map((f) => (['title', 'description', 'expertise'].includes(f.name) ? { ...f, required: true } : f)),
          { name: 'discreet', help: 'readable in the API, never pushed by webhook' },
          { name: 'demo', help: 'demonstration content: never public output' },
          { name: 'draft', help: 'create it unpublished (publish it later with publish-draft)' },
        ],
        examples: [
          'packline needs publish --org atelier-nord --title "Acoustic survey" --description "Measure the reading rooms." --expertise acoustics,modelling --remote',
        ],
      },
      update: {
        summary: 'change a need; absent flags stay as they are',
        operand: 'ID',
        flags: NEED_CONTENT.map((f) => (f.name === 'remote' ? { ...f, negation: /** @type {const} */ ('both') } : f)),
        examples: ['packline needs update n_82f1… --title "Acoustic survey of two libraries" --no-remote'],
      },
      withdraw: byId('withdraw a need: it leaves the API and its subscribers are told', 'ID', 'packline needs withdraw n_82f1…'),
      'make-private': byId('make a need private: it leaves the API', 'ID', 'packline needs make-private n_82f1…'),
      'publish-draft': byId('publish a draft need', 'ID', 'packline needs publish-draft n_82f1…'),
      show: byId('show one need, whatever its state', 'ID', 'packline needs show n_82f1…'),
      list: {
        summary: 'list needs, newest first',
        flags: [
          { name: 'org', value: 'ID', help: "only this organization's" },
          { name: 'state', value: 'draft|public|private|withdrawn', help: 'only needs in this state' },
        ],
        examples: ['packline needs list --org atelier-nord --state public'],
      },
    },
  },
  events: {
    summary: "organizations' events",
    subcommands: {
      create: {
        summary: 'create a public event, online or in a place',
        flags: [
          org('the host organization'),
          ...EVENT_FIELDS.map((f) => (['title', 'starts-at', 'ends-at'].includes(f.name) ? { ...f, required: true } : f)),
          { name: 'host-contact-email', value: 'EMAIL', help: "the host's contact (internal: never output)" },
          { name: 'host-contact-phone', value: 'PHONE', help: "the host's phone (internal: never output)" },
          { name: 'host-notes', value: 'TEXT', help: 'notes for the host (internal: never output)' },
        ],
        examples: [
          'packline events create --org atelier-nord --title "Open studio" --starts-at 2027-05-12T09:00:00+02:00 --ends-at 2027-05-12T12:00:00+02:00 --city Lyon --country FR --timezone Europe/Paris',
        ],
      },
      update: {
        summary: 'change an event; absent flags stay as they are',
        operand: 'ID',
        flags: EVENT_FIELDS.map((f) => (f.name === 'online' ? { ...f, negation: /** @type {const} */ ('both') } : f)),
        examples: ['packline events update ev_51c2… --title "Open studio and lunch" --ends-at 2027-05-12T14:00:00+02:00'],
      },
      cancel: byId('cancel an event: it leaves the API and its subscribers are told', 'ID', 'packline events cancel ev_51c2…'),
      show: byId('show one event, cancelled ones too', 'ID', 'packline events show ev_51c2…'),
    },
  },
  destinations: {
    summary: "organizations' webhook destinations",
    subcommands: {
      create: {
        summary: 'add a webhook destination; a standard-json one gets a signing secret, printed once',
        flags: [
          org(),
          { name: 'format', value: 'standard-json|team-chat|collaboration-suite', required: true, help: 'what is sent' },
          { ...DESTINATION_URL, required: true },
          { name: 'name', value: 'NAME', help: 'to tell destinations apart, up to 100 characters' },
          { name: 'description', value: 'TEXT', help: 'up to 500 characters' },
          ...DESTINATION_CHOICES,
        ],
        examples: [
          'packline destinations create --org atelier-nord --format standard-json --url https://hooks.example.org/packline --name CRM --kinds need.created,need.updated',
        ],
      },
      list: { summary: "list an organization's destinations", flags: [org()], examples: ['packline destinations list --org atelier-nord'] },
      update: {
        summary: 'change a destination; its signing secret and retained deliveries stay (the format cannot change: add another)',
        operand: 'DESTINATION_ID',
        flags: [
          { name: 'name', value: 'NAME', help: 'to tell destinations apart, up to 100 characters' },
          { name: 'description', value: 'TEXT', help: 'up to 500 characters' },
          { ...DESTINATION_URL, help: 'a new https address' },
          ...DESTINATION_CHOICES,
        ],
        examples: ['packline destinations update dst_7d0e… --name "CRM (staging)" --kinds need.created --language fr'],
      },
      pause: byId(
        'pause a destination: nothing is sent to it, nor kept for it, until it is resumed',
        'DESTINATION_ID',
        'packline destinations pause dst_7d0e…',
      ),
      resume: byId(
        'resume a paused (or disabled) destination: it takes signals from now on',
        'DESTINATION_ID',
        'packline destinations resume dst_7d0e…',
      ),
      delete: byId('delete a destination and its deliveries', 'DESTINATION_ID', 'packline destinations delete dst_7d0e…'),
      'rotate-secret': {
        summary: 'give a destination a new signing secret (printed once); the previous one keeps signing for the overlap',
        operand: 'DESTINATION_ID',
        flags: [
          { name: 'overlap', value: 'WHEN', help: 'how long the previous secret keeps signing: now, 1h, 24h (the default), 3d or 7d' },
        ],
        examples: ['packline destinations rotate-secret dst_7d0e… --overlap 3d'],
      },
      enable: byId('turn a disabled or paused destination back on (as resume)', 'DESTINATION_ID', 'packline destinations enable dst_7d0e…'),
      test: {
        summary: 'queue a test signal to a destination, marked with X-Service-Test: 1',
        operand: 'DESTINATION_ID',
        flags: [{ name: 'kind', value: 'KIND', help: "the sample's event kind, one the destination receives (default its first)" }],
        examples: ['packline destinations test dst_7d0e…', 'packline destinations test dst_7d0e… --kind event.cancelled'],
      },
      'connect-team-chat': {
        summary: "print the chat provider's authorization address, for an admin of the chat workspace to open",
        flags: [org(), ...DESTINATION_CHOICES],
        examples: ['packline destinations connect-team-chat --org atelier-nord --language fr'],
      },
    },
  },
  deliveries: {
    summary: 'webhook deliveries and their attempts',
    subcommands: {
      list: {
        summary: "list an organization's retained deliveries, newest first",
        flags: [org(), { name: 'destination', value: 'ID', help: "only this destination's" }],
        examples: ['packline deliveries list --org atelier-nord --destination dst_7d0e…'],
      },
      show: byId('show a delivery and each attempt (headers both ways, the answer)', 'DELIVERY_ID', 'packline deliveries show dlv_1b2c…'),
      retry: byId('retry a failed delivery now (clan plan)', 'DELIVERY_ID', 'packline deliveries retry dlv_1b2c…'),
    },
  },
  esign: {
    summary: 'e-signature provider connections',
    subcommands: {
      connect: {
        summary: 'connect a provider: prints the inbound URL and the secret (shown once)',
        flags: [org(), { name: 'provider', value: 'NAME', required: true, help: "the provider's name" }],
        examples: ['packline esign connect --org atelier-nord --provider docuseal'],
      },
      list: { summary: "list an organization's connections", flags: [org()], examples: ['packline esign list --org atelier-nord'] },
      disconnect: byId('disconnect a provider', 'CONNECTION_ID', 'packline esign disconnect esc_9e8d…'),
    },
  },
  members: {
    summary: 'members (people who sign in to the pages and connect assistants)',
    subcommands: {
      create: {
        summary: 'create a member, optionally in an organization',
        flags: [
          { name: 'email', value: 'EMAIL', required: true, help: 'their email address (their sign-in)' },
          { name: 'name', value: 'NAME', required: true, help: 'their name' },
          { name: 'password', value: 'PASSWORD', help: 'lets them sign in; at least 10 characters' },
          { name: 'org', value: 'ID', help: 'adds them to this organization' },
          { name: 'role', value: 'admin|member', help: 'their role there (default member)' },
        ],
        examples: ['packline members create --email clara@example.org --name "Clara Vidal" --org atelier-nord --role admin --password …'],
      },
      list: { summary: "list an organization's members", flags: [org()], examples: ['packline members list --org atelier-nord'] },
      'set-password': {
        summary: "set a member's password: every session and connected application ends",
        flags: [
          { name: 'email', value: 'EMAIL', required: true, help: 'the member' },
          { name: 'password', value: 'PASSWORD', required: true, help: 'at least 10 characters' },
        ],
        examples: ['packline members set-password --email clara@example.org --password …'],
      },
      'sign-out-everywhere': {
        summary: 'end every session and connected application of a member',
        flags: [{ name: 'email', value: 'EMAIL', required: true, help: 'the member' }],
        examples: ['packline members sign-out-everywhere --email clara@example.org'],
      },
      'reset-link': {
        summary: 'print a single-use link (valid 30 minutes) that lets a member choose a new password',
        flags: [{ name: 'email', value: 'EMAIL', required: true, help: 'the member' }],
        examples: ['packline members reset-link --email clara@example.org'],
      },
    },
  },
  grants: {
    summary: "members' connected applications (member assistant connector)",
    subcommands: {
      list: {
        summary: "list a member's connected applications",
        flags: [{ name: 'email', value: 'EMAIL', required: true, help: 'the member' }],
        examples: ['packline grants list --email clara@example.org'],
      },
      revoke: byId('disconnect an application: its next call fails', 'GRANT_ID', 'packline grants revoke grt_4a5b…'),
    },
  },
};

/** How the overview groups the commands. @type {[string, string[]][]} */
export const SECTIONS = [
  ['Server', ['start', 'migrate', 'seed']],
  ['Organizations', ['orgs']],
  ['API keys', ['keys']],
  ['Needs', ['needs']],
  ['Events', ['events']],
  ['Webhooks', ['destinations', 'deliveries']],
  ['E-signature', ['esign']],
  ['Members', ['members']],
  ['Connected applications (member assistant connector)', ['grants']],
];

/**
 * The exit codes, in the order `--help` lists them. Domain errors map to them once, in
 * facades/cli/failure.ts.
 */
export const EXIT_CODES = /** @type {const} */ ({
  ok: { code: 0, help: 'success' },
  unexpected: { code: 1, help: 'unexpected failure: a defect, or the database could not be reached' },
  usage: {
    code: 2,
    help: 'usage: an unknown command or flag, a missing or malformed value, input the service finds invalid, a bad configuration',
  },
  notFound: { code: 3, help: 'not found: no object with that id' },
  refused: { code: 4, help: 'refused: not allowed, or not in a state that allows it (pausing a paused destination)' },
  conflict: { code: 5, help: 'conflict or plan limit: the id is taken, or the plan allows no more' },
});
