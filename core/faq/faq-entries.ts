/** One question of the FAQ, answered in plain text (1 to 4 sentences). */
export interface FaqEntry {
  /** Stable kebab-case id, also the anchor of `/faq#<id>`. */
  id: string;
  question: string;
  answer: string;
  /** Search words that appear in neither the question nor the answer (English or French). */
  tags: string[];
  /** Where to read more: a path of the service, e.g. `/api/v1/docs#pagination` or `/faq#<id>`. */
  link: string;
  fr?: { question: string; answer: string };
}

// Accurate to docs/service-contract.md and docs/design.md; change an answer when the contract changes.
export const FAQ_ENTRIES: readonly FaqEntry[] = [
  {
    id: 'what-is-packline',
    question: 'What is Packline?',
    answer:
      'Packline is a platform on which organizations publish public needs (opportunities) and public events, and form teams called packs around needs. Its public data is available through a read-only REST API, outbound webhooks and assistant connectors. Everything that happens inside a pack stays inside it.',
    tags: ['platform', 'overview', 'about', 'introduction', 'plateforme', 'presentation'],
    link: '/faq#what-is-packline',
    fr: {
      question: "Qu'est-ce que Packline ?",
      answer:
        "Packline est une plateforme où les organisations publient des besoins publics (opportunités) et des événements publics, et forment des équipes appelées packs autour des besoins. Ses données publiques sont accessibles par une API REST en lecture seule, des webhooks sortants et des connecteurs d'assistant. Ce qui se passe dans un pack reste dans le pack.",
    },
  },
  {
    id: 'get-api-key',
    question: 'How do I get an API key?',
    answer:
      'An administrator of your organization creates it in the admin dashboard, in the public API section of the organization profile, and chooses its scopes and an expiry date (at most two years ahead). The key starts with live_ and is displayed once only, at creation: store it in your server secrets right away.',
    tags: ['create', 'generate', 'new', 'dashboard', 'obtain', 'créer', 'nouvelle'],
    link: '/api/v1/docs#authentication',
    fr: {
      question: 'Comment obtenir une clé API ?',
      answer:
        "Un administrateur de votre organisation la crée dans le tableau de bord d'administration, section API publique du profil de l'organisation, en choisissant ses permissions (scopes) et une date d'expiration (au plus deux ans). La clé commence par live_ et ne s'affiche qu'une fois, à la création : rangez-la aussitôt dans les secrets de votre serveur.",
    },
  },
  {
    id: 'lost-api-key',
    question: 'I lost my API key or it expired. Can I recover it?',
    answer:
      'No: keys are stored only as a hash and shown once, so nobody can display one again. Revoke the lost key and create a new one in the admin dashboard; an expired key stops working at its expiry date and must be replaced the same way.',
    tags: ['lost', 'forgot', 'recover', 'revoke', 'expired', 'rotate', 'perdu', 'oublié', 'révoquer', 'expirée'],
    link: '/faq#lost-api-key',
    fr: {
      question: "J'ai perdu ma clé API ou elle a expiré : puis-je la récupérer ?",
      answer:
        "Non : les clés ne sont conservées que sous forme d'empreinte et ne s'affichent qu'une fois. Révoquez la clé perdue et créez-en une nouvelle dans le tableau de bord ; une clé expirée cesse de fonctionner à sa date d'expiration et se remplace de la même façon.",
    },
  },
  {
    id: 'authentication',
    question: 'How do I authenticate API requests?',
    answer:
      'Send the header Authorization: Bearer <API_KEY> with every request. The key is bound to one organization, and GET /organization returns that organization. An invalid, expired or revoked key gets a 401 with code invalid_key.',
    tags: ['bearer', 'header', 'authorization', 'auth', '401', 'invalid_key', 'authentification', 'en-tête'],
    link: '/api/v1/docs#authentication',
    fr: {
      question: "Comment authentifier les requêtes à l'API ?",
      answer:
        "Envoyez l'en-tête Authorization: Bearer <API_KEY> à chaque requête. La clé est liée à une organisation, que GET /organization renvoie. Une clé invalide, expirée ou révoquée reçoit un 401 avec le code invalid_key.",
    },
  },
  {
    id: 'api-scopes',
    question: 'What scopes can an API key have?',
    answer:
      'Three scopes: organization:read for GET /organization, opportunities:read for the opportunities endpoints and events:read for the events endpoints. They are chosen when the key is created. A valid key without the scope an endpoint requires gets a 403 with code missing_scope, naming the scope.',
    tags: [
      'scope',
      'permission',
      'missing_scope',
      '403',
      'organization:read',
      'opportunities:read',
      'events:read',
      'droits',
      'autorisation',
    ],
    link: '/api/v1/docs#scopes',
    fr: {
      question: 'Quelles permissions (scopes) une clé API peut-elle avoir ?',
      answer:
        'Trois : organization:read pour GET /organization, opportunities:read pour les opportunités et events:read pour les événements. Elles se choisissent à la création de la clé. Une clé valide sans la permission requise reçoit un 403 avec le code missing_scope.',
    },
  },
  {
    id: 'active-keys-per-plan',
    question: 'How many active API keys does each plan allow?',
    answer:
      'It depends on the plan: Base 1, Alpha 1 and Clan 5 active keys. Revoke a key before creating another when you reach the limit.',
    tags: ['how many', 'number', 'plan', 'base', 'alpha', 'clan', 'combien', 'nombre'],
    link: '/api/v1/docs#limits',
    fr: {
      question: 'Combien de clés API actives chaque offre permet-elle ?',
      answer:
        "Cela dépend de l'offre : Base 1, Alpha 1 et Clan 5 clés actives. Révoquez une clé avant d'en créer une autre quand la limite est atteinte.",
    },
  },
  {
    id: 'browser-use',
    question: 'Can I call the API from a browser or a mobile app?',
    answer:
      'No. The API is server-to-server: a key must only be used from servers or cloud functions, never in browser or mobile code where anyone can read it. Requests that carry an Origin header are refused with 403 browser_origin_forbidden, and no CORS headers are sent.',
    tags: ['browser', 'frontend', 'javascript', 'cors', 'origin', 'mobile', 'client side', 'navigateur', 'browser_origin_forbidden'],
    link: '/api/v1/docs#authentication',
    fr: {
      question: "Puis-je appeler l'API depuis un navigateur ou une application mobile ?",
      answer:
        "Non. L'API est de serveur à serveur : une clé ne s'utilise que depuis un serveur ou une fonction cloud, jamais dans du code de navigateur ou d'application mobile. Les requêtes portant un en-tête Origin sont refusées (403 browser_origin_forbidden) et aucun en-tête CORS n'est envoyé.",
    },
  },
  {
    id: 'endpoints',
    question: 'Which endpoints does the REST API offer?',
    answer:
      'All are GET under /api/v1: /organization, /opportunities and /opportunities/{id}, /events and /events/{id}. They are read-only, need no body and answer JSON. The OpenAPI 3.1 contract is served without a key at /api/v1/openapi.json.',
    tags: ['routes', 'paths', 'resources', 'get', 'read only', 'liste des routes', 'ressources'],
    link: '/api/v1/docs#endpoints',
    fr: {
      question: "Quelles routes propose l'API REST ?",
      answer:
        'Toutes en GET sous /api/v1 : /organization, /opportunities et /opportunities/{id}, /events et /events/{id}. Elles sont en lecture seule, sans corps, et répondent en JSON. Le contrat OpenAPI 3.1 est servi sans clé à /api/v1/openapi.json.',
    },
  },
  {
    id: 'rate-limit',
    question: 'What is the API rate limit?',
    answer:
      'By default 120 requests per minute per key. Every authenticated response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset. Beyond the limit the API answers 429 with code rate_limited and a Retry-After header.',
    tags: [
      'rate',
      'throttle',
      'per minute',
      'too many requests',
      '429',
      'rate_limited',
      'retry-after',
      'x-ratelimit',
      'débit',
      'par minute',
    ],
    link: '/api/v1/docs#limits',
    fr: {
      question: "Quelle est la limite de débit de l'API ?",
      answer:
        "Par défaut 120 requêtes par minute et par clé. Chaque réponse authentifiée porte X-RateLimit-Limit, X-RateLimit-Remaining et X-RateLimit-Reset. Au-delà, l'API répond 429 avec le code rate_limited et un en-tête Retry-After.",
    },
  },
  {
    id: 'monthly-quota',
    question: 'What is the monthly quota of API calls?',
    answer:
      'Each organization has a monthly quota by plan: Base 1,000 calls, Alpha 10,000 and Clan 100,000, counted per calendar month in UTC. The X-Monthly-Quota-Limit, X-Monthly-Quota-Remaining and X-Monthly-Quota-Reset headers show the balance and the reset time. Once the quota is used up the API answers 429 with code quota_exceeded until the next month.',
    tags: ['monthly', 'month', 'calls', 'plan', 'quota_exceeded', 'mensuel', 'par mois', 'appels', 'offre'],
    link: '/api/v1/docs#limits',
    fr: {
      question: "Quel est le quota mensuel d'appels à l'API ?",
      answer:
        "Chaque organisation a un quota mensuel selon son offre : Base 1 000 appels, Alpha 10 000 et Clan 100 000, par mois calendaire UTC. Les en-têtes X-Monthly-Quota-* indiquent le solde et la remise à zéro. Quota épuisé, l'API répond 429 avec le code quota_exceeded jusqu'au mois suivant.",
    },
  },
  {
    id: 'pagination',
    question: 'How does pagination work?',
    answer:
      'Lists answer { "data": [...], "meta": { "next_cursor": ... } }: pass meta.next_cursor back as the cursor query parameter to get the next page, until next_cursor is null on the last page. The limit parameter takes 1 to 50 items, 20 by default. Cursors are opaque and signed: an altered cursor or one from another list is a 400 invalid_cursor.',
    tags: ['cursor', 'next_cursor', 'page', 'limit', 'paging', 'invalid_cursor', 'curseur', 'page suivante'],
    link: '/api/v1/docs#pagination',
    fr: {
      question: 'Comment fonctionne la pagination ?',
      answer:
        'Les listes répondent { "data": [...], "meta": { "next_cursor": ... } } : renvoyez meta.next_cursor dans le paramètre cursor pour obtenir la page suivante, jusqu\'à ce que next_cursor soit null. Le paramètre limit va de 1 à 50, 20 par défaut. Un curseur altéré ou venant d\'une autre liste donne un 400 invalid_cursor.',
    },
  },
  {
    id: 'list-order',
    question: 'In which order are opportunities and events listed?',
    answer:
      'Opportunities come newest published first. Events list the upcoming and ongoing ones, soonest first; past and cancelled events are not listed.',
    tags: ['sort', 'order', 'newest', 'upcoming', 'tri', 'ordre'],
    link: '/api/v1/docs#pagination',
    fr: {
      question: 'Dans quel ordre les opportunités et les événements sont-ils listés ?',
      answer:
        'Les opportunités, des plus récemment publiées aux plus anciennes. Les événements à venir et en cours, du plus proche au plus lointain ; les événements passés ou annulés ne sont pas listés.',
    },
  },
  {
    id: 'errors',
    question: 'What do API error responses look like?',
    answer:
      'Errors are RFC 9457 application/problem+json bodies with type, title, status, detail, code and request_id. Codes: invalid_key (401), missing_scope and browser_origin_forbidden (403), not_found (404), invalid_parameter and invalid_cursor (400), method_not_allowed (405), rate_limited and quota_exceeded (429), internal_error (500). Every response carries an X-Request-Id to quote when you contact support.',
    tags: ['error', 'problem+json', 'status', 'codes', 'rfc 9457', '400', '500', 'x-request-id', 'erreur'],
    link: '/api/v1/docs#errors',
    fr: {
      question: "À quoi ressemblent les erreurs de l'API ?",
      answer:
        'Les erreurs sont des corps application/problem+json (RFC 9457) avec type, title, status, detail, code et request_id. Codes : invalid_key (401), missing_scope et browser_origin_forbidden (403), not_found (404), invalid_parameter et invalid_cursor (400), method_not_allowed (405), rate_limited et quota_exceeded (429), internal_error (500). Chaque réponse porte un X-Request-Id.',
    },
  },
  {
    id: 'not-found',
    question: 'Why does an opportunity or event return 404?',
    answer:
      'A 404 means it does not exist or is no longer public: the need was withdrawn or made private, or the event was cancelled. After a need.withdrawn or event.cancelled signal, reading the resource by id confirms it with a 404.',
    tags: ['404', 'not_found', 'missing', 'gone', 'withdrawn', 'cancelled', 'introuvable', 'retiré', 'annulé'],
    link: '/api/v1/docs#errors',
    fr: {
      question: 'Pourquoi une opportunité ou un événement renvoie-t-il 404 ?',
      answer:
        "Un 404 signifie qu'il n'existe pas ou n'est plus public : le besoin a été retiré ou rendu privé, ou l'événement annulé. Après un signal need.withdrawn ou event.cancelled, la lecture par identifiant le confirme par un 404.",
    },
  },
  {
    id: 'never-exposed',
    question: 'What data is never exposed?',
    answer:
      'Messages, quotes, pacts and their signatures, confidential needs and internal data are never exposed, nor revenue splits, collections and payouts, milestones, documents and private threads of a pack, members’ positioning and prices, private clauses and contract templates. Partner payment appears only as a confirmed rate and a number of partners, never as an amount. No endpoint, webhook or assistant tool returns these, now or in another form.',
    tags: [
      'privacy',
      'private',
      'confidential',
      'revenue split',
      'amount',
      'payout',
      'secret',
      'gdpr',
      'confidentialité',
      'privé',
      'montant',
      'vie privée',
    ],
    link: '/faq#never-exposed',
    fr: {
      question: 'Quelles données ne sont jamais exposées ?',
      answer:
        "Les messages, devis, pactes et leurs signatures, besoins confidentiels et données internes ne sont jamais exposés, pas plus que les répartitions de revenus, encaissements et versements, jalons, documents et fils privés d'un pack, positionnements et prix des membres, clauses privées et modèles de contrat. Le paiement des partenaires n'apparaît que comme un taux confirmé et un nombre de partenaires, jamais comme un montant.",
    },
  },
  {
    id: 'webhook-events',
    question: 'Which webhook events are sent?',
    answer:
      'Six kinds: need.created, need.updated and need.withdrawn for public needs, event.created, event.updated and event.cancelled for public events. Each destination chooses the kinds it receives. Nothing about the internal life of a pack (splits, payouts, milestones, documents, prices, signatures) ever triggers a delivery.',
    tags: [
      'webhook',
      'event types',
      'kinds',
      'need.created',
      'need.updated',
      'need.withdrawn',
      'event.created',
      'event.cancelled',
      'signal',
      'notification',
      'types',
    ],
    link: '/api/v1/docs#webhooks',
    fr: {
      question: 'Quels événements les webhooks envoient-ils ?',
      answer:
        "Six types : need.created, need.updated et need.withdrawn pour les besoins publics, event.created, event.updated et event.cancelled pour les événements publics. Chaque destination choisit les types qu'elle reçoit. Rien de la vie interne d'un pack ne déclenche d'envoi.",
    },
  },
  {
    id: 'webhook-formats',
    question: 'In which formats can webhooks be delivered?',
    answer:
      'Three formats: standard JSON (a signed envelope for your own endpoint), team-chat (a block message with a summary, the expertise list and a button) and collaboration-suite (an adaptive card for a workflow URL). The language (English or French) is chosen per destination, and mentions coming from user content are neutralized.',
    tags: ['webhook', 'format', 'chat', 'slack', 'adaptive card', 'workflow', 'json', 'language', 'langue', 'canal', 'destination'],
    link: '/api/v1/docs#webhooks',
    fr: {
      question: 'Dans quels formats les webhooks peuvent-ils être livrés ?',
      answer:
        "Trois formats : JSON standard (une enveloppe signée pour votre propre point d'accès), messagerie d'équipe (un message en blocs avec résumé, expertises et bouton) et suite collaborative (une carte adaptative pour une URL de workflow). La langue (anglais ou français) se choisit par destination et les mentions venant du contenu des utilisateurs sont neutralisées.",
    },
  },
  {
    id: 'webhook-envelope',
    question: 'What does a webhook payload look like?',
    answer:
      'The standard JSON envelope is { id, type, version: "1", occurred_at, organization_id, data }. The id, shaped evt-<type>-<resource id>-v<version>, is the same on every attempt; organization_id is null for the platform-wide public feed. A need.created carries id, title, required_expertise, remote_allowed and url; withdrawals and cancellations carry only the id, the date and a link.',
    tags: ['webhook', 'payload', 'envelope', 'body', 'schema', 'fields', 'data', 'contenu', 'champs', 'enveloppe'],
    link: '/api/v1/docs#webhooks',
    fr: {
      question: "À quoi ressemble le contenu d'un webhook ?",
      answer:
        'L\'enveloppe JSON standard est { id, type, version: "1", occurred_at, organization_id, data }. L\'id, de forme evt-<type>-<identifiant>-v<version>, est le même à chaque tentative ; organization_id vaut null pour le flux public de la plateforme. Un need.created porte id, title, required_expertise, remote_allowed et url.',
    },
  },
  {
    id: 'webhook-signature',
    question: 'How do I verify a webhook signature?',
    answer:
      'Standard JSON deliveries carry X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>. Compute the HMAC-SHA256 of "<t>.<raw body>" with the whsec_ secret shown when the destination was created, compare in constant time, and reject timestamps older than five minutes. Standard Webhooks headers are sent as well; chat and suite destinations have no signing secret.',
    tags: [
      'webhook',
      'signature',
      'hmac',
      'sha256',
      'verify',
      'whsec',
      'secret',
      'x-service-signature',
      'standard webhooks',
      'vérifier',
      'signer',
    ],
    link: '/api/v1/docs#webhook-signatures',
    fr: {
      question: "Comment vérifier la signature d'un webhook ?",
      answer:
        'Les envois JSON standard portent X-Service-Signature: t=<secondes unix>,v1=<HMAC-SHA256 en hexadécimal>. Calculez le HMAC-SHA256 de "<t>.<corps brut>" avec le secret whsec_ affiché à la création de la destination, comparez en temps constant et rejetez les horodatages de plus de cinq minutes. Les destinations de messagerie et de suite n\'ont pas de secret.',
    },
  },
  {
    id: 'webhook-retries',
    question: 'How are webhook deliveries retried, and can one be delivered twice?',
    answer:
      'Delivery is at-least-once: answer with a 2xx within 8 seconds, otherwise up to 8 attempts are made with growing delays (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, with jitter), honouring a longer Retry-After. Redirects count as failures and a 410 disables the destination. Deduplicate durably on X-Service-Event-Id (equal to Idempotency-Key), in the same transaction as your business effect.',
    tags: [
      'webhook',
      'retry',
      'attempts',
      'backoff',
      'timeout',
      'idempotency',
      'duplicate',
      'at-least-once',
      'dedupe',
      'x-service-event-id',
      'tentative',
      'doublon',
      'délai',
    ],
    link: '/api/v1/docs#webhook-delivery',
    fr: {
      question: 'Comment les livraisons de webhooks sont-elles réessayées, et peuvent-elles arriver en double ?',
      answer:
        "La livraison est « au moins une fois » : répondez par un 2xx en moins de 8 secondes, sinon jusqu'à 8 tentatives sont faites à intervalles croissants (immédiatement, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). Une redirection compte comme un échec et un 410 désactive la destination. Dédoublonnez durablement sur X-Service-Event-Id (égal à Idempotency-Key).",
    },
  },
  {
    id: 'webhook-exclusions',
    question: 'Which needs are never sent by webhook?',
    answer:
      'Discreet needs, demonstration needs and needs whose text likely states an amount (such as "5 000 €" or "$12k") are never delivered. Discreet needs and needs mentioning an amount stay readable through the API; demonstration needs are never public output.',
    tags: [
      'webhook',
      'excluded',
      'filter',
      'discreet',
      'demo',
      'amount',
      'budget',
      'price',
      'not sent',
      'exclus',
      'discret',
      'montant',
      'envoyé',
    ],
    link: '/api/v1/docs#webhooks',
    fr: {
      question: 'Quels besoins ne sont jamais envoyés par webhook ?',
      answer:
        "Les besoins discrets, les besoins de démonstration et ceux dont le texte mentionne probablement un montant (comme « 5 000 € » ou « 12 k$ ») ne sont jamais livrés. Les besoins discrets restent lisibles par l'API.",
    },
  },
  {
    id: 'webhook-plans',
    question: 'How many webhook destinations does each plan allow?',
    answer:
      'Base allows 1 destination and keeps 12 deliveries, Alpha 2 destinations and 25 deliveries, Clan 10 destinations and 100 deliveries. Manual retry of a delivery is available on Clan only.',
    tags: ['webhook', 'destinations', 'plan', 'base', 'alpha', 'clan', 'manual retry', 'history', 'offre', 'historique'],
    link: '/api/v1/docs#webhooks',
    fr: {
      question: 'Combien de destinations de webhooks chaque offre permet-elle ?',
      answer:
        "Base permet 1 destination et conserve 12 livraisons, Alpha 2 destinations et 25 livraisons, Clan 10 destinations et 100 livraisons. Le renvoi manuel d'une livraison n'existe que sur Clan.",
    },
  },
  {
    id: 'key-vs-webhook-secret',
    question: 'Can I use a webhook signing secret as an API key?',
    answer:
      'No. API bearer keys (live_…) and webhook signing secrets (whsec_…) are distinct and never interchangeable: a signing secret presented as a bearer key gets a 401.',
    tags: ['whsec', 'live_', 'secret', 'key', 'difference', 'différence'],
    link: '/api/v1/docs#authentication',
    fr: {
      question: 'Puis-je utiliser un secret de signature de webhook comme clé API ?',
      answer:
        'Non. Les clés API (live_…) et les secrets de signature de webhooks (whsec_…) sont distincts et jamais interchangeables : un secret présenté comme clé reçoit un 401.',
    },
  },
  {
    id: 'sync-strategy',
    question: 'How do I keep my copy of the data in sync?',
    answer:
      'Combine API reads with the need.* and event.* webhook signals. On each signal, read the resource by id to get its current public state; a 404 confirms it is no longer public. Deliveries can repeat, so deduplicate on the event id.',
    tags: ['sync', 'synchronization', 'synchronisation', 'mirror', 'copy', 'continuous', 'polling', 'webhook', 'copie'],
    link: '/api/v1/docs#webhooks',
    fr: {
      question: 'Comment garder ma copie des données synchronisée ?',
      answer:
        "Combinez les lectures de l'API avec les signaux need.* et event.*. À chaque signal, relisez la ressource par identifiant pour obtenir son état public actuel ; un 404 confirme qu'elle n'est plus publique. Les livraisons peuvent se répéter : dédoublonnez sur l'identifiant d'événement.",
    },
  },
  {
    id: 'data-freshness',
    question: 'How fresh is the data the API returns?',
    answer:
      'Every change to public data invalidates the API caches in the same transaction, so answers reflect it within a fraction of a second. Reading a resource by id always gives its current public state, and events drop out of the list within seconds of ending.',
    tags: ['fresh', 'stale', 'cache', 'delay', 'latency', 'real time', 'up to date', 'fraîcheur', 'à jour', 'délai', 'temps réel'],
    link: '/faq#data-freshness',
    fr: {
      question: 'Les données renvoyées par l’API sont-elles à jour ?',
      answer:
        "Chaque modification des données publiques invalide les caches de l'API dans la même transaction : les réponses en tiennent compte en une fraction de seconde. La lecture par identifiant donne toujours l'état public actuel, et un événement terminé quitte la liste en quelques secondes.",
    },
  },
  {
    id: 'api-versioning',
    question: 'How is the API versioned, and where is the OpenAPI contract?',
    answer:
      'The API is version 1, carried in the path /api/v1, and is labelled beta. Its OpenAPI 3.1 contract, info version 2026-07-25, is served without a key at /api/v1/openapi.json and declares bearer authentication and the scope of each operation. The webhook envelope has version "1".',
    tags: ['version', 'openapi', 'swagger', 'spec', 'contract', 'beta', 'schema', 'contrat'],
    link: '/api/v1/openapi.json',
    fr: {
      question: "Comment l'API est-elle versionnée, et où est le contrat OpenAPI ?",
      answer:
        "L'API est en version 1, portée par le chemin /api/v1, et en bêta. Son contrat OpenAPI 3.1, version 2026-07-25, est servi sans clé à /api/v1/openapi.json et déclare l'authentification bearer et la permission de chaque opération.",
    },
  },
  {
    id: 'public-assistant-connector',
    question: 'What is the public assistant connector?',
    answer:
      'A remote Model Context Protocol (MCP) server at /mcp that gives AI assistants read-only access to public data without key or account. Its tools are search_organizations, get_organization, compose_team, explain_service, search and fetch. It never returns demonstration, incomplete or unlisted organizations, people, publications, needs, events, quotes or pacts, and allows 60 calls per minute per address.',
    tags: [
      'mcp',
      'assistant',
      'ai',
      'chatgpt',
      'claude',
      'llm',
      'connector',
      'model context protocol',
      'tools',
      'ia',
      'connecteur',
      'outils',
    ],
    link: '/faq#public-assistant-connector',
    fr: {
      question: "Qu'est-ce que le connecteur d'assistant public ?",
      answer:
        "Un serveur Model Context Protocol (MCP) distant, à /mcp, qui donne aux assistants d'IA un accès en lecture seule aux données publiques, sans clé ni compte. Ses outils : search_organizations, get_organization, compose_team, explain_service, search et fetch. Il ne renvoie jamais d'organisations de démonstration, incomplètes ou non listées, ni personnes, besoins, événements, devis ou pactes.",
    },
  },
  {
    id: 'compose-team',
    question: 'How does the assistant propose a team for a need?',
    answer:
      'The compose_team tool reads the required expertise (or a need text naming it), place and remote preference, and proposes complementary listed organizations with the expertise each covers, a coverage percentage and the gaps. Teams are proposals only: no organization is contacted. The need text sent is neither stored nor logged, and each address may compose 20 teams per hour.',
    tags: ['compose_team', 'team', 'pack', 'partners', 'coverage', 'gaps', 'expertise', 'équipe', 'partenaires', 'composer'],
    link: '/faq#compose-team',
    fr: {
      question: "Comment l'assistant propose-t-il une équipe pour un besoin ?",
      answer:
        "L'outil compose_team lit les expertises requises (ou un texte de besoin qui les nomme), le lieu et l'acceptation du travail à distance, et propose des organisations listées complémentaires avec l'expertise de chacune, un taux de couverture et les manques. Ce ne sont que des propositions : aucune organisation n'est contactée. Le texte du besoin n'est ni conservé ni journalisé.",
    },
  },
  {
    id: 'member-assistant-connector',
    question: 'What can the member assistant connector do for me?',
    answer:
      'At /mcp/member an assistant acts for you after your explicit consent (OAuth 2.1 with PKCE): it can read your account and pending team invitations and prepare a draft need that you review and publish yourself. It can never publish, send a message, sign a pact or submit a quote, and every action is logged. Revoke it at any time in settings, integrations, connected applications, or by changing your password or signing out everywhere.',
    tags: [
      'mcp',
      'member',
      'oauth',
      'consent',
      'my_account',
      'my_invitations',
      'draft_need',
      'revoke',
      'disconnect',
      'membre',
      'consentement',
      'révoquer',
      'déconnecter',
      'assistant',
    ],
    link: '/faq#member-assistant-connector',
    fr: {
      question: "Que peut faire pour moi le connecteur d'assistant membre ?",
      answer:
        'À /mcp/member, un assistant agit pour vous après votre consentement explicite (OAuth 2.1 avec PKCE) : il lit votre compte et vos invitations en attente et prépare un brouillon de besoin que vous relisez et publiez vous-même. Il ne peut jamais publier, envoyer un message, signer un pacte ni soumettre un devis. Révoquez-le dans paramètres, intégrations, applications connectées, ou en changeant de mot de passe ou en vous déconnectant partout.',
    },
  },
  {
    id: 'e-signature',
    question: 'How does the e-signature integration work?',
    answer:
      'An e-signature provider is connected natively, separately from outbound webhooks. Its state changes arrive on a dedicated address, verified with the HMAC secret given when the connection is made, and update the signature state of pacts. They trigger no outbound webhook, and pact signatures are never exposed publicly.',
    tags: [
      'esign',
      'e-signature',
      'electronic signature',
      'docusign',
      'pact',
      'provider',
      'signature électronique',
      'pacte',
      'fournisseur',
    ],
    link: '/faq#e-signature',
    fr: {
      question: 'Comment fonctionne la signature électronique ?',
      answer:
        "Un prestataire de signature électronique est connecté nativement, à part des webhooks sortants. Ses changements d'état arrivent sur une adresse dédiée, vérifiés avec le secret HMAC donné à la connexion, et mettent à jour l'état de signature des pactes. Ils ne déclenchent aucun webhook sortant et les signatures ne sont jamais exposées.",
    },
  },
];
