import { describe, expect, it } from 'vitest';
import { FAQ_ENTRIES, searchFaq } from './faq.ts';

const QUERIES: [query: string, topId: string][] = [
  ['How do I get an API key?', 'get-api-key'],
  ['comment obtenir une clé', 'get-api-key'],
  ["j'ai perdu ma clé", 'lost-api-key'],
  ['clé API expirée', 'lost-api-key'],
  ['Authorization header', 'authentication'],
  ['missing scope', 'api-scopes'],
  ['how many keys on the Clan plan', 'active-keys-per-plan'],
  ["Puis-je appeler l'API depuis mon application mobile ?", 'browser-use'],
  ['rate limit', 'rate-limit'],
  ['too many requests', 'rate-limit'],
  ['quota mensuel', 'monthly-quota'],
  ["combien d'appels par mois", 'monthly-quota'],
  ['how does pagination work with next_cursor', 'pagination'],
  ['ordre des événements', 'list-order'],
  ['error format problem json', 'errors'],
  ['why 404 on an opportunity', 'not-found'],
  ['is the revenue split exposed?', 'never-exposed'],
  ['données confidentielles', 'never-exposed'],
  ['which needs are never sent by webhook', 'webhook-exclusions'],
  ['Slack format', 'webhook-formats'],
  ['payload fields', 'webhook-envelope'],
  ['verify webhook signature HMAC', 'webhook-signature'],
  ["comment vérifier la signature d'un webhook", 'webhook-signature'],
  ['Is the webhook delivered twice?', 'webhook-retries'],
  ['webhook en double', 'webhook-retries'],
  ['combien de destinations webhook', 'webhook-plans'],
  ['whsec as bearer', 'key-vs-webhook-secret'],
  ['keep data in sync', 'sync-strategy'],
  ['how fresh is the data', 'data-freshness'],
  ['openapi', 'api-versioning'],
  ['MCP connector for ChatGPT', 'public-assistant-connector'],
  ['is the need text stored when composing a team', 'compose-team'],
  ['proposer une équipe', 'compose-team'],
  ["déconnecter l'assistant de mon compte", 'member-assistant-connector'],
  ['signature électronique', 'e-signature'],
  ['what is Packline', 'what-is-packline'],
];

describe('searchFaq', () => {
  it.each(QUERIES)('%s → %s', (query, topId) => {
    const hits = searchFaq(query);
    expect(hits[0]?.entry.id).toBe(topId);
    expect(hits.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });

  it.each(['', '   ', '?!', 'the of and', 'le la les de', 'asdfgh qwerty'])('answers nothing to %j', (query) => {
    expect(searchFaq(query)).toEqual([]);
  });

  it('folds case and accents', () => {
    expect(searchFaq('SIGNATURE ELECTRONIQUE')).toEqual(searchFaq('signature électronique'));
    expect(searchFaq('Clé')).toEqual(searchFaq('cle'));
  });

  it('respects the limit and is deterministic', () => {
    expect(searchFaq('webhook', 3)).toHaveLength(3);
    expect(searchFaq('webhook', 0)).toEqual([]);
    expect(searchFaq('webhook', 1000).length).toBeLessThanOrEqual(20);
    expect(searchFaq('webhook signature retries', 10)).toEqual(searchFaq('webhook signature retries', 10));
  });
});

describe('FAQ_ENTRIES', () => {
  it('has at least twenty entries with unique ids, links and tags', () => {
    expect(FAQ_ENTRIES.length).toBeGreaterThanOrEqual(20);
    expect(new Set(FAQ_ENTRIES.map((e) => e.id)).size).toBe(FAQ_ENTRIES.length);
    for (const entry of FAQ_ENTRIES) {
      expect(entry.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(entry.link).toMatch(/^\/(api\/v1\/(docs#[a-z-]+|openapi\.json)|faq#[a-z0-9-]+)$/);
      if (entry.link.startsWith('/faq#')) expect(entry.link).toBe(`/faq#${entry.id}`);
      expect(entry.tags.length).toBeGreaterThan(0);
      expect(entry.question.endsWith('?')).toBe(true);
    }
  });

  it('answers in plain text of one to four sentences, in English and French', () => {
    const sentences = (text: string) => text.split(/(?<=[a-z0-9)»"'’\]}…])[.!?]\s+(?=[A-ZÀ-Ý«"])/u).length;
    for (const entry of FAQ_ENTRIES) {
      for (const answer of [entry.answer, entry.fr?.answer ?? '']) {
        expect(answer, entry.id).not.toMatch(/<\/?(p|a|b|i|br|ul|ol|li|code|strong|em)\b[^>]*>|\*\*|`|\]\(/);
        expect(sentences(answer), `${entry.id}: ${answer}`).toBeGreaterThanOrEqual(1);
        expect(sentences(answer), `${entry.id}: ${answer}`).toBeLessThanOrEqual(4);
      }
      expect(entry.fr?.question, entry.id).toBeTruthy();
    }
  });

  it('states the contract figures', () => {
    const answer = (id: string) => FAQ_ENTRIES.find((e) => e.id === id)?.answer ?? '';
    expect(answer('rate-limit')).toContain('120 requests per minute per key');
    expect(answer('monthly-quota')).toMatch(/Base 1,000 calls, Alpha 10,000 and Clan 100,000/);
    expect(answer('active-keys-per-plan')).toContain('Base 1, Alpha 1 and Clan 5');
    expect(answer('pagination')).toContain('1 to 50 items, 20 by default');
    expect(answer('webhook-retries')).toContain('up to 8 attempts');
    expect(answer('webhook-retries')).toContain('within 8 seconds');
    expect(answer('webhook-signature')).toContain('older than five minutes');
    expect(answer('compose-team')).toContain('neither stored nor logged');
  });
});
