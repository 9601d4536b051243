// The tokenizer shared by the encoder, the lexical index and `n_tokens`. A token is a maximal run
// of letters and digits in the text; its form is the run folded (NFKD, combining marks removed,
// lowercased), and a run whose folding yields several runs (e.g. a ligature or a fraction) gives
// several tokens sharing its offsets. Offsets are UTF-16 code units of the original text, so a
// token can always be shown as written. Stems are Porter stems of the folded form, cached.
import { porterStem } from './porter.js';

export interface Tokens {
  /** Folded forms, in text order. */
  forms: string[];
  /** [start, end) of each token in the original text. */
  start: Uint32Array;
  end: Uint32Array;
}

const RUN = /[\p{L}\p{N}]+/gu;
const ASCII_ALNUM_LOWER = /^[a-z0-9]+$/;
const ASCII_ALNUM = /^[A-Za-z0-9]+$/;
const MAX_TOKEN = 64;

export function fold(s: string): string {
  if (ASCII_ALNUM.test(s)) return s.toLowerCase();
  return s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

export function tokenize(text: string): Tokens {
  const forms: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of text.matchAll(RUN)) {
    const s = m.index;
    const e = s + m[0].length;
    const f = fold(m[0]);
    if (f.length <= MAX_TOKEN && ASCII_ALNUM_LOWER.test(f)) {
      forms.push(f);
      starts.push(s);
      ends.push(e);
      continue;
    }
    for (const part of f.matchAll(RUN)) {
      forms.push(part[0].slice(0, MAX_TOKEN));
      starts.push(s);
      ends.push(e);
    }
  }
  return { forms, start: Uint32Array.from(starts), end: Uint32Array.from(ends) };
}

export function countTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(RUN)) {
    const f = fold(m[0]);
    if (ASCII_ALNUM_LOWER.test(f)) n++;
    else for (const _ of f.matchAll(RUN)) n++;
  }
  return n;
}

const stemCache = new Map<string, string>();

export function stem(form: string): string {
  let s = stemCache.get(form);
  if (s === undefined) {
    s = porterStem(form);
    if (stemCache.size > 500_000) stemCache.clear();
    stemCache.set(form, s);
  }
  return s;
}

/** FNV-1a over UTF-16 code units: the 32-bit id of a term in postings and dictionaries. */
export function hash32(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
