// Proposes a complementary team for a need: a greedy weighted set cover of the required expertise
// over the organizations passed in. Pure and deterministic; nobody is contacted, and the need text
// is only read to find expertise in it: it is neither kept nor echoed in the proposal.
import { DomainError, invalidInput } from '../errors.ts';
import type { OrganizationProfile } from '../public-views.ts';
import { conceptsIn, conceptsOfTerm, type ConceptRef } from './expertise-vocabulary.ts';
import { completePlace, placeMatch, type PlaceMatch, type WantedPlace } from './place-fit.ts';
import { describeTeam, placeReason, proofReasons, listLabels } from './team-explanation.ts';

/** What a team is wanted for. Give `requiredExpertise`, or a `needText` that names some. */
export interface TeamRequest {
  /** Free text of the need, English or French. Read for expertise only; never stored or returned. */
  needText?: string;
  /** Expertise wanted; when given (non-empty), `needText` is not read. */
  requiredExpertise?: string[];
  /** Where the work happens; the country as an ISO code or a name. */
  place?: WantedPlace;
  /** True: remote work accepted, place matters little. False: organizations in another country are penalised. */
  remote?: boolean;
  /**
   * Most organizations in the team.
   * @default 4 (at most 6)
   */
  maxMembers?: number;
}

/** One proposed member and why it was chosen. */
export interface TeamMember {
  organizationId: string;
  name: string;
  profileUrl: string;
  /** Labels of the required expertise this member brings to the team (each covered once). */
  covers: string[];
  /** Why it was chosen, e.g. `covers interior design and 3d modelling`, `14 completed packs`. */
  reasons: string[];
  /** Marginal score when chosen: coverage first, then proofs and place. Two decimals. */
  score: number;
}

/** A proposed team. A proposal only: no organization has been contacted. */
export interface TeamProposal {
  required: { concept: string; label: string }[];
  members: TeamMember[];
  /** Share of the required concepts covered by the members, 0 to 100, rounded. */
  coveragePercent: number;
  /** Labels of required expertise nobody in the team covers. */
  gaps: string[];
  explanation: string;
}

/** Bounds of a team request, for facades that describe their input. */
export const TEAM_LIMITS = {
  defaultMembers: 4,
  maxMembers: 6,
  maxRequiredExpertise: 20,
  maxTermLength: 120,
  maxNeedTextLength: 10_000,
} as const;

// A covered concept (20 to 24 points) outweighs proofs (at most 4.75) and place (-3 to +1.5) put
// together: coverage leads, proofs and place decide between candidates covering as much.
const COVERAGE_POINTS = 20;
/** Extra weight of a concept few candidates cover: up to +20 % for a concept only one covers. */
const RARITY_BONUS = 0.2;
const PLACE_POINTS: Record<PlaceMatch, number> = { city: 1.5, region: 1, country: 0.6, elsewhere: 0, other: 0, unknown: 0 };
const ANOTHER_COUNTRY_PENALTY = -3;
/** When remote work is accepted place still breaks ties, at a fifth of its weight. */
const REMOTE_PLACE_FACTOR = 0.2;

interface Candidate {
  profile: OrganizationProfile;
  concepts: Set<string>;
  base: number;
  place: PlaceMatch;
}

/**
 * Proposes a team among `candidates` covering the required expertise of `request`.
 * Callers pass discoverable organizations only; demonstration, unlisted or incomplete profiles are
 * skipped anyway. Throws `DomainError('invalid_input')` when no expertise can be found, or when an
 * input is out of the bounds of {@link TEAM_LIMITS} (`maxMembers` above 6 is capped, not refused).
 */
export function composeTeam(request: TeamRequest, candidates: readonly OrganizationProfile[]): TeamProposal {
  const maxMembers = teamSize(request.maxMembers);
  const required = requiredConcepts(request);
  const eligible = uniqueDiscoverable(candidates);
  const wanted = completePlace(request.place, eligible);
  const pool = eligible.map((profile) => candidate(profile, wanted, request.remote));
  const chosen = greedyCover(pool, required, conceptWeights(required, pool), maxMembers);
  const team = withoutRedundant(chosen, required);
  const covers = assign(
    team.map((t) => t.candidate),
    required,
  );
  const members = team.map(
    ({ candidate: c, score }, i): TeamMember => ({
      organizationId: c.profile.id,
      name: c.profile.name,
      profileUrl: c.profile.profileUrl,
      covers: covers[i]!,
      reasons: [
        `covers ${listLabels(covers[i]!)}`,
        ...proofReasons(c.profile.proofs),
        ...placeReason(c.place, c.profile.place),
        ...(request.remote === true ? ['remote work accepted'] : []),
      ],
      score: round(score, 2),
    }),
  );
  const covered = new Set(team.flatMap((t) => [...t.candidate.concepts]));
  const gaps = required.filter((r) => !covered.has(r.concept));
  const coverable = new Set(pool.flatMap((c) => [...c.concepts]));
  return {
    required: required.map(({ concept, label }) => ({ concept, label })),
    members,
    coveragePercent: Math.round((100 * (required.length - gaps.length)) / required.length),
    gaps: gaps.map((g) => g.label),
    explanation: describeTeam({
      members,
      requiredCount: required.length,
      unoffered: gaps.filter((g) => !coverable.has(g.concept)).map((g) => g.label),
      overLimit: gaps.filter((g) => coverable.has(g.concept)).map((g) => g.label),
      maxMembers,
      canGrow: maxMembers < TEAM_LIMITS.maxMembers,
    }),
  };
}

interface Choice {
  candidate: Candidate;
  /** Marginal score when chosen. */
  score: number;
}

