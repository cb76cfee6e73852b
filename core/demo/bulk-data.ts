import type { Plan } from '../entities/index.ts';
import { newId } from '../ids.ts';

// Generated public content for `packline seed --needs N --events N`: a few listed, complete
// organizations and varied needs and events built from the lists below. Nothing private is
// generated: no billing e-mail, internal notes or host contact fields.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface BulkOrganization {
  id: string;
  name: string;
  plan: Plan;
  description: string;
  city: string;
  region: string | null;
  country: string;
  sectors: string[];
  capabilities: string[];
}

export const BULK_ORGANIZATIONS: BulkOrganization[] = [
  {
    id: 'scale-northwind-data',
    name: 'Northwind Data Cooperative',
    plan: 'clan',
    description: 'Data platforms and analytics for public services.',
    city: 'Rotterdam',
    region: 'South Holland',
    country: 'NL',
    sectors: ['data', 'software'],
    capabilities: ['data engineering', 'analytics', 'python'],
  },
  {
    id: 'scale-ardoise-architectes',
    name: 'Ardoise Architectes',
    plan: 'alpha',
    description: 'Architecture of schools, libraries and housing.',
    city: 'Rennes',
    region: 'Bretagne',
    country: 'FR',
    sectors: ['architecture'],
    capabilities: ['architecture', 'interior design', 'timber construction'],
  },
  {
    id: 'scale-solvik-energi',
    name: 'Solvik Energi',
    plan: 'clan',
    description: 'Solar, heat pumps and retrofits for municipalities.',
    city: 'Gothenburg',
    region: null,
    country: 'SE',
    sectors: ['energy', 'construction'],
    capabilities: ['solar installation', 'energy audit', 'building retrofit'],
  },
  {
    id: 'scale-mirador-digital',
    name: 'Mirador Digital',
    plan: 'base',
    description: 'Web and mobile products for cultural institutions.',
    city: 'Valencia',
    region: 'Comunitat Valenciana',
    country: 'ES',
    sectors: ['software', 'design'],
    capabilities: ['web development', 'mobile development', 'ux design'],
  },
  {
    id: 'scale-hafen-maschinenbau',
    name: 'Hafen Maschinenbau',
    plan: 'alpha',
    description: 'Prototyping and small-series mechanical engineering.',
    city: 'Hamburg',
    region: null,
    country: 'DE',
    sectors: ['manufacturing'],
    capabilities: ['mechanical engineering', 'cnc machining', 'prototyping'],
  },
  {
    id: 'scale-lingua-bridge',
    name: 'Lingua Bridge',
    plan: 'base',
    description: 'Translation, localisation and plain-language writing.',
    city: 'Brussels',
    region: null,
    country: 'BE',
    sectors: ['translation'],
    capabilities: ['translation', 'localisation', 'copywriting'],
  },
  {
    id: 'scale-kestrel-security',
    name: 'Kestrel Security',
    plan: 'clan',
    description: 'Security audits and secure operations.',
    city: 'Dublin',
    region: 'Leinster',
    country: 'IE',
    sectors: ['security'],
    capabilities: ['penetration testing', 'security audit', 'devops'],
  },
  {
    id: 'scale-piazza-comunicazione',
    name: 'Piazza Comunicazione',
    plan: 'alpha',
    description: 'Campaigns, video and social media for non-profits.',
    city: 'Turin',
    region: 'Piedmont',
    country: 'IT',
    sectors: ['marketing', 'media'],
    capabilities: ['brand strategy', 'motion design', 'social media'],
  },
];

