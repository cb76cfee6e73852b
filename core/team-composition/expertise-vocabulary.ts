// Maps words to expertise concepts: "développement web", "Web-Apps" and "frontend" all name
// `web-development`. Matching is accent-, case-, plural- and hyphen-insensitive (see expertise-text.ts).
import { EXPERTISE_CONCEPTS, type ExpertiseConcept } from './expertise-concepts.ts';
import { expertiseTokens } from './expertise-text.ts';

/** A concept named in some text: its id and the label to show. */
export interface ConceptRef {
  /** Vocabulary id (`interior-design`), or the normalized term itself for an unknown expertise. */
  concept: string;
  label: string;
  /** False when the term is not in the vocabulary: it is kept as its own concept. */
  known: boolean;
}

interface Vocabulary {
  byPhrase: Map<string, ExpertiseConcept>;
  longestPhrase: number;
}

/** Longest phrase a longer text is matched against, in words; a bound on the work per word. */
const MAX_PHRASE_WORDS = 8;
/** Longest expertise term kept for an unknown concept's label. */
const MAX_LABEL_LENGTH = 80;

function buildVocabulary(concepts: readonly ExpertiseConcept[]): Vocabulary {
  const byPhrase = new Map<string, ExpertiseConcept>();
  const compact = new Map<string, ExpertiseConcept>();
  let longestPhrase = 1;
  for (const concept of concepts) {
    for (const name of [concept.label, concept.id.replaceAll('-', ' '), ...concept.en, ...concept.fr]) {
      const words = expertiseTokens(name);
      if (words.length === 0 || words.length > MAX_PHRASE_WORDS) throw new Error(`Unusable synonym '${name}' of ${concept.id}`);
      const key = words.join(' ');
      const taken = byPhrase.get(key);
      if (taken && taken.id !== concept.id) throw new Error(`Synonym '${name}' names both ${taken.id} and ${concept.id}`);
      byPhrase.set(key, concept);
      // "voice over", "voice-over" and "voiceover" name the same thing.
      if (words.length > 1 && !compact.has(words.join(''))) compact.set(words.join(''), concept);
      longestPhrase = Math.max(longestPhrase, words.length);
    }
  }
  for (const [key, concept] of compact) if (!byPhrase.has(key)) byPhrase.set(key, concept);
  return { byPhrase, longestPhrase };
}

let built: Vocabulary | undefined;

/** Built on first use: a process that reads no expertise (a CLI command) spares it. */
const vocabulary = (): Vocabulary => {
  built ??= buildVocabulary(EXPERTISE_CONCEPTS);
  return built;
};

const known = (concept: ExpertiseConcept): ConceptRef => ({ concept: concept.id, label: concept.label, known: true });

/** The vocabulary concept with this id, if any. */
export function expertiseConcept(id: string): ExpertiseConcept | undefined {
  return EXPERTISE_CONCEPTS.find((c) => c.id === id);
}

/**
 * Concepts named in free text, in order of first mention. At each word the longest vocabulary
 * phrase wins and its words are consumed, so "interior architecture" is interior design only,
 * never also architecture; a concept named twice is listed once.
 */
export function conceptsIn(text: string): ConceptRef[] {
  const words = expertiseTokens(text);
  const { byPhrase, longestPhrase } = vocabulary();
  const found = new Map<string, ConceptRef>();
  for (let i = 0; i < words.length; ) {
    let matched = 0;
    for (let n = Math.min(longestPhrase, words.length - i); n > 0 && matched === 0; n--) {
      const concept = byPhrase.get(words.slice(i, i + n).join(' '));
      if (concept) {
        if (!found.has(concept.id)) found.set(concept.id, known(concept));
        matched = n;
      }
    }
    i += Math.max(matched, 1);
  }
  return [...found.values()];
}

/**
 * Every concept one requested expertise names: the whole term when it is a vocabulary phrase,
 * else the concepts found inside it ("senior web developer and iOS" → web and mobile development),
 * else the term itself as an unknown concept, so it can still match an identical capability or
 * show up as a gap. Empty for a term without any word.
 */
export function conceptsOfTerm(term: string): ConceptRef[] {
  const words = expertiseTokens(term);
  if (words.length === 0) return [];
  const whole = vocabulary().byPhrase.get(words.join(' '));
  if (whole) return [known(whole)];
  const inside = conceptsIn(term);
  if (inside.length > 0) return inside;
  const label = foldDisplay(term);
  return [{ concept: words.join('-'), label, known: false }];
}

/** The main concept of one requested expertise (the first of {@link conceptsOfTerm}). */
export function conceptOf(term: string): ConceptRef | undefined {
  return conceptsOfTerm(term)[0];
}

/** Lower-cased, single-spaced, accents kept: how an unknown term is shown back. */
function foldDisplay(term: string): string {
  const label = term.trim().replace(/\s+/g, ' ').toLowerCase();
  return label.length > MAX_LABEL_LENGTH ? `${label.slice(0, MAX_LABEL_LENGTH - 1)}…` : label;
}

/** Number of concepts in the vocabulary. */
export const VOCABULARY_SIZE = EXPERTISE_CONCEPTS.length;
