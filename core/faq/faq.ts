// The FAQ behind the public assistant connector's `explain_service`: entries kept in the repo as
// data, and a ranked search over them (BM25, question and tags weighing more than the answer).
import { FAQ_ENTRIES, type FaqEntry } from './faq-entries.ts';
import { searchTerms } from './faq-text.ts';

export { FAQ_ENTRIES, type FaqEntry };

/** One search hit: the entry and its relevance (higher is better, 4 decimals). */
export interface FaqHit {
  entry: FaqEntry;
  score: number;
}

/** The public FAQ page; each entry is on it at `#<id>`. */
export const FAQ_PATH = '/faq';

/** Longest query read, in characters; the rest is ignored. */
export const MAX_FAQ_QUERY_LENGTH = 500;
/** Most hits one search returns. */
export const MAX_FAQ_RESULTS = 20;

// BM25 parameters and field weights (BM25F-style: a word in the question counts as three in the
// answer). On top, each query term the question itself names adds its idf once: people phrase
// their query like the question they have in mind.
const K1 = 1.5;
const B = 0.75;
const WEIGHTS = { question: 3, tags: 2, answer: 1 } as const;
const QUESTION_MATCH_BONUS = 1;

interface IndexedEntry {
  entry: FaqEntry;
  tf: Map<string, number>;
  length: number;
  questionTerms: Set<string>;
}

function indexEntry(entry: FaqEntry): IndexedEntry {
  const tf = new Map<string, number>();
  let length = 0;
  const add = (text: string, weight: number) => {
    for (const term of searchTerms(text)) {
      tf.set(term, (tf.get(term) ?? 0) + weight);
      length += weight;
    }
  };
  add(entry.question, WEIGHTS.question);
  add(entry.fr?.question ?? '', WEIGHTS.question);
  add(entry.tags.join(' . '), WEIGHTS.tags);
  add(entry.answer, WEIGHTS.answer);
  add(entry.fr?.answer ?? '', WEIGHTS.answer);
  const questionTerms = new Set(searchTerms(`${entry.question} ${entry.fr?.question ?? ''}`));
  return { entry, tf, length, questionTerms };
}

interface FaqIndex {
  entries: IndexedEntry[];
  averageLength: number;
  documentFrequency: Map<string, number>;
}

let index: FaqIndex | undefined;

/** Built with the first search: a process that searches nothing (a CLI command) spares it. */
function faqIndex(): FaqIndex {
  if (index) return index;
  const entries = FAQ_ENTRIES.map(indexEntry);
  const documentFrequency = new Map<string, number>();
  for (const { tf } of entries) for (const term of tf.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const averageLength = entries.reduce((sum, e) => sum + e.length, 0) / Math.max(entries.length, 1);
  index = { entries, averageLength, documentFrequency };
  return index;
}

/**
 * FAQ entries answering `query` (English or French), best first; ties go to the smaller id.
 * Deterministic. A query without any word the FAQ knows gives an empty list.
 * @param limit most hits to return, 1 to {@link MAX_FAQ_RESULTS}. @default 5
 */
export function searchFaq(query: string, limit = 5): FaqHit[] {
  const count = Math.min(Math.max(Math.floor(Number.isFinite(limit) ? limit : 0), 0), MAX_FAQ_RESULTS);
  const { entries, averageLength, documentFrequency } = faqIndex();
  const terms = [...new Set(searchTerms(query.slice(0, MAX_FAQ_QUERY_LENGTH)))].filter((t) => documentFrequency.has(t));
  if (count === 0 || terms.length === 0) return [];
  const idf = (term: string) => {
    const df = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (entries.length - df + 0.5) / (df + 0.5));
  };
  const hits: FaqHit[] = [];
  for (const { entry, tf, length, questionTerms } of entries) {
    let score = 0;
    for (const term of terms) {
      const f = tf.get(term) ?? 0;
      if (f > 0) score += (idf(term) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / averageLength));
      if (questionTerms.has(term)) score += QUESTION_MATCH_BONUS * idf(term);
    }
    if (score > 0) hits.push({ entry, score: Math.round(score * 10_000) / 10_000 });
  }
  return hits.sort((a, b) => b.score - a.score || (a.entry.id < b.entry.id ? -1 : 1)).slice(0, count);
}
