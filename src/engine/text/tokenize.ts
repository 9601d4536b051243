// The tokenizer shared by the encoder, the lexical index and `n_tokens`. A token is a maximal run
// of letters and digits in the text (with the combining marks inside it), or, in scripts written
// without spaces (Han, kana, Thai, Lao, Khmer, Myanmar), a word of such a run as segment.ts cuts it.
// Its form is the run folded: NFKC (full-width and half-width forms, ligatures, composed and
// decomposed accents become one form), accents removed from Latin, Greek, Cyrillic, Arabic and
// Hebrew letters (marks elsewhere are vowels and stay), lowercased and case-folded (ß -> ss, final
// sigma); a run whose folding yields several runs (a fraction, say) gives several tokens sharing
// its offsets. Offsets are UTF-16 code units of the original text, so a token can always be shown as
// written. Stems are Porter stems of the folded form. Each thread caches stems, what it knows of
// each character outside ASCII (its class, whether it is an uppercase letter) and each run's folded
// forms: the tokens are the same whatever the caches hold.
import { TEXT_CACHES } from '../params.js';
import { porterStem } from './porter.js';
import { NO_SPACE_CHAR, splitRun } from './segment.js';
import type { Tokens } from './types.js';

const RUN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const ASCII_ALNUM = /^[A-Za-z0-9]+$/;
const MAX_TOKEN = 64;
/** Combining marks on a letter of a script where they are accents, not vowels. */
const ACCENTS = /([\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}\p{sc=Arabic}\p{sc=Hebrew}])\p{M}+/gu;
/** Text of the Latin, Greek and Cyrillic blocks only (with their combining marks): every mark in it is an accent. */
const EUROPEAN = /^[\u0030-\u052f\u1e00-\u1fff]*$/;
const MARKS = /\p{M}+/gu;
/** Lowercase letters that case folding maps further: ß to ss, the final sigma to σ. */
const FOLDED_APART = /[ßς]/;
const FOLDED_APART_ALL = /[ßς]/g;

export function fold(s: string): string {
  if (ASCII_ALNUM.test(s)) return s.toLowerCase();
  const d = s.normalize('NFKD');
  const f = (EUROPEAN.test(s) ? d.replace(MARKS, '') : d.replace(ACCENTS, '$1').normalize('NFC')).toLowerCase();
  return FOLDED_APART.test(f) ? f.replace(FOLDED_APART_ALL, (c) => (c === 'ß' ? 'ss' : 'σ')) : f;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;

/** Whether a UTF-16 code unit is an ASCII letter or digit. */
function asciiAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Whether text[i] is a letter or a digit (ASCII by its code; a lone surrogate is neither). */
export function letterOrDigitAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 ? asciiAlnum(c) : LETTER_OR_DIGIT.test(text[i]);
}

/**
 * Whether a token of the text may cross position p: neither character beside it is an ASCII
 * separator (any character outside ASCII counts as part of a word, which a mark, a letter of a
 * script without spaces or half of a surrogate pair may be). False at the text's ends. When it is
 * false, the tokens of text.slice(a, b) for a or b = p are those of the whole text in [a, b).
 */
export function mayCrossToken(text: string, p: number): boolean {
  if (p <= 0 || p >= text.length) return false;
  const word = (c: number) => c >= 128 || asciiAlnum(c);
  return word(text.charCodeAt(p - 1)) && word(text.charCodeAt(p));
}

/** classify's class of a character other than an ASCII one. */
function classOf(ch: string): number {
  return LETTER_OR_DIGIT.test(ch) ? 3 : MARK.test(ch) ? 4 : 0;
}

/**
 * What is known of each UTF-16 code unit from 128 on, once first met (0 until then): KNOWN, UPPER
 * when it is an uppercase letter, and its class as classify gives it (0, 3 or 4; unused for a
 * surrogate, which classify reads with its pair). A text in another script meets the same few
 * hundred characters millions of times, each of which would otherwise be tested as a new string.
 */
const KNOWN = 0x80;
const UPPER = 0x40;
const CLASS = 0x07;
const unitFacts = new Uint8Array(0x10000);

