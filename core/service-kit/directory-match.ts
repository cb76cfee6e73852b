// How the public directory matches organizations: structured filters (all must hold) and a free
// text ranked by where its words occur. Folding rules are the expertise vocabulary's, so
// "Développement web", "web developers" and "web development" meet.
import type { Organization } from '../entities/index.ts';
import { foldText, expertiseTokens } from '../team-composition/expertise-text.ts';
import { conceptsIn, conceptsOfTerm } from '../team-composition/expertise-vocabulary.ts';
import { countryCode } from '../team-composition/place-fit.ts';

/** What a directory search asks for; every given filter must hold. */
export interface DirectoryFilter {
  /** An expertise the organization offers ("ux design", "développement web"). */
  capability?: string;
  sector?: string;
  /** A city, region or country (name or ISO code); parts separated by commas must all match. */
  place?: string;
  network?: string;
  /** Free text, ranked: name, capabilities and sectors weigh more than the description. */
  text?: string;
}

type Row = Pick<Organization, 'id' | 'name' | 'description' | 'sectors' | 'capabilities' | 'networks' | 'city' | 'region' | 'country'>;

const WEIGHT = { name: 3, capability: 2, sector: 2, concept: 2, network: 1.5, place: 1.5, description: 1 } as const;

const placeKey = (text: string | null | undefined) =>
  foldText(text ?? '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
const tokenSet = (values: readonly string[]) => new Set(values.flatMap(expertiseTokens));
const conceptSet = (values: readonly string[]) => new Set(values.flatMap(conceptsOfTerm).map((c) => c.concept));
/** Every word of `wanted` within one of `values` ("tech lille" is in "French Tech Lille"). */
const withinOne = (wanted: string, values: readonly Set<string>[]) => {
  const words = expertiseTokens(wanted);
  return words.length > 0 && values.some((have) => words.every((w) => have.has(w)));
};

/** What matching needs of a row, folded once: rows come from the directory snapshot and do not change. */
interface Folded {
  capabilities: Set<string>[];
  sectors: Set<string>[];
  networks: Set<string>[];
  concepts: Set<string>;
  city: string;
  region: string;
  fields: [Set<string>, number][];
}

const folded = new WeakMap<Row, Folded>();

function fold(row: Row): Folded {
  let f = folded.get(row);
  if (!f) {
    const each = (values: readonly string[]) => values.map((v) => new Set(expertiseTokens(v)));
    f = {
      capabilities: each(row.capabilities),
      sectors: each(row.sectors),
      networks: each(row.networks),
      concepts: conceptSet(row.capabilities),
      city: placeKey(row.city),
      region: placeKey(row.region),
      fields: [
        [tokenSet([row.name]), WEIGHT.name],
        [tokenSet(row.capabilities), WEIGHT.capability],
        [tokenSet(row.sectors), WEIGHT.sector],
        [tokenSet(row.networks), WEIGHT.network],
        [tokenSet([row.city ?? '', row.region ?? '']), WEIGHT.place],
        [tokenSet([row.description]), WEIGHT.description],
      ],
    };
    folded.set(row, f);
  }
  return f;
}

/** A compiled search: `score(row)` is null when the row does not match, else its relevance. */
export function compileFilter(filter: DirectoryFilter): (row: Row) => number | null {
  const capability = filter.capability === undefined ? undefined : new Set(conceptsOfTerm(filter.capability).map((c) => c.concept));
  const places =
    filter.place
      ?.split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '') ?? [];
  const words = filter.text === undefined ? undefined : [...new Set(expertiseTokens(filter.text))];
  const concepts = filter.text === undefined ? [] : conceptsIn(filter.text).map((c) => c.concept);

  return (row) => {
    const f = fold(row);
    if (filter.capability !== undefined && capability) {
      if (![...capability].some((c) => f.concepts.has(c)) && !withinOne(filter.capability, f.capabilities)) return null;
    }
    if (filter.sector !== undefined && !withinOne(filter.sector, f.sectors)) return null;
    if (filter.network !== undefined && !withinOne(filter.network, f.networks)) return null;
    if (!places.every((p) => placeMatches(p, row, f))) return null;
    if (words === undefined) return 0;
    const score = textScore(words, concepts, row, f);
    return score > 0 ? score : null;
  };
}

function placeMatches(wanted: string, row: Row, f: Folded): boolean {
  const key = placeKey(wanted);
  if (key === '') return true;
  if (key === f.city || key === f.region) return true;
  return row.country != null && countryCode(wanted) === row.country.toUpperCase();
}

function textScore(words: string[], concepts: string[], row: Row, f: Folded): number {
  let score = 0;
  for (const word of words) {
    let best = 0;
    for (const [tokens, weight] of f.fields) if (weight > best && tokens.has(word)) best = weight;
    // Country names only: two-letter words are too often something else ("it", "ai").
    if (best < WEIGHT.place && word.length > 2 && row.country != null && countryCode(word) === row.country.toUpperCase())
      best = WEIGHT.place;
    score += best;
  }
  for (const concept of concepts) if (f.concepts.has(concept)) score += WEIGHT.concept;
  return score;
}
