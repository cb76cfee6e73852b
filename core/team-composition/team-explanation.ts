// The words of a team proposal: why each member was chosen and a summary of the whole team.
// Built from labels, names and counts only, never from the need text.
import type { OrganizationProfile, Place } from '../public-views.ts';
import type { PlaceMatch } from './place-fit.ts';

/** `a`, `a and b`, `a, b and c`. */
export function listLabels(labels: readonly string[]): string {
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** `14 completed packs` and `11 references and 2 certifications`, when there are any. */
export function proofReasons(proofs: OrganizationProfile['proofs']): string[] {
  const reasons: string[] = [];
  if (proofs.completedPacks > 0) reasons.push(count(proofs.completedPacks, 'completed pack', 'completed packs'));
  const others = [
    ...(proofs.references > 0 ? [count(proofs.references, 'reference', 'references')] : []),
    ...(proofs.certifications > 0 ? [count(proofs.certifications, 'certification', 'certifications')] : []),
  ];
  if (others.length > 0) reasons.push(listLabels(others));
  return reasons;
}

/** `based in Lille (same city)`, or nothing when no place was asked. */
export function placeReason(match: PlaceMatch, place: Place): string[] {
  if (match === 'unknown') return [];
  const where = (...parts: (string | null)[]) => parts.filter((p): p is string => !!p).join(', ') || 'an unknown place';
  switch (match) {
    case 'city':
      return [`based in ${where(place.city)} (same city)`];
    case 'region':
      return [`based in ${where(place.city, place.region)} (same region)`];
    case 'country':
      return [`based in ${where(place.city)} (same country)`];
    case 'elsewhere':
      return [`based in ${where(place.city, place.country)} (another country)`];
    case 'other':
      return [`based in ${where(place.city, place.country)}`];
  }
}

export interface TeamSummary {
  members: readonly { name: string; covers: readonly string[] }[];
  requiredCount: number;
  /** Gaps no candidate offers at all. */
  unoffered: readonly string[];
  /** Gaps some candidate offers, left out by the team size limit. */
  overLimit: readonly string[];
  maxMembers: number;
  /** Whether the caller may ask for more members than `maxMembers`. */
  canGrow: boolean;
}

/** One paragraph: the team, its coverage, what is missing and why, and that nobody was contacted. */
export function describeTeam(s: TeamSummary): string {
  const coveredCount = s.members.reduce((n, m) => n + m.covers.length, 0);
  const percent = Math.round((100 * coveredCount) / s.requiredCount);
  const sentences =
    s.members.length === 0
      ? ['No listed organization offers the required expertise.']
      : [
          `Proposed team of ${count(s.members.length, 'organization', 'organizations')} covering ${coveredCount} of ${count(s.requiredCount, 'required expertise', 'required expertise')} (${percent}%): ` +
            `${s.members.map((m) => `${m.name} (${m.covers.join(', ')})`).join('; ')}.`,
        ];
  if (s.unoffered.length > 0 && s.members.length > 0) sentences.push(`No listed organization offers ${listLabels(s.unoffered)}.`);
  if (s.members.length === 0 && s.unoffered.length > 0) sentences.push(`Not covered: ${listLabels(s.unoffered)}.`);
  if (s.overLimit.length > 0) {
    const hint = s.canGrow ? `; allow more members to cover ${s.overLimit.length === 1 ? 'it' : 'them'}` : '';
    sentences.push(`Not covered within the limit of ${count(s.maxMembers, 'member', 'members')}: ${listLabels(s.overLimit)}${hint}.`);
  }
  sentences.push('This is a proposal only: no organization has been contacted.');
  return sentences.join(' ');
}
