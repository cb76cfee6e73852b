// Heuristic screen for money amounts in a need's free text, so outbound webhooks can withhold it.
// A false positive only holds back one webhook; a false negative leaks an amount. So where a
// phrase is ambiguous but plausibly money, it counts as an amount. Decisions on the hard cases:
//  - A number alone never counts: it needs a currency (symbol, ISO code or word) next to it, or a
//    money keyword just before it (budget, salaire, TJM, prix, …). After a keyword, a bare number
//    counts only if it looks like a sum: a k/M magnitude, thousands groups, or 3+ digits that are
//    not a year ("Budget 2026" is a title, "TJM 550" is a rate).
//  - A currency without a number ("the euro zone", "paiement en €") is not an amount, nor is a
//    vague magnitude ("millions of euros", "des milliers d'euros"). Spelled-out sums count only
//    with a number word before a plural currency ("mille euros", "a million dollars").
//  - "10k users" is a count; "45k brut" and "60k per year" are salaries.
//  - Plain "pounds" and "livres" are weights and books; only "£", GBP and "sterling" are money.
//  - CAD after a small integer is computer-aided design ("3 CAD designers"); it counts as dollars
//    after 3+ digits, a decimal or a magnitude, and always before a number ("CAD 500").
//  - "$HOME" and a lone "C$" have no digits, so they pass; "$1" is taken as a dollar.
//  - ISO codes that double as words or acronyms (MAD, TRY, AED, INR, ARS, ILS, SAR…) are left out.
// Every quantifier is bounded and numbers may not start inside another number, so the work per
// start position is constant and long or hostile input stays linear.

/** Spaces between tokens; French puts a (narrow) no-break space before € and between digit groups. */
const SPACE = '[ \\t\\u00A0\\u2007\\u2009\\u202F]';
const GAP = `${SPACE}{0,3}`;
const GROUP_SEPARATOR = "[ \\u00A0\\u2007\\u2009\\u202F,.'’]";
const NOT_AFTER_WORD = '(?<![\\p{L}\\p{N}_])';
const NOT_BEFORE_WORD = '(?![\\p{L}\\p{N}_])';

const NUMBER_START = "(?<!\\d|\\d[.,'’])";
const NUMBER_END = "(?![.,'’]?\\d)";
const DECIMALS = '(?:[.,]\\d{1,6})?';
const GROUPED = `\\d{1,3}(?:${GROUP_SEPARATOR}\\d{3}){1,5}`;
const NUMBER = `${NUMBER_START}(?:${GROUPED}|\\d{1,15})${DECIMALS}${NUMBER_END}`;
/** A number that reads as a sum even without a magnitude: "1 200", "550", "12.50" — never a year. */
const BIG_NUMBER = `${NUMBER_START}(?:${GROUPED}${DECIMALS}|(?!(?:19|20)\\d\\d(?!\\d))\\d{3,15}${DECIMALS}|\\d{1,15}[.,]\\d{1,6})${NUMBER_END}`;

const SYMBOL = '[€$£¥₣₤₹₩₽₺₿円]';
const ISO_CODE = '(?:EUR|USD|GBP|CHF|JPY|CNY|RMB|AUD|NZD|HKD|SGD|SEK|NOK|DKK|PLN|CZK|HUF|BRL|MXN|ZAR|KRW|XOF|XAF|XPF|TND|DZD|BTC)';
const CURRENCY_WORD = `(?:euros?|dollars?|(?:pounds?|livres?)${SPACE}{1,2}sterling|sterling|francs?(?:${SPACE}{1,2}(?:suisses?|CFA))?|yens?|yuans?|renminbi|rupees?|roupies?|pesos?|dinars?|dirhams?|reais|bitcoins?|centimes?|cents)`;
/** Without a digit, only plurals: "a million dollar question" is an idiom, "a million dollars" a sum. */
const PLURAL_CURRENCY_WORD = `(?:euros|dollars|(?:pounds|livres)${SPACE}{1,2}sterling|francs(?:${SPACE}{1,2}(?:suisses|CFA))?|yens?|yuans?|roupies|rupees|pesos|dinars|dirhams|bitcoins)`;

const MAGNITUDE = '(?:thousands?|millions?|milliards?|billions?|mille|mrds?|mds?|mn|mm|bn|k|m|b)';
const OF = `(?:(?:de|of)${SPACE}{1,3}|d['’])`;
const NUMBER_WORD =
  '(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|' +
  'deux|trois|quatre|cinq|sept|huit|neuf|dix|onze|douze|quinze|vingts?|trente|quarante|cinquante|soixante|cents?|mille)';
const MAGNITUDE_WORD = '(?:hundred|thousand|millions?|billions?|milliards?|mille|cents?)';