/** A role a need asks for, and the expertise it lists. */
const ROLES: [title: string, expertise: string[]][] = [
  ['Data engineer', ['data engineering', 'python', 'sql', 'airflow']],
  ['Analytics engineer', ['analytics', 'dbt', 'sql']],
  ['Machine learning engineer', ['machine learning', 'python', 'mlops']],
  ['Frontend developer', ['web development', 'typescript', 'accessibility']],
  ['Mobile developer', ['mobile development', 'kotlin', 'swift']],
  ['Backend developer', ['web development', 'postgresql', 'node.js']],
  ['DevOps engineer', ['devops', 'kubernetes', 'terraform']],
  ['UX researcher', ['user research', 'ux design']],
  ['Accessibility specialist', ['accessibility', 'wcag', 'ux design']],
  ['Structural engineer', ['structural engineering', 'timber construction']],
  ['Interior designer', ['interior design', '3d modelling']],
  ['Landscape architect', ['landscape architecture', 'urban planning']],
  ['Energy auditor', ['energy audit', 'building retrofit']],
  ['Solar installer', ['solar installation', 'electrical engineering']],
  ['Mechanical engineer', ['mechanical engineering', 'cad', 'prototyping']],
  ['CNC machining partner', ['cnc machining', 'quality control']],
  ['Translator', ['translation', 'localisation']],
  ['Copywriter', ['copywriting', 'plain language']],
  ['Motion designer', ['motion design', 'video production']],
  ['Security auditor', ['security audit', 'penetration testing']],
  ['Data protection counsel', ['gdpr compliance', 'contract law']],
  ['Project manager', ['project management', 'agile']],
  ['Brand strategist', ['brand strategy', 'copywriting']],
  ['Sound designer', ['sound design', 'video production']],
];

const SUBJECTS = [
  'for a school extension',
  'for a logistics dashboard',
  'for a community centre retrofit',
  'for a museum website',
  'for a public library',
  'for a regional transit app',
  'for a hospital wayfinding project',
  'for a housing cooperative',
  'for a climate campaign',
  'for a municipal open-data portal',
  'for a food bank network',
  'for a sports club renovation',
  'for a river clean-up programme',
  'for a citizen science platform',
  'for a theatre season launch',
  'for a cycling network study',
  'for an archive digitisation',
  'for an after-school programme',
  'for a water utility',
  'for a rural health centre',
];

const DURATIONS = ['two weeks', 'a month', 'six weeks', 'a quarter', 'half a year'];

/** City, region, country, time zone. */
const PLACES: [string, string | null, string, string][] = [
  ['Lille', 'Hauts-de-France', 'FR', 'Europe/Paris'],
  ['Lyon', 'Auvergne-Rhône-Alpes', 'FR', 'Europe/Paris'],
  ['Berlin', null, 'DE', 'Europe/Berlin'],
  ['Munich', 'Bavaria', 'DE', 'Europe/Berlin'],
  ['Madrid', null, 'ES', 'Europe/Madrid'],
  ['Lisbon', null, 'PT', 'Europe/Lisbon'],
  ['Ghent', 'Flanders', 'BE', 'Europe/Brussels'],
  ['Utrecht', null, 'NL', 'Europe/Amsterdam'],
  ['Copenhagen', null, 'DK', 'Europe/Copenhagen'],
  ['Milan', 'Lombardy', 'IT', 'Europe/Rome'],
  ['Montréal', 'Québec', 'CA', 'America/Toronto'],
  ['Edinburgh', 'Scotland', 'GB', 'Europe/London'],
];

const EVENT_KINDS = [
  'Open day',
  'Workshop',
  'Meet-up',
  'Webinar',
  'Hackathon',
  'Site visit',
  'Breakfast talk',
  'Training day',
  'Round table',
  'Demo day',
];
const EVENT_TOPICS = [
  'timber construction',
  'open data in cities',
  'accessible design',
  'energy retrofits',
  'small-series manufacturing',
  'plain-language writing',
  'secure operations',
  'machine learning in logistics',
  'community solar',
  'cultural heritage online',
  'translation tools',
  'public procurement for small teams',
];
const EVENT_HOURS = [1, 2, 3, 4, 8, 8, 24, 48];

/** A small seeded generator (mulberry32): varied content, reproducible for a given seed. */
export function randomSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** One need row, in entity terms; dates are epoch milliseconds. */
export interface BulkNeed {
  id: string;
  organizationId: string;
  title: string;
  description: string;
  requiredExpertise: string[];
  remoteAllowed: boolean;
  city: string | null;
  region: string | null;
  country: string | null;
  deadline: number | null;
  publishedAt: number;
}

