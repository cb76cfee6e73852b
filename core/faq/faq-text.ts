// Turns English or French text into search terms: folded, without stop words, lightly stemmed,
// and with the words people use for one idea ("clé", "token", "key") brought to one term.

const LIGATURES: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss' };

const fold = (text: string) =>
  text
    .toLowerCase()
    .replace(/[œæß]/g, (c) => LIGATURES[c] ?? c)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');

const STOP_WORDS = new Set(
  (
    'a an the of for and or to in on with by at from as is are be been being was were do does did doing can could ' +
    'i me my we our us you your it its this that these those what which who whom how why when where there here ' +
    'will would should shall may might must have has had not no nor so if then than also only just very much many ' +
    'any all some each into about out up over again please want like' +
    ' le la les l un une des de du d et ou pour en au aux avec sur par dans ce ces cet cette se sa son ses qui que qu ' +
    'quoi quel quelle quels quelles comment est sont etre je j tu il elle on nous vous ils elles mon ma mes ton ta tes ' +
    'votre vos notre nos leur leurs ne pas plus y me m te t s c n peut peux puis faire fait ai as avoir donc mais ' +
    'tout tous toute toutes si quand pourquoi combien moi ceci cela ca'
  ).split(/\s+/),
);

/** Words that name one idea, brought to the first word of their group. */
const SYNONYM_GROUPS: readonly string[][] = [
  ['key', 'keys', 'token', 'tokens', 'cle', 'cles', 'jeton', 'jetons', 'apikey', 'bearer'],
  ['webhook', 'webhooks', 'signal', 'signals', 'signaux', 'callback', 'callbacks', 'notification', 'notifications'],
  [
    'limit',
    'limits',
    'limite',
    'limites',
    'quota',
    'quotas',
    'rate',
    'ratelimit',
    'throttle',
    'throttling',
    'throttled',
    'plafond',
    'debit',
  ],
  ['sign', 'signature', 'signatures', 'signing', 'signed', 'signer', 'hmac'],
  ['verify', 'verifying', 'verification', 'verifier', 'validate', 'check', 'valider', 'controler'],
  [
    'retry',
    'retries',
    'retried',
    'retrying',
    'attempt',
    'attempts',
    'tentative',
    'tentatives',
    'reessai',
    'reessayer',
    'reessayee',
    'relance',
    'backoff',
    'resend',
    'renvoi',
  ],
  ['page', 'pages', 'pagination', 'paginate', 'paginated', 'paging', 'cursor', 'cursors', 'curseur', 'curseurs'],
  ['error', 'errors', 'erreur', 'erreurs', 'problem', 'problems', 'probleme', 'problemes'],
  ['organization', 'organizations', 'organisation', 'organisations', 'org', 'company', 'companies', 'entreprise', 'entreprises'],
  ['need', 'needs', 'opportunity', 'opportunities', 'besoin', 'besoins', 'opportunite', 'opportunites'],
  ['event', 'events', 'evenement', 'evenements'],
  [
    'private',
    'privacy',
    'confidential',
    'confidentiality',
    'confidentialite',
    'prive',
    'privee',
    'prives',
    'privees',
    'confidentiel',
    'confidentielle',
  ],
  ['assistant', 'assistants', 'mcp', 'connector', 'connectors', 'connecteur', 'connecteurs', 'ai', 'ia', 'chatgpt', 'claude', 'llm'],
  ['team', 'teams', 'equipe', 'equipes', 'pack', 'packs'],
  ['plan', 'plans', 'offre', 'offres', 'tier', 'tiers', 'subscription', 'abonnement', 'pricing'],
  ['obtain', 'get', 'obtenir', 'create', 'creates', 'created', 'creation', 'creer', 'generate', 'generer'],
  ['scope', 'scopes', 'permission', 'permissions', 'droit', 'droits', 'portee'],
  ['fresh', 'freshness', 'fraicheur', 'stale', 'cache', 'caches', 'caching', 'latency', 'realtime'],
  ['browser', 'browsers', 'navigateur', 'navigateurs', 'frontend', 'cors', 'origin'],
  ['expire', 'expired', 'expires', 'expiry', 'expiration', 'expiree', 'expirer'],
  ['lost', 'lose', 'perdu', 'perdue', 'forgot', 'forgotten', 'oublie', 'oubliee', 'recover', 'recuperer'],
  ['revoke', 'revoked', 'revocation', 'revoquer', 'revoquez', 'disconnect', 'deconnecter', 'deconnexion', 'unlink'],
  ['header', 'headers', 'entete', 'entetes', 'tete'],
  ['chat', 'slack', 'messagerie', 'channel', 'canal'],
  [
    'duplicate',
    'duplicates',
    'doublon',
    'doublons',
    'dedupe',
    'deduplicate',
    'deduplication',
    'dedoublonnez',
    'dedoublonner',
    'double',
    'doubles',
    'twice',
    'repeat',
    'repeated',
    'repeats',
    'idempotency',
    'idempotent',
    'idempotence',
  ],
  ['amount', 'amounts', 'montant', 'montants', 'price', 'prices', 'prix', 'budget', 'money', 'argent'],
  ['esign', 'docusign', 'yousign', 'esignature'],
  ['call', 'calls', 'appel', 'appels', 'request', 'requests', 'requete', 'requetes'],
  ['month', 'monthly', 'mois', 'mensuel', 'mensuelle'],
  ['sync', 'synchronize', 'synchronization', 'synchronisation', 'synchroniser', 'synchronisee', 'mirror', 'miroir'],
  ['data', 'donnee', 'donnees'],
  ['member', 'members', 'membre', 'membres'],
  ['endpoint', 'endpoints', 'route', 'routes', 'path', 'paths', 'chemin'],
  [
    'delivery',
    'deliveries',
    'deliver',
    'delivered',
    'livraison',
    'livraisons',
    'livrer',
    'livre',
    'envoi',
    'envoye',
    'envoyes',
    'sent',
    'send',
  ],
];

