// Which writing systems a text's words are in. Training records the scripts of the text the model
// learnt from (manifest params.scripts); a search reads how much of its question is in them, since
// the model's encoder and confidence know nothing of words in other scripts (only lexical matching
// finds those). A token's script is that of its first letter; a token without a letter (a number)
// is in no script and counts for nothing. Pure.

/** The scripts told apart, by Unicode Script property name. */
export const SCRIPT_NAMES = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Han',
] as const;

const LETTER = /\p{L}/u;
const byName = new Map(SCRIPT_NAMES.map((n) => [n, new RegExp(`^\\p{sc=${n}}`, 'u')]));

/** The script of a token (of its first letter): a name of SCRIPT_NAMES, `Other`, or undefined for a token without a letter. */
export function tokenScript(form: string): string | undefined {
  const i = form.search(LETTER);
  if (i < 0) return undefined;
  const first = form.slice(i);
  for (const [name, re] of byName) if (re.test(first)) return name;
  return 'Other';
}

/** Letter tokens per script over many texts' tokens. */
export function countScripts(forms: Iterable<string>, into = new Map<string, number>()): Map<string, number> {
  for (const f of forms) {
    const s = tokenScript(f);
    if (s) into.set(s, (into.get(s) ?? 0) + 1);
  }
  return into;
}

/** The scripts holding at least `minShare` of the letter tokens counted, by name. */
export function mainScripts(counts: Map<string, number>, minShare: number): string[] {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return [...counts.entries()]
    .filter(([name, n]) => name !== 'Other' && n >= minShare * total)
    .map(([name]) => name)
    .sort();
}

/** The share of a text's letter tokens that are in one of `scripts` (1 when it has none). */
export function shareInScripts(forms: readonly string[], scripts: readonly string[]): number {
  let letters = 0;
  let known = 0;
  for (const f of forms) {
    const s = tokenScript(f);
    if (!s) continue;
    letters++;
    if (scripts.includes(s)) known++;
  }
  return letters ? known / letters : 1;
}
