// Phrase keys: a 32-bit hash of a sequence of term ids, the same whether computed over a whole
// title or over a window of a passage's term sequence (so a title mentioned in a text is found by
// hashing windows). An empty sequence has no key (0 is never produced for a non-empty one).
export const PHRASE_SEED = 0x811c9dc5;

/** The hash state after one more term (FNV-1a over the term's four bytes). */
export function phraseExtend(h: number, t: number): number {
  h = Math.imul(h ^ (t & 0xff), 0x01000193);
  h = Math.imul(h ^ ((t >>> 8) & 0xff), 0x01000193);
  h = Math.imul(h ^ ((t >>> 16) & 0xff), 0x01000193);
  return Math.imul(h ^ (t >>> 24), 0x01000193);
}

/** The key of a hash state (never 0). */
export function phraseFinal(h: number): number {
  return h >>> 0 || 1;
}

export function phraseKey(terms: ArrayLike<number>, start = 0, end = terms.length): number {
  let h = PHRASE_SEED;
  for (let i = start; i < end; i++) h = phraseExtend(h, terms[i]);
  return phraseFinal(h);
}
