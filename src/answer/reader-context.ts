// The reading context of the native reader: a question analysed against passages in rank order.
// Per passage, question-independent word facts are computed once (PassageWords: hashes, word class,
// year/month/currency/percent/comma/parenthesis flags, sentences), then per question the idf of
// each question term it holds, prefix sums and nearest-term indices, so any feature of a span or
// sentence costs O(its length). Invariants: shared by training and serving (the same facts for the
// same text); sentences are listed passage by passage in text order.
import { hash32 } from '../engine/index.js';
import { analyseQuestion, EDGE_STOP, type Question, STOP, sentences, type Words, words } from './text-units.js';

const MONTHS = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec'.split(
    ' ',
  ),
);
const YEAR = /^(1\d{3}|20\d{2})s?$/;
const NUMBER = /^[\d.,:-]+$/;
// per-word facts (PassageWords.flag)
export const F_YEAR = 1,
  F_MONTH = 2,
  F_CURRENCY = 4,
  F_PERCENT = 8,
  F_COMMA_BEFORE = 16,
  F_COMMA_AFTER = 32,
  F_PAREN_BEFORE = 64,
  F_PAREN_AFTER = 128;
// the gap before a word (PassageWords.gap)
export const G_COMMA = 1,
  G_PAREN = 2,
  G_QUOTE = 4;
// word classes (PassageWords.wc)
export const W_CAP = 1,
  W_NUM = 2,
  W_OTHER_DIGIT = 3;

/** A passage's words with their question-independent facts (cacheable per passage text). */
export interface PassageWords {
  w: Words;
  hl: Int32Array;
  hs: Int32Array;
  /** word class: 0 lower, 1 capitalised, 2 number, 3 other with a digit */
  wc: Uint8Array;
  flag: Uint8Array;
  gap: Uint8Array;
  stop: Uint8Array;
  edge: Uint8Array;
  sents: Array<[number, number]>;
}

interface Passage extends PassageWords {
  /** idf of the word when it is a question term, else 0 */
  qIdf: Float64Array;
  /** prefix sums of qIdf and of question-term counts: [0, i) */
  qSum: Float64Array;
  qCnt: Int32Array;
  /** nearest question term at or before / at or after each word (-1 / n when none) */
  lastQ: Int32Array;
  nextQ: Int32Array;
  cov: number;
}

export interface Sentence {
  p: number;
  a: number;
  b: number;
  cov: number;
  logit: number;
  prob: number;
  rank: number;
}

export interface ReadContext {
  q: Question;
  passages: Passage[];
  sents: Sentence[];
  maxCov: number;
  secondCov: number;
  maxLogit: number;
  qMaxIdf: number;
  headHash: number;
}

const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || c === 0xa0;

/** Facts of the text between two words, [from, to): one scan. */
function gapFacts(text: string, from: number, to: number): { first: number; last: number; lastButSpace: number; inner: number } {
  let first = -1;
  let last = -1;
  let inner = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) continue;
    if (first < 0) first = c;
    last = c;
    if (c === 44) inner |= G_COMMA;
    else if (c === 40 || c === 41 || c === 91 || c === 93) inner |= G_PAREN;
    else if (c === 34 || c === 0x201c || c === 0x201d) inner |= G_QUOTE;
  }
  // the last non-space character when at most one space follows it (a currency sign before a number)
  const l1 = to > from ? text.charCodeAt(to - 1) : -1;
  const lastButSpace = l1 >= 0 && isSpace(l1) ? (to - 2 >= from ? text.charCodeAt(to - 2) : -1) : l1;
  return { first, last, lastButSpace, inner };
}

const CURRENCY = new Set([36, 0xa3, 0x20ac, 0xa5]);