const MONEY_KEYWORD =
  '(?:budgets?|salaires?|salary|salaries|r[ée]mun[ée]rations?|compensation|pay|wages?|stipend|gratifications?|indemnit[ée]s?|' +
  `honoraires|fees?|frais|tarifs?(?:${SPACE}(?:journaliers?|horaires?))?|taux${SPACE}(?:journalier|horaire)|(?:daily|day|hourly)${SPACE}rate|tjm|` +
  'prix|prices?|costs?|co[uû]ts?|montants?|amounts?|enveloppes?|subventions?|grants?|funding|financements?|dotations?|prizes?|' +
  `r[ée]compenses?|revenues?|turnover|chiffre${SPACE}d['’]affaires|loyers?|rent|investissements?|investments?|fundraising)`;
/** Filler allowed between a keyword and its number: "budget d'environ 20k", "salaire annuel brut : 42 000". */
const KEYWORD_FILLER =
  `(?:(?:de${SPACE}l['’]ordre${SPACE}de|up${SPACE}to|will${SPACE}be|de|du|of|about|around|approx|approximately|roughly|environ|maximum|max|minimum|min|` +
  'entre|between|from|à|at|is|est|sera|mensuel(?:le)?s?|annuel(?:le)?s?|monthly|annual|yearly|bruts?|gross|nets?|total|globale?|estimée?|estimated|ht|ttc)' +
  `${NOT_BEFORE_WORD}|d['’]|jusqu['’][àa]|[~≈±:=])`;
const KEYWORD_MAGNITUDE = '(?:millions?|milliards?|billions?|thousand|mrds?|mds?|mn|bn|k|m)';

const CURRENCY_BEFORE_NUMBER = new RegExp(`${SYMBOL}${GAP}${NUMBER}`, 'u');
const CODE_BEFORE_NUMBER = new RegExp(`${NOT_AFTER_WORD}(?:${ISO_CODE}|CAD)${GAP}${NUMBER}`, 'iu');
const CURRENCY_AFTER_NUMBER = new RegExp(
  `${NUMBER}${GAP}(?:${MAGNITUDE}${GAP}${OF}?)?(?:${SYMBOL}|(?:${ISO_CODE}|${CURRENCY_WORD})${NOT_BEFORE_WORD})`,
  'iu',
);
const CAD_AFTER_NUMBER = new RegExp(`(?:${NUMBER}${GAP}${MAGNITUDE}${GAP}${OF}?|${BIG_NUMBER}${GAP})CAD${NOT_BEFORE_WORD}`, 'iu');
const KEYWORD_THEN_NUMBER = new RegExp(
  `${NOT_AFTER_WORD}${MONEY_KEYWORD}${NOT_BEFORE_WORD}(?:${GAP}${KEYWORD_FILLER}){0,3}${GAP}` +
    `(?:${NUMBER}${GAP}${KEYWORD_MAGNITUDE}${NOT_BEFORE_WORD}|${BIG_NUMBER}(?!${GAP}%))`,
  'iu',
);
const SALARY_IN_THOUSANDS = new RegExp(
  `${NUMBER}${GAP}k${NOT_BEFORE_WORD}${GAP}(?:(?:bruts?|brute|gross|nets?|annuels?|annual)${NOT_BEFORE_WORD}|` +
    `(?:\\/|(?:per|par|a|an|each|every|chaque)${NOT_BEFORE_WORD})${GAP}(?:an|ann[ée]e|year|yr|annum|mois|month)${NOT_BEFORE_WORD})`,
  'iu',
);
const SPELLED_OUT_AMOUNT = new RegExp(
  `${NOT_AFTER_WORD}(?:${NUMBER_WORD}${SPACE}{1,3}(?:${MAGNITUDE_WORD}${GAP}${OF}?)?|(?:an?|une?|one)${SPACE}{1,3}${MAGNITUDE_WORD}${GAP}${OF}?)` +
    `${PLURAL_CURRENCY_WORD}${NOT_BEFORE_WORD}`,
  'iu',
);

const HAS_DIGIT = /\d/;
const DIGIT_PATTERNS: readonly RegExp[] = [
  CURRENCY_BEFORE_NUMBER,
  CURRENCY_AFTER_NUMBER,
  CODE_BEFORE_NUMBER,
  CAD_AFTER_NUMBER,
  KEYWORD_THEN_NUMBER,
  SALARY_IN_THOUSANDS,
];

/** True when the text likely states a sum of money (English or French notation). */
export function mentionsAmount(text: string): boolean {
  if (SPELLED_OUT_AMOUNT.test(text)) return true;
  if (!HAS_DIGIT.test(text)) return false;
  for (const pattern of DIGIT_PATTERNS) {
    if (pattern.test(text)) return true;
  }
  return false;
}