/** Repeatedly takes the candidate with the best marginal score; ties go to the smaller id. */
function greedyCover(pool: Candidate[], required: ConceptRef[], weight: Map<string, number>, maxMembers: number): Choice[] {
  const uncovered = new Set(required.map((r) => r.concept));
  const chosen: Choice[] = [];
  while (uncovered.size > 0 && chosen.length < maxMembers) {
    let best: Choice | undefined;
    for (const c of pool) {
      if (chosen.some((x) => x.candidate === c)) continue;
      const gain = [...c.concepts].reduce((sum, concept) => sum + (uncovered.has(concept) ? (weight.get(concept) ?? 1) : 0), 0);
      if (gain === 0) continue;
      const score = round(gain * COVERAGE_POINTS + c.base, 6);
      if (!best || score > best.score || (score === best.score && c.profile.id < best.candidate.profile.id)) best = { candidate: c, score };
    }
    if (!best) break;
    chosen.push(best);
    for (const concept of best.candidate.concepts) uncovered.delete(concept);
  }
  return chosen;
}

function teamSize(maxMembers: number | undefined): number {
  if (maxMembers === undefined) return TEAM_LIMITS.defaultMembers;
  if (!Number.isInteger(maxMembers) || maxMembers < 1) throw invalidInput('maxMembers', 'maxMembers must be a whole number of at least 1');
  return Math.min(maxMembers, TEAM_LIMITS.maxMembers);
}

function requiredConcepts(request: TeamRequest): ConceptRef[] {
  const terms = (request.requiredExpertise ?? []).filter((t) => t.trim() !== '');
  if (terms.length > TEAM_LIMITS.maxRequiredExpertise) {
    throw invalidInput('requiredExpertise', `Give at most ${TEAM_LIMITS.maxRequiredExpertise} expertise`);
  }
  if (terms.some((t) => t.length > TEAM_LIMITS.maxTermLength)) {
    throw invalidInput('requiredExpertise', `Each expertise is at most ${TEAM_LIMITS.maxTermLength} characters`);
  }
  if (terms.length === 0 && (request.needText?.length ?? 0) > TEAM_LIMITS.maxNeedTextLength) {
    throw invalidInput('needText', `The need text is at most ${TEAM_LIMITS.maxNeedTextLength} characters`);
  }
  const found = terms.length > 0 ? terms.flatMap(conceptsOfTerm) : conceptsIn(request.needText ?? '');
  const unique = [...new Map(found.map((c) => [c.concept, c])).values()];
  if (unique.length === 0)
    throw new DomainError('invalid_input', 'Give required expertise or a need text naming some', 'requiredExpertise');
  return unique;
}

function uniqueDiscoverable(candidates: readonly OrganizationProfile[]): OrganizationProfile[] {
  const byId = new Map<string, OrganizationProfile>();
  for (const p of candidates) {
    // The caller passes discoverable organizations only; this keeps a slip from proposing one.
    if (!p.admin.listed || !p.admin.complete || p.admin.demo || byId.has(p.id)) continue;
    byId.set(p.id, p);
  }
  return [...byId.values()];
}

function candidate(profile: OrganizationProfile, wanted: WantedPlace, remote: boolean | undefined): Candidate {
  const concepts = new Set(profile.capabilities.flatMap(conceptsOfTerm).map((c) => c.concept));
  const place = placeMatch(wanted, profile.place);
  const placePoints =
    remote === true
      ? PLACE_POINTS[place] * REMOTE_PLACE_FACTOR
      : PLACE_POINTS[place] + (remote === false && place === 'elsewhere' ? ANOTHER_COUNTRY_PENALTY : 0);
  return { profile, concepts, base: proofPoints(profile.proofs) + placePoints, place };
}

/** Log-scaled so that the 40th pack counts less than the 4th; at most 4.75 points. */
function proofPoints(proofs: OrganizationProfile['proofs']): number {
  const packs = Math.min(Math.max(proofs.completedPacks, 0), 63);
  const references = Math.min(Math.max(proofs.references, 0), 31);
  const certifications = Math.min(Math.max(proofs.certifications, 0), 5);
  return 0.5 * Math.log2(1 + packs) + 0.25 * Math.log2(1 + references) + 0.1 * certifications;
}

/** A concept few candidates cover weighs a little more, so its rare holders are chosen early. */
function conceptWeights(required: ConceptRef[], pool: Candidate[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const { concept } of required) {
    const holders = pool.filter((c) => c.concepts.has(concept)).length;
    weights.set(concept, holders === 0 ? 1 : 1 + RARITY_BONUS / holders);
  }
  return weights;
}

/** Drops members whose required expertise the others all cover, weakest first. */
function withoutRedundant(chosen: Choice[], required: ConceptRef[]): Choice[] {
  const team = [...chosen];
  const byWeakness = [...chosen].sort((a, b) => a.score - b.score || (a.candidate.profile.id < b.candidate.profile.id ? 1 : -1));
  for (const member of byWeakness) {
    const others = team.filter((t) => t !== member);
    const needed = required.some(
      (r) => member.candidate.concepts.has(r.concept) && !others.some((o) => o.candidate.concepts.has(r.concept)),
    );
    if (!needed) team.splice(team.indexOf(member), 1);
  }
  return team;
}

/** Each covered concept goes to the first member (in order of choice) that has it. */
function assign(team: Candidate[], required: ConceptRef[]): string[][] {
  const covers = team.map((): string[] => []);
  for (const r of required) {
    const i = team.findIndex((c) => c.concepts.has(r.concept));
    if (i >= 0) covers[i]!.push(r.label);
  }
  return covers;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
