// Text folding shared by the expertise vocabulary and place matching: the same rules on both
// sides of every comparison, so "Modélisation 3D", "modelisation-3d" and "3D modellings" meet.

const LIGATURES: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss' };

/** Lower case, ligatures expanded, accents removed. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[œæß]/g, (c) => LIGATURES[c] ?? c)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
}

// Words that never carry expertise; dropping them lets "gestion de projet" meet "gestion projet"
// and "architecte d'intérieur" meet "architecte intérieur".
const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'for',
  'and',
  'or',
  'to',
  'in',
  'on',
  'with',
  'by',
  'at',
  'from',
  'as',
  'our',
  'we',
  'my',
  'i',
  'me',
  'your',
  'some',
  'someone',
  'plus',
  'le',
  'la',
  'les',
  'l',
  'un',
  'une',
  'des',
  'de',
  'du',
  'd',
  'et',
  'ou',
  'pour',
  'en',
  'au',
  'aux',
  'avec',
  'sur',
  'par',
  'dans',
  'notre',
  'nos',
  'nous',
  'je',
  'j',
  'qui',
  'que',
  'qu',
  'sa',
  'ses',
]);

/** Singular form, good enough for matching: the same rule runs on the vocabulary and the text. */
function singular(token: string): string {
  if (token.length > 4 && token.endsWith('eaux')) return token.slice(0, -1);
  if (token.length > 4 && token.endsWith('aux')) return `${token.slice(0, -3)}al`;
  if (token.length > 4 && token.endsWith('ies')) return `${token.slice(0, -3)}y`;
  if (token.length > 3 && token.endsWith('s') && !/[siu]s$/.test(token)) return token.slice(0, -1);
  return token;
}

/** Folded, singular content words of `text`; punctuation, hyphens and stop words are dropped. */
export function expertiseTokens(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '' && !STOP_WORDS.has(t))
    .map(singular);
}
