// The units the native reader works on, shared by training (src/train/fit-reader.ts) and serving so
// both see identical inputs. Invariants: a word is a run of letters and digits, possibly joined by
// one inner `. , : ' ’ -` (so "69,197", "8.0", "U.S" and "west-northwest" are one word); its offsets
// are UTF-16 code units of the text it came from, so any span of words is an exact substring;
// sentences are contiguous, non-empty word ranges covering every word in order; a question's
// terms are its non-stop stems (wh-words excluded), each with the idf of the reader file.
import { QUESTION_WORDS, stem } from '../engine/index.js';

const WORD = /[\p{L}\p{N}]+(?:[.,:'’-][\p{L}\p{N}]+)*/gu;
const UPPER = /^\p{Lu}/u;
const DIGIT = /\p{N}/u;

/** Function words: never question terms; a span may not start or end with an edge-stop word. */
export const STOP = new Set(
  `a about above after again against all also am an and any are as at be been before being below between both but by can could
did do does doing down during each for from further had has have having he her here hers herself him himself his how i if in into
is it its itself just me my myself nor of off on once or other our ours ourselves out own same she should so some such than that
the their theirs them themselves then there these they this those through to too under until up very was we were what when where
which while who whom whose why will with would you your yours yourself yourselves`.split(/\s+/),
);

/** Words a candidate answer span cannot start or end with (articles are dropped by SQuAD scoring anyway). */
export const EDGE_STOP = new Set(
  `a an the of in on at by for with from to into onto upon and or but nor as is was were are be been being am has had have
that which who whom whose what when where why how it its this these those he she they his her their them him we our you your i
my me than then there if so not also while because since although though after before during`.split(/\s+/),
);

const ABBREV = new Set('mr mrs ms dr st jr sr vs etc no mt ft gen gov lt col sgt rev prof inc co corp ltd fig approx est ca'.split(' '));

export interface Words {
  text: string;
  start: number[];
  end: number[];
  lower: string[];
  stem: string[];
  cap: boolean[];
  digit: boolean[];
}

export function words(text: string): Words {
  const w: Words = { text, start: [], end: [], lower: [], stem: [], cap: [], digit: [] };
  for (const m of text.matchAll(WORD)) {
    const raw = m[0];
    const lower = raw.toLowerCase();
    const c = raw.charCodeAt(0);
    let digit = false;
    let joined = false;
    for (let i = 0; i < raw.length; i++) {
      const k = raw.charCodeAt(i);
      if (k >= 48 && k <= 57) digit = true;
      else if (k === 46 || k === 44 || k === 58 || k === 39 || k === 45 || k === 0x2019) joined = true;
      else if (k > 127 && !digit && DIGIT.test(raw[i])) digit = true;
    }
    w.start.push(m.index);
    w.end.push(m.index + raw.length);
    w.lower.push(lower);
    w.stem.push(stem(joined ? lower.replace(/[.,:'’-]/g, '') : lower));
    w.cap.push(c < 128 ? c >= 65 && c <= 90 : UPPER.test(raw));
    w.digit.push(digit);
  }
  return w;
}

/** Sentence boundaries as [first word, end word) ranges: terminal punctuation then a capital or digit, or a line break. */
export function sentences(w: Words): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const n = w.start.length;
  let first = 0;
  for (let i = 0; i + 1 < n; i++) {
    const gap = w.text.slice(w.end[i], w.start[i + 1]);
    let cut = gap.includes('\n');
    if (!cut && /^[.!?…]/.test(gap) && /\s/.test(gap) && (w.cap[i + 1] || w.digit[i + 1] || /["'“‘(]\s*$/.test(gap))) {
      const prev = w.lower[i];
      cut = !(ABBREV.has(prev) || (prev.length === 1 && w.cap[i]) || prev.includes('.'));
    }
    if (cut) {
      out.push([first, i + 1]);
      first = i + 1;
    }
  }
  if (n > first) out.push([first, n]);
  return out;
}

export const QTYPES = [
  'other',
  'who',
  'when',
  'where',
  'why',
  'how_many',
  'how_much',
  'how_long',
  'how_adj',
  'how',
  'what_time',
  'what',
  'which',
] as const;
const TIME_HEADS = new Set(['year', 'years', 'century', 'decade', 'date', 'day', 'month', 'time', 'era', 'period', 'season', 'age']);
const HOW_ADJ = new Set([
  'old',
  'far',
  'big',
  'large',
  'tall',
  'high',
  'often',
  'fast',
  'deep',
  'wide',
  'heavy',
  'small',
  'short',
  'hot',
  'cold',
]);

export interface Question {
  /** Index into QTYPES. */
  qtype: number;
  /** The first content word after the wh-word ("what *year*"), or '' */
  head: string;
  /** Non-stop stems with their idf. */
  terms: Map<string, number>;
  /** Sum of the terms' idf (at least 1e-6). */
  weight: number;
  /** Consecutive term pairs, `a b`. */
  bigrams: Set<string>;
}

export function analyseQuestion(text: string, idf: (stem: string) => number): Question {
  const w = words(text);
  let qtype = 0;
  let head = '';
  const wh = w.lower.findIndex((l) => QUESTION_WORDS.has(l));
  if (wh >= 0) {
    const l = w.lower[wh];
    const next = w.lower[wh + 1] ?? '';
    head = w.lower.slice(wh + 1).find((x) => !STOP.has(x)) ?? '';
    if (l === 'who' || l === 'whom' || l === 'whose') qtype = 1;
    else if (l === 'when') qtype = 2;
    else if (l === 'where') qtype = 3;
    else if (l === 'why') qtype = 4;
    else if (l === 'how') {
      head = next;
      qtype = next === 'many' ? 5 : next === 'much' ? 6 : next === 'long' ? 7 : HOW_ADJ.has(next) ? 8 : 9;
    } else qtype = TIME_HEADS.has(next) || TIME_HEADS.has(head) ? 10 : l === 'what' ? 11 : 12;
  }
  const terms = new Map<string, number>();
  const seq: string[] = [];
  w.lower.forEach((l, i) => {
    if (STOP.has(l) || i === wh) return;
    terms.set(w.stem[i], idf(w.stem[i]));
    seq.push(w.stem[i]);
  });
  const bigrams = new Set<string>();
  for (let i = 0; i + 1 < seq.length; i++) bigrams.add(`${seq[i]} ${seq[i + 1]}`);
  let weight = 0;
  for (const v of terms.values()) weight += v;
  return { qtype, head: stem(head), terms, weight: Math.max(weight, 1e-6), bigrams };
}

/** `s` as a regular expression's source that matches it literally. */
export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A name read off a text: cut at a sentence's end, without a trailing joiner ("of", "de"...: `joiner`), full stop or apostrophe. */
export function cutName(raw: string, joiner: RegExp): string {
  return raw
    .split(/\.\s/)[0]
    .replace(joiner, '')
    .replace(/[.’']+$/, '');
}

/** SQuAD's answer normalisation: lowercase, punctuation and the articles a/an/the removed, whitespace collapsed. */
export function normalizeAnswer(s: string): string {
  return s
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

/** Exact match and token F1 of a prediction against the best of the gold answers (SQuAD v1.1 evaluation). */
export function scoreAnswer(prediction: string, golds: string[]): { em: number; f1: number } {
  const p = normalizeAnswer(prediction);
  let em = 0;
  let f1 = 0;
  for (const g of golds) {
    const n = normalizeAnswer(g);
    if (p === n) em = 1;
    const pt = p.split(' ').filter(Boolean);
    const gt = n.split(' ').filter(Boolean);
    const counts = new Map<string, number>();
    for (const x of gt) counts.set(x, (counts.get(x) ?? 0) + 1);
    let same = 0;
    for (const x of pt) {
      const c = counts.get(x) ?? 0;
      if (c > 0) {
        same++;
        counts.set(x, c - 1);
      }
    }
    if (same > 0) f1 = Math.max(f1, (2 * same) / (pt.length + gt.length));
  }
  return { em, f1 };
}