export function passageWords(text: string): PassageWords {
  const w = words(text);
  const n = w.lower.length;
  const p: PassageWords = {
    w,
    hl: new Int32Array(n),
    hs: new Int32Array(n),
    wc: new Uint8Array(n),
    flag: new Uint8Array(n),
    gap: new Uint8Array(n),
    stop: new Uint8Array(n),
    edge: new Uint8Array(n),
    sents: sentences(w),
  };
  let before = gapFacts(text, Math.max(0, (w.start[0] ?? 0) - 3), w.start[0] ?? 0);
  for (let i = 0; i < n; i++) {
    const lower = w.lower[i];
    const after = gapFacts(text, w.end[i], i + 1 < n ? w.start[i + 1] : Math.min(text.length, w.end[i] + 3));
    p.hl[i] = hash32(lower);
    p.hs[i] = hash32(w.stem[i]);
    p.wc[i] = w.digit[i] && NUMBER.test(lower) ? W_NUM : w.cap[i] ? W_CAP : w.digit[i] ? W_OTHER_DIGIT : 0;
    p.stop[i] = STOP.has(lower) ? 1 : 0;
    p.edge[i] = EDGE_STOP.has(lower) ? 1 : 0;
    let f = 0;
    if (w.digit[i] && YEAR.test(lower)) f |= F_YEAR;
    if (MONTHS.has(lower)) f |= F_MONTH;
    if (CURRENCY.has(before.lastButSpace)) f |= F_CURRENCY;
    if (text.charCodeAt(w.end[i]) === 37 || ((w.lower[i + 1] === 'percent' || w.lower[i + 1] === 'per') && after.first < 0)) f |= F_PERCENT;
    if (before.last === 44) f |= F_COMMA_BEFORE;
    if (after.first === 44) f |= F_COMMA_AFTER;
    if (before.last === 40) f |= F_PAREN_BEFORE;
    if (after.first === 41) f |= F_PAREN_AFTER;
    p.flag[i] = f;
    if (i > 0) p.gap[i] = before.inner;
    before = after;
  }
  return p;
}

/** The reading context of a question over passages (texts or cached PassageWords), best passage first. */
export function prepare(question: string, texts: Array<string | PassageWords>, idf: (stem: string) => number): ReadContext {
  const q = analyseQuestion(question, idf);
  const sents: Sentence[] = [];
  const passages: Passage[] = texts.map((t, pi) => {
    const pw = typeof t === 'string' ? passageWords(t) : t;
    const n = pw.w.lower.length;
    const p: Passage = {
      ...pw,
      qIdf: new Float64Array(n),
      qSum: new Float64Array(n + 1),
      qCnt: new Int32Array(n + 1),
      lastQ: new Int32Array(n),
      nextQ: new Int32Array(n + 1),
      cov: 0,
    };
    let last = -1;
    for (let i = 0; i < n; i++) {
      if (!pw.stop[i]) p.qIdf[i] = q.terms.get(pw.w.stem[i]) ?? 0;
      p.qSum[i + 1] = p.qSum[i] + p.qIdf[i];
      p.qCnt[i + 1] = p.qCnt[i] + (p.qIdf[i] > 0 ? 1 : 0);
      if (p.qIdf[i] > 0) last = i;
      p.lastQ[i] = last;
    }
    p.nextQ[n] = n;
    for (let i = n - 1; i >= 0; i--) p.nextQ[i] = p.qIdf[i] > 0 ? i : p.nextQ[i + 1];
    p.cov = coverage(p, 0, n, q);
    for (const [a, b] of pw.sents) sents.push({ p: pi, a, b, cov: coverage(p, a, b, q), logit: 0, prob: 0, rank: 0 });
    return p;
  });
  let first = 0;
  let second = 0;
  for (const s of sents) {
    if (s.cov > first) [first, second] = [s.cov, first];
    else if (s.cov > second && s.cov < first) second = s.cov;
  }
  let qMaxIdf = 0;
  for (const v of q.terms.values()) qMaxIdf = Math.max(qMaxIdf, v);
  return { q, passages, sents, maxCov: first, secondCov: second, maxLogit: 0, qMaxIdf, headHash: hash32(q.head) };
}

/** idf-weighted share of the distinct question terms found in words [a, b). */
function coverage(p: Passage, a: number, b: number, q: Question): number {
  if (p.qCnt[b] === p.qCnt[a]) return 0;
  const seen = new Set<string>();
  let s = 0;
  for (let i = a; i < b; i++) {
    if (p.qIdf[i] > 0 && !seen.has(p.w.stem[i])) {
      seen.add(p.w.stem[i]);
      s += p.qIdf[i];
    }
  }
  return s / q.weight;
}