export interface BulkEvent {
  id: string;
  hostId: string;
  title: string;
  description: string;
  startsAt: number;
  endsAt: number;
  timezone: string;
  online: boolean;
  city: string | null;
  region: string | null;
  country: string | null;
  createdAt: number;
}

/**
 * Ordering keys with ties, as real feeds have them: times on whole minutes (`step`), one row in
 * eight sharing the previous row's time, and one burst of rows published at the very same instant
 * (an import), which keyset pages must cross without skipping or repeating a row.
 */
export class TimeLine {
  private previous: number | undefined;
  private index = 0;
  private readonly burstAt: number;
  private burstLeft: number;

  private readonly random: () => number;
  private readonly from: number;
  private readonly span: number;
  private readonly step: number;

  constructor(random: () => number, from: number, span: number, step: number, total: number) {
    this.random = random;
    this.from = from;
    this.span = span;
    this.step = step;
    this.burstAt = Math.floor(total / 3);
    this.burstLeft = Math.min(500, Math.floor(total / 20));
  }

  next(): number {
    const i = this.index++;
    const inBurst = i >= this.burstAt && this.burstLeft > 0;
    if (inBurst) this.burstLeft--;
    const tie = this.previous !== undefined && (inBurst ? i > this.burstAt : this.random() < 1 / 8);
    if (!tie) this.previous = this.from + Math.floor((this.random() * this.span) / this.step) * this.step;
    return this.previous!;
  }
}

export function needTimeLine(random: () => number, now: number, total: number): TimeLine {
  // Published over the last two years, the newest a minute ago.
  return new TimeLine(random, Math.floor((now - 730 * DAY) / MINUTE) * MINUTE, 730 * DAY - MINUTE, MINUTE, total);
}

export function eventTimeLine(random: () => number, now: number, total: number): TimeLine {
  // Starting from tomorrow over three years, on the half hour: all upcoming, so all listed.
  return new TimeLine(random, Math.ceil((now + DAY) / (30 * MINUTE)) * 30 * MINUTE, 3 * 365 * DAY, 30 * MINUTE, total);
}

export function bulkNeed(random: () => number, publishedAt: number): BulkNeed {
  const org = pick(random, BULK_ORGANIZATIONS);
  const [role, skills] = pick(random, ROLES);
  const subject = pick(random, SUBJECTS);
  const expertise = skills.filter((_, i) => i === 0 || random() < 0.6);
  const remote = random() < 0.45;
  const place = remote && random() < 0.5 ? null : pick(random, PLACES);
  const title = `${role} ${subject}`;
  return {
    id: newId('need'),
    organizationId: org.id,
    title,
    description: `${org.name} is looking for a ${role.toLowerCase()} ${subject}, for about ${pick(random, DURATIONS)}. ${remote ? 'Remote work is welcome.' : 'Work happens on site.'}`,
    requiredExpertise: expertise,
    remoteAllowed: remote,
    city: place?.[0] ?? null,
    region: place?.[1] ?? null,
    country: place?.[2] ?? null,
    deadline: random() < 0.6 ? publishedAt + (30 + Math.floor(random() * 90)) * DAY : null,
    publishedAt,
  };
}

export function bulkEvent(random: () => number, startsAt: number, now: number): BulkEvent {
  const host = pick(random, BULK_ORGANIZATIONS);
  const kind = pick(random, EVENT_KINDS);
  const topic = pick(random, EVENT_TOPICS);
  const online = kind === 'Webinar' || random() < 0.2;
  const place = online ? null : pick(random, PLACES);
  return {
    id: newId('event'),
    hostId: host.id,
    title: `${kind}: ${topic}`,
    description: `${host.name} hosts a ${kind.toLowerCase()} on ${topic}.${online ? ' Online; the link is sent on registration.' : ` In ${place![0]}.`}`,
    startsAt,
    endsAt: startsAt + pick(random, EVENT_HOURS) * HOUR,
    timezone: place?.[3] ?? 'UTC',
    online,
    city: place?.[0] ?? null,
    region: place?.[1] ?? null,
    country: place?.[2] ?? null,
    createdAt: now - Math.floor(random() * 60 * DAY),
  };
}