function factsOf(text: string, i: number): number {
  const c = text.charCodeAt(i);
  let f = unitFacts[c];
  if (f === 0) {
    const ch = text[i];
    f = KNOWN | (ch !== ch.toLowerCase() && ch === ch.toUpperCase() ? UPPER : 0) | classOf(ch);
    unitFacts[c] = f;
  }
  return f;
}

/** Whether text[i], a code unit from 128 on, is an uppercase letter (its lowercase differs, its uppercase is itself). */
export function isUpperUnit(text: string, i: number): boolean {
  return (factsOf(text, i) & UPPER) !== 0;
}

/**
 * A character's class and UTF-16 width packed in one number (class | width << 3), so that the scan
 * allocates nothing per character. Class 0: separator, 1: ASCII lowercase/digit, 2: ASCII
 * uppercase, 3: other letter or digit, 4: a combining mark (inside a run it is part of it,
 * elsewhere a separator).
 */
function classify(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) {
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) return 1 | (1 << 3);
    return c >= 65 && c <= 90 ? 2 | (1 << 3) : 1 << 3;
  }
  if (c < 0xd800 || c > 0xdfff) return (factsOf(text, i) & CLASS) | (1 << 3);
  const cp = text.codePointAt(i)!;
  return classOf(String.fromCodePoint(cp)) | ((cp > 0xffff ? 2 : 1) << 3);
}

/** Token forms with their offsets, as they are collected. */
interface Collected {
  forms: string[];
  starts: number[];
  ends: number[];
}

/** `compute` kept per key, the whole cache dropped when it holds `size` keys (a thread's caches stay bounded). */
function memoised<V>(size: number, compute: (key: string) => V): (key: string) => V {
  const cache = new Map<string, V>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined) {
      v = compute(key);
      if (cache.size >= size) cache.clear();
      cache.set(key, v);
    }
    return v;
  };
}

/**
 * The forms of a run: folded, re-split into runs, each cut at MAX_TOKEN. Cached per run (up to
 * TEXT_CACHES.folds runs): folding (two normalisations and several regular expressions) is most of
 * the tokenizer's time on a text outside ASCII, whose words recur.
 */
const foldedForms = memoised(TEXT_CACHES.folds, (raw): readonly string[] =>
  Array.from(fold(raw).matchAll(RUN), (m) => m[0].slice(0, MAX_TOKEN)),
);

/** Adds the tokens of `raw` (folded and re-split into runs), all at [s, e). */
function pushFolded(out: Collected, raw: string, s: number, e: number): void {
  for (const form of foldedForms(raw)) {
    out.forms.push(form);
    out.starts.push(s);
    out.ends.push(e);
  }
}

export function tokenize(text: string): Tokens {
  const out: Collected = { forms: [], starts: [], ends: [] };
  const { forms, starts, ends } = out;
  const n = text.length;
  let i = 0;
  while (i < n) {
    let cw = classify(text, i);
    let k = cw & 7;
    if (k === 0 || k === 4) {
      i += cw >> 3;
      continue;
    }
    const s = i;
    let kind = k;
    while (k !== 0) {
      i += cw >> 3;
      if (k > kind) kind = k === 4 ? 3 : k;
      if (i >= n) break;
      cw = classify(text, i);
      k = cw & 7;
    }
    const raw = text.slice(s, i);
    if (kind === 1 && raw.length <= MAX_TOKEN) {
      forms.push(raw);
      starts.push(s);
      ends.push(i);
      continue;
    }
    if (kind === 2) {
      const f = raw.toLowerCase();
      if (f.length <= MAX_TOKEN) {
        forms.push(f);
        starts.push(s);
        ends.push(i);
        continue;
      }
    }
    if (kind < 3 || !NO_SPACE_CHAR.test(raw)) {
      pushFolded(out, raw, s, i);
      continue;
    }
    for (const piece of splitRun(raw)) pushFolded(out, piece.text, s + piece.start, s + piece.end);
  }
  return { forms, start: Uint32Array.from(starts), end: Uint32Array.from(ends) };
}

export function countTokens(text: string): number {
  return tokenize(text).forms.length;
}

/** The Porter stem of a folded form, cached per form (up to TEXT_CACHES.stems forms). */
export const stem: (form: string) => string = memoised(TEXT_CACHES.stems, porterStem);

/** FNV-1a over UTF-16 code units: the 32-bit id of a term in postings and dictionaries. */
export function hash32(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
