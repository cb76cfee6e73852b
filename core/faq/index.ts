// The FAQ: the domain core behind the public assistant connector's `explain_service`.
export { FAQ_ENTRIES, FAQ_PATH, MAX_FAQ_QUERY_LENGTH, MAX_FAQ_RESULTS, searchFaq, type FaqEntry, type FaqHit } from './faq.ts';
