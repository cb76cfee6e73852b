// What a need's author writes (title, description, place, expertise, deadline): its checks and how
// a change is applied to the stored need.
import type { Need } from '../entities/index.ts';
import * as v from '../validate.ts';

export interface NeedContent {
  title?: string;
  description?: string;
  requiredExpertise?: string[];
  remoteAllowed?: boolean;
  city?: string | null;
  region?: string | null;
  country?: string | null;
  deadline?: Date | null;
}

/** The given fields, checked and normalised; a validation error on the first that fails. */
export function checkContent(input: NeedContent): NeedContent {
  const out: NeedContent = {};
  if (input.title !== undefined) out.title = v.text('title', input.title, { max: 200 });
  if (input.description !== undefined) out.description = v.text('description', input.description, { min: 0, max: 10_000 });
  if (input.requiredExpertise !== undefined)
    out.requiredExpertise = v.list('required_expertise', input.requiredExpertise, { maxItems: 20, maxLength: 80 });
  if (input.remoteAllowed !== undefined) out.remoteAllowed = input.remoteAllowed;
  if (input.city !== undefined) out.city = v.optionalText('city', input.city, 120);
  if (input.region !== undefined) out.region = v.optionalText('region', input.region, 120);
  if (input.country !== undefined) out.country = v.country('country', input.country);
  if (input.deadline !== undefined) out.deadline = input.deadline === null ? null : v.date('deadline', input.deadline);
  return out;
}

/** Applies the given fields; true when a public field actually changed. */
export function applyContent(need: Need, content: NeedContent): boolean {
  let changed = false;
  const set = <K extends keyof NeedContent>(key: K, equal: (a: Need[K], b: Need[K]) => boolean = Object.is) => {
    const value = content[key] as Need[K] | undefined;
    if (value === undefined || equal(need[key], value)) return;
    need[key] = value;
    changed = true;
  };
  set('title');
  set('description');
  set('requiredExpertise', (a, b) => JSON.stringify(a) === JSON.stringify(b));
  set('remoteAllowed');
  set('city');
  set('region');
  set('country');
  set('deadline', (a, b) => (a?.getTime() ?? null) === (b?.getTime() ?? null));
  return changed;
}
