import { createHash } from 'node:crypto';
import type { Actor } from '../actor.ts';
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { FAQ_ENTRIES, FAQ_PATH, MAX_FAQ_QUERY_LENGTH, MAX_FAQ_RESULTS, searchFaq, type FaqEntry } from '../faq/index.ts';
import { hasControlCharacters, isPlausibleId } from '../ids.ts';
import { composeTeam, TEAM_LIMITS, type TeamProposal, type TeamRequest } from '../team-composition/index.ts';
import type { Links } from '../visibility.ts';
import type { OrganizationProfile } from '../public-views.ts';
import type { DirectorySnapshot } from '../components/directory-snapshot.ts';
import { compileFilter, type DirectoryFilter } from '../service-kit/directory-match.ts';
import { keysetPage, pageArgs, type Page, type PageArgs } from '../service-kit/paging.ts';
import type { ServiceDeps } from '../service-kit/service-deps.ts';

export type { DirectoryFilter };

/** An FAQ entry with absolute links. */
export interface FaqAnswer {
  id: string;
  question: string;
  answer: string;
  tags: string[];
  /** Where to read more, absolute. */
  url: string;
  /** The entry itself on the FAQ page, absolute (`/faq#<id>`). */
  faqUrl: string;
}

/** An FAQ search hit: the entry and its relevance (higher is better). */
export interface FaqResult {
  entry: FaqAnswer;
  score: number;
}

/** Longest text of one directory filter; the free text may be longer. */
export const MAX_FILTER_LENGTH = 120;
export const MAX_DIRECTORY_TEXT_LENGTH = 200;

/**
 * The public directory: discoverable organizations only (listed, complete, not demonstration),
 * whoever asks. Read by the public assistant connector (the public actor) and internal callers.
 * Keeps nothing it is given: the need text of a team request is read and dropped.
 */
export class DirectoryService {
  private readonly deps: ServiceDeps;
  private readonly snapshot: DirectorySnapshot;

  constructor(deps: ServiceDeps, snapshot: DirectorySnapshot) {
    this.deps = deps;
    this.snapshot = snapshot;
  }

  /**
   * Discoverable organizations matching every given filter. Without `text`, by id; with it,
   * most relevant first, then by id. Cursors are bound to the filter they were issued for.
   */
  async search(actor: Actor, filter: DirectoryFilter, args: PageArgs): Promise<Page<OrganizationProfile>> {
    requireDirectoryReader(actor);
    const checked = checkFilter(filter);
    const { first, after } = pageArgs(args);
    const list = `directory:${createHash('sha256').update(JSON.stringify(checked)).digest('base64url').slice(0, 12)}`;
    const from = after === undefined ? undefined : this.deps.cursors.decode(list, after);
    const score = compileFilter(checked);
    const { entries } = await this.snapshot.get();
    const hits = entries
      .map((entry) => ({ id: entry.row.id, entry, score: score(entry.row) }))
      .filter((h): h is typeof h & { score: number } => h.score !== null)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .filter((h) => !from || h.score < from.at || (h.score === from.at && h.id > from.id));
    return keysetPage(
      this.deps.cursors,
      list,
      hits.slice(0, first + 1),
      first,
      (h) => h.entry.profile,
      (h) => h.score,
    );
  }

  /** One discoverable organization; not found for any other. */
  async get(actor: Actor, id: string): Promise<OrganizationProfile> {
    requireDirectoryReader(actor);
    if (!isPlausibleId(id)) throw notFound('organization', id);
    const entry = (await this.snapshot.get()).byId.get(id);
    if (!entry) throw notFound('organization', id);
    return entry.profile;
  }

  /** A proposed team among discoverable organizations. Nobody is contacted; nothing is stored. */
  async composeTeam(actor: Actor, request: TeamRequest): Promise<TeamProposal> {
    requireDirectoryReader(actor);
    if (request.needText !== undefined && request.needText.length > TEAM_LIMITS.maxNeedTextLength) {
      throw invalidInput('needText', `The need text is at most ${TEAM_LIMITS.maxNeedTextLength} characters`);
    }
    const { entries } = await this.snapshot.get();
    return composeTeam(
      request,
      entries.map((entry) => entry.profile),
    );
  }

  /** FAQ entries answering `query`, best first. */
  searchFaq(actor: Actor, query: string, limit = 5): FaqResult[] {
    requireDirectoryReader(actor);
    if (query.trim() === '' || query.length > MAX_FAQ_QUERY_LENGTH) {
      throw invalidInput('query', `query must be 1 to ${MAX_FAQ_QUERY_LENGTH} characters`);
    }
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FAQ_RESULTS) {
      throw invalidInput('limit', `limit must be an integer from 1 to ${MAX_FAQ_RESULTS}`);
    }
    return searchFaq(query, limit).map((hit) => ({ entry: faqAnswer(hit.entry, this.deps.links), score: hit.score }));
  }

  /** Every FAQ entry, in the FAQ's order: the FAQ page. */
  faqEntries(actor: Actor): FaqAnswer[] {
    requireDirectoryReader(actor);
    return FAQ_ENTRIES.map((entry) => faqAnswer(entry, this.deps.links));
  }

  /** One FAQ entry by id. */
  faqEntry(actor: Actor, id: string): FaqAnswer {
    requireDirectoryReader(actor);
    const entry = FAQ_ENTRIES.find((e) => e.id === id);
    if (!entry) throw notFound('FAQ entry', id);
    return faqAnswer(entry, this.deps.links);
  }
}

/** The directory is public data: anyone without an account, and internal callers. */
function requireDirectoryReader(actor: Actor): void {
  if (actor.kind !== 'public' && actor.kind !== 'internal') throw new DomainError('forbidden', 'Not allowed to read the public directory');
}

function checkFilter(filter: DirectoryFilter): DirectoryFilter {
  const out: DirectoryFilter = {};
  for (const key of ['capability', 'sector', 'place', 'network', 'text'] as const) {
    const value = filter[key]?.trim();
    if (value === undefined || value === '') continue;
    const max = key === 'text' ? MAX_DIRECTORY_TEXT_LENGTH : MAX_FILTER_LENGTH;
    if (value.length > max) throw invalidInput(key, `${key} is at most ${max} characters`);
    if (hasControlCharacters(value)) throw invalidInput(key, `${key} must not contain control characters`);
    out[key] = value;
  }
  return out;
}

function faqAnswer(entry: FaqEntry, links: Links): FaqAnswer {
  return {
    id: entry.id,
    question: entry.question,
    answer: entry.answer,
    tags: [...entry.tags],
    url: `${links.publicBaseUrl}${entry.link}`,
    faqUrl: `${links.publicBaseUrl}${FAQ_PATH}#${encodeURIComponent(entry.id)}`,
  };
}
