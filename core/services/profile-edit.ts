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

/** The profile fields checked and trimmed; the first refusal throws. */
export function checkProfile(input: OrganizationProfileInput): OrganizationProfileInput {
  const out: OrganizationProfileInput = {};
  if (input.name !== undefined) out.name = v.text('name', input.name, { max: 200 });
  if (input.plan !== undefined) {
    if (!PLANS.includes(input.plan)) throw invalidInput('plan', `plan must be one of ${PLANS.join(', ')}`);
    out.plan = input.plan;
  }
  for (const flag of ['listed', 'demo', 'complete'] as const) if (input[flag] !== undefined) out[flag] = input[flag];
  if (input.description !== undefined) out.description = v.text('description', input.description, { min: 0, max: 5_000 });
  if (input.website !== undefined) out.website = v.httpUrl('website', input.website);
  if (input.logoUrl !== undefined) out.logoUrl = v.httpUrl('logo_url', input.logoUrl);
  for (const key of ['sectors', 'capabilities', 'networks'] as const) {
    const values = input[key];
    if (values !== undefined) out[key] = v.list(key, values, { maxItems: 30, maxLength: 80 });
  }
  if (input.city !== undefined) out.city = v.optionalText('city', input.city, 120);
  if (input.region !== undefined) out.region = v.optionalText('region', input.region, 120);
  if (input.country !== undefined) out.country = v.country('country', input.country);
  return out;
}
