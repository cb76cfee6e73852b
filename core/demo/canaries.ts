// Recognisable values stored only in private objects and internal fields by the demo data.
// Privacy tests read every public output (REST, webhooks, assistant connectors) and fail if
// any of these strings appears. Amounts are listed in the notations they could leak in.

export const CANARY = {
  splitShareCents: 7_314_159,
  splitPercent: 73.8291,
  splitTotalCents: 19_551_115,
  collectionCents: 3_141_592,
  collectionReference: 'canary-collection-ref-8c2d',
  payoutCents: 2_718_281,
  payoutNote: 'canary payout confirmation 5e1f',
  milestoneTitle: 'Canary milestone 9a7b',
  milestoneCents: 1_618_033,
  documentFilename: 'canary-document-3d4e.pdf',
  documentSummary: 'canary document summary 4c1a',
  threadSubject: 'Canary thread 6f0a',
  threadMessage: 'canary private message 2b9c',
  positioning: 'canary positioning 4e8f',
  priceCents: 5_772_156,
  quoteBody: 'canary quote 1c3d',
  quoteCents: 1_414_213,
  pactTerms: 'canary pact terms 7e2a',
  signatureEnvelope: 'canary-envelope-0f9b',
  clauseBody: 'canary clause 8b1e',
  templateBody: 'canary template 5d6c',
  orgInternalNotes: 'canary internal note 3a4b',
  orgBillingEmail: 'billing-canary-7d2e@example.org',
  hostContactEmail: 'host-canary-9c0d@example.org',
  hostContactPhone: '+33 6 00 97 31 42',
  hostNotes: 'canary host note 2f7e',
} as const;

const cents = (n: number) => [String(n), (n / 100).toFixed(2), (n / 100).toLocaleString('en-US'), (n / 100).toLocaleString('fr-FR')];

let strings: readonly string[] | undefined;

/**
 * Every string whose presence in a public output proves a leak. Made on first use: the French
 * notation loads the locale's data (~20 ms), which the demo seed, imported by every CLI command,
 * does not need.
 */
export function canaryStrings(): readonly string[] {
  strings ??= [
    ...Object.values(CANARY).filter((v): v is Extract<(typeof CANARY)[keyof typeof CANARY], string> => typeof v === 'string'),
    ...cents(CANARY.splitShareCents),
    ...cents(CANARY.splitTotalCents),
    ...cents(CANARY.collectionCents),
    ...cents(CANARY.payoutCents),
    ...cents(CANARY.milestoneCents),
    ...cents(CANARY.priceCents),
    ...cents(CANARY.quoteCents),
    String(CANARY.splitPercent),
  ];
  return strings;
}

/** The canaries found in a text; empty when it is clean. */
export function findCanaries(text: string): string[] {
  return canaryStrings().filter((c) => text.includes(c));
}
