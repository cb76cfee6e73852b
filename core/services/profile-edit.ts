import { PLANS, type Plan } from '../entities/index.ts';
import { DomainError, invalidInput } from '../errors.ts';
import type { OrganizationProfile } from '../public-views.ts';
import * as v from '../validate.ts';

// The checks of an organization's profile, and an admin's edit of it: the fields an admin may
// change, each checked on its own.

/** An organization's profile fields as the operator and the admins set them (each optional). */
export interface OrganizationProfileInput {
  name?: string;
  plan?: Plan;
  listed?: boolean;
  demo?: boolean;
  complete?: boolean;
  description?: string;
  website?: string | null;
  logoUrl?: string | null;
  sectors?: string[];
  capabilities?: string[];
  networks?: string[];
  city?: string | null;
  region?: string | null;
  country?: string | null;
}

/** The public profile fields an organization's admins may change; the plan and listing flags stay operator-only. */
export const PUBLIC_PROFILE_FIELDS = [
  'name',
  'description',
  'website',
  'logoUrl',
  'city',
  'region',
  'country',
  'sectors',
  'capabilities',
  'networks',
] as const;

export type PublicProfileChanges = Pick<OrganizationProfileInput, (typeof PUBLIC_PROFILE_FIELDS)[number]>;

/** A field refused, named as the services name it (`logo_url`, `country`…). */
export interface InputProblem {
  field: string;
  message: string;
}

/** The profile after the change (saved or previewed), or every problem and no profile. */
export interface ProfileEdit {
  profile: OrganizationProfile | null;
  problems: InputProblem[];
}

/** Each public field checked on its own, so that every refusal is reported at once. */
export function checkEachField(changes: PublicProfileChanges): { fields: OrganizationProfileInput; problems: InputProblem[] } {
  const fields: OrganizationProfileInput = {};
  const problems: InputProblem[] = [];
  for (const key of PUBLIC_PROFILE_FIELDS) {
    if (changes[key] === undefined) continue;
    try {
      Object.assign(fields, checkProfile({ [key]: changes[key] }));
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'invalid_input') throw error;
      problems.push({ field: error.field ?? key, message: error.message });
    }
  }
  return { fields, problems };
}

/** The changed fields only: an absent field leaves the profile as it is. */
export function definedOnly(fields: OrganizationProfileInput): OrganizationProfileInput {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** A list field's refusals: `one` names an entry, `many` the list. */
const listWords = (one: string, many: string): v.Words => ({
  control: `Remove the control characters from the ${many}.`,
  entryLong: `Keep each ${one} to 80 characters or fewer.`,
  tooMany: `List at most 30 ${many}.`,
});

/**
 * The profile's refusals in plain words: admins read them on the edit page and in GraphQL's
 * `problems`, operators at the command line.
 */
const WORDS = {
  name: {
    control: 'Remove the control characters from the name.',
    empty: 'Enter the name of the organization.',
    long: 'Keep the name to 200 characters or fewer.',
  },
  description: {
    control: 'Remove the control characters from the description (line breaks are fine).',
    long: 'Keep the description to 5,000 characters or fewer.',
  },
  website: {
    notUrl: 'Enter a website address that starts with https://, such as https://example.org.',
    notHttp: 'Enter a website address that starts with https:// or http://.',
    long: 'Keep the website address to 500 characters or fewer.',
  },
  logoUrl: {
    notUrl: 'Enter the address of the logo image, starting with https://, such as https://example.org/logo.png.',
    notHttp: 'Enter a logo address that starts with https:// or http://.',
    long: 'Keep the logo address to 500 characters or fewer.',
  },
  sectors: listWords('sector', 'sectors'),
  capabilities: listWords('capability', 'capabilities'),
  networks: listWords('network', 'networks'),
  city: { control: 'Remove the control characters from the city.', long: 'Keep the city to 120 characters or fewer.' },
  region: { control: 'Remove the control characters from the region.', long: 'Keep the region to 120 characters or fewer.' },
  country: { notCountry: 'Enter the country as its two-letter code, such as FR or GB.' },
} satisfies Partial<Record<keyof OrganizationProfileInput, v.Words>>;

/** The profile fields checked and trimmed; the first refusal throws. */
export function checkProfile(input: OrganizationProfileInput): OrganizationProfileInput {
  const out: OrganizationProfileInput = {};
  if (input.name !== undefined) out.name = v.text('name', input.name, { max: 200, words: WORDS.name });
  if (input.plan !== undefined) {
    if (!PLANS.includes(input.plan)) throw invalidInput('plan', `Choose one of the plans: ${PLANS.join(', ')}.`);
    out.plan = input.plan;
  }
  for (const flag of ['listed', 'demo', 'complete'] as const) if (input[flag] !== undefined) out[flag] = input[flag];
  if (input.description !== undefined) {
    out.description = v.text('description', input.description, { min: 0, max: 5_000, words: WORDS.description });
  }
  if (input.website !== undefined) out.website = v.httpUrl('website', input.website, WORDS.website);
  if (input.logoUrl !== undefined) out.logoUrl = v.httpUrl('logo_url', input.logoUrl, WORDS.logoUrl);
  for (const key of ['sectors', 'capabilities', 'networks'] as const) {
    const values = input[key];
    if (values !== undefined) out[key] = v.list(key, values, { maxItems: 30, maxLength: 80, words: WORDS[key] });
  }
  if (input.city !== undefined) out.city = v.optionalText('city', input.city, 120, WORDS.city);
  if (input.region !== undefined) out.region = v.optionalText('region', input.region, 120, WORDS.region);
  if (input.country !== undefined) out.country = v.country('country', input.country, WORDS.country);
  return out;
}
