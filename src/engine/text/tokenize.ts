// The tokenizer shared by the encoder, the lexical index and `n_tokens`. A token is a maximal run
// of letters and digits in the text; its form is the run folded (NFKD, combining marks removed,
// lowercased), and a run whose folding yields several runs (e.g. a ligature or a fraction) gives
// several tokens sharing its offsets. Offsets are UTF-16 code units of the original text, so a
// token can always be shown as written. Stems are Porter stems of the folded form, cached.
import { porterStem } from './porter.js';
import type { Tokens } from './types.js';

const RUN = /[\p{L}\p{N}]+/gu;
const ASCII_ALNUM = /^[A-Za-z0-9]+$/;
const MAX_TOKEN = 64;

export function fold(s: string): string {
  if (ASCII_ALNUM.test(s)) return s.toLowerCase();
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** 0: separator, 1: ASCII lowercase/digit, 2: ASCII uppercase, 3: other letter or digit; `w` is its UTF-16 width. */
function classify(text: string, i: number): [number, number] {
  const c = text.charCodeAt(i);
  if (c < 128) {
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) return [1, 1];
    return c >= 65 && c <= 90 ? [2, 1] : [0, 1];
  }
  const cp = text.codePointAt(i)!;
  const w = cp > 0xffff ? 2 : 1;
  return [LETTER_OR_DIGIT.test(String.fromCodePoint(cp)) ? 3 : 0, w];
}

export function tokenize(text: string): Tokens {
  const forms: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let [k, w] = classify(text, i);
    if (k === 0) {
      i += w;
      continue;
    }
    const s = i;
    let kind = k;
    while (k !== 0) {
      i += w;
      if (k > kind) kind = k;
      if (i >= n) break;
      [k, w] = classify(text, i);
    }
    const raw = text.slice(s, i);
    if (kind === 1 && raw.length <= MAX_TOKEN) {
      forms.push(raw);
      starts.push(s);
      ends.push(i);
      continue;
    }
    const f = kind === 2 ? raw.toLowerCase() : fold(raw);
    if (kind === 2 && f.length <= MAX_TOKEN) {
      forms.push(f);
      starts.push(s);
      ends.push(i);
      continue;
    }
    for (const part of f.matchAll(RUN)) {
      forms.push(part[0].slice(0, MAX_TOKEN));
      starts.push(s);
      ends.push(i);
    }
  }
  return { forms, start: Uint32Array.from(starts), end: Uint32Array.from(ends) };
}

export function countTokens(text: string): number {
  return tokenize(text).forms.length;
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