// Phrases read as one term before words are split.
const PHRASES: readonly [RegExp, string][] = [
  [/\be[\s-]?signatures?\b|\belectronic signatures?\b|\bsignatures? electroniques?\b/g, ' esign '],
  [/\bup[\s-]to[\s-]date\b|\breal[\s-]?time\b|\btemps reel\b|\ba jour\b/g, ' fresh '],
  [/\bmodel context protocol\b/g, ' mcp '],
  [/\bapi[\s-]keys?\b/g, ' api key '],
];

/** Plural and common suffixes off, for English and French alike; numbers stay whole. */
function stem(word: string): string {
  if (/^\d+$/.test(word) || word.length <= 3) return word;
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('eaux')) w = w.slice(0, -1);
  else if (w.length > 4 && w.endsWith('aux')) w = `${w.slice(0, -3)}al`;
  else if (/[^siu]s$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ['ement', 'ment', 'ing', 'ion', 'ee', 'ed', 'er', 'e']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) return w.slice(0, -suffix.length);
  }
  return w;
}

const SYNONYMS = new Map<string, string>();
for (const [canonical, ...words] of SYNONYM_GROUPS) {
  for (const word of [canonical!, ...words]) {
    SYNONYMS.set(word, canonical!);
    if (!SYNONYMS.has(stem(word))) SYNONYMS.set(stem(word), canonical!);
  }
}

/** The search terms of `text`, in order, repeats kept: each word's synonym group, then the word when it differs. */
export function searchTerms(text: string): string[] {
  let folded = ` ${fold(text)} `;
  for (const [pattern, replacement] of PHRASES) folded = folded.replace(pattern, replacement);
  const terms: string[] = [];
  for (const word of folded.split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 2 && !/^\d$/.test(word)) continue;
    if (STOP_WORDS.has(word)) continue;
    const stemmed = stem(word);
    const canonical = SYNONYMS.get(word) ?? SYNONYMS.get(stemmed) ?? stemmed;
    terms.push(canonical);
    // The word itself counts too, so the exact word ranks above its synonyms.
    if (canonical !== stemmed) terms.push(stemmed);
  }
  return terms;
}
