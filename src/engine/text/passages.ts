// Splits a whole document into passages. Invariants: every passage is an exact substring
// text.slice(start, end) of at most MAX_PASSAGE characters with no leading or trailing whitespace;
// passages are in text order (by start) and every non-space character of the document is in some
// passage. Each paragraph (blank-line separated) is cut at sentence boundaries into the fewest
// pieces of balanced size, and each piece then takes in the whole sentences that follow it, across
// paragraph ends, while it stays within the limit and, in a text long enough to be read as sections
// (sections.ts), up to a paragraph that opens with a heading line: a passage carries the context
// after it, so consecutive passages may overlap, but not into the next section. Sentences end at
// . ! ? before a space and a capital (not after an abbreviation), after the full stops of scripts
// that need no space after them (。！？, the Devanagari danda, Khmer, Myanmar, Ethiopic and Arabic
// ones) and at the spaces between Thai or Lao words (those scripts mark a sentence end with a
// space). A sentence longer than the limit is cut at whitespace, else after CJK commas, else
// anywhere but inside a character.

import { entryLines, type Heading, headingLines, type SectionReading, sectionHeadings, sectionReading } from './sections.js';
import { letterOrDigitAt } from './tokenize.js';

export const MAX_PASSAGE = 1200;

type Span = [number, number];

const ABBREVIATIONS = new Set(
  'mr mrs ms dr st jr sr vs etc no mt gen col lt sgt capt prof rev inc ltd co corp fig approx est jan feb mar apr jun jul aug sep sept oct nov dec e.g i.e u.s u.k c ca al op vol pp ed eds'.split(
    ' ',
  ),
);
/** A run of terminal punctuation (and closing quotes) followed by space and a capital, digit or opening quote. */
const SENTENCE_END = /[.!?]+["')\]\u2019\u201d]*(?=\s+["'([\u2018\u201cA-Z0-9])/g;

/** Full stops that end a sentence whatever follows: CJK (。！？ and the half-width ｡), the Devanagari danda and double danda, Khmer, Myanmar, Ethiopic, the Arabic question mark and the Urdu full stop. */
const SCRIPT_STOPS = '\u3002\uff01\uff1f\uff61\u0964\u0965\u17d4\u17d5\u104b\u1362\u061f\u06d4';
export const SCRIPT_STOP = new RegExp(`[${SCRIPT_STOPS}]`);
/** Closing quotes and brackets that may follow a full stop. */
export const CLOSERS = /["')\]\u2019\u201d\u300d\u300f\uff09\u3011\u300b]/;
const SCRIPT_END = new RegExp(`${SCRIPT_STOP.source}+${CLOSERS.source}*`, 'g');
/** A space between two Thai or Lao letters. */
const THAI_SPACE = /(?<=[\p{sc=Thai}\p{sc=Lao}])\s+(?=[\p{sc=Thai}\p{sc=Lao}])/gu;

/** Whether text[i] is whitespace (\s; ASCII read by its code). */
function isSpace(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 ? c === 32 || (c >= 9 && c <= 13) : /\s/.test(text[i]);
}

function trim(text: string, s: number, e: number): Span | undefined {
  while (s < e && isSpace(text, s)) s++;
  while (e > s && isSpace(text, e - 1)) e--;
  return s < e ? [s, e] : undefined;
}

/** Blocks separated by one or more blank lines. */
function paragraphs(text: string): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(/(?:[^\n]|\n(?![ \t\r\f\v]*\n))+/g)) {
    const sp = trim(text, m.index, m.index + m[0].length);
    if (sp) out.push(sp);
  }
  return out;
}

/** The code points of SCRIPT_STOP, for a scan that tests no expression. */
const SCRIPT_STOP_CODES = new Set(Array.from(SCRIPT_STOPS, (ch) => ch.charCodeAt(0)));

/**
 * Which of SCRIPT_END and THAI_SPACE could match in a text: it holds one of SCRIPT_STOP's full
 * stops, or a Thai or Lao letter (U+0E00 to U+0EFF), so a text with neither (most, even with
 * curly quotes and dashes) is spared those two expressions' scans.
 */
function scriptEnds(text: string): { stops: boolean; thai: boolean } {
  let stops = false;
  let thai = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x600) continue;
    if (c >= 0xe00 && c <= 0xeff) thai = true;
    else if (SCRIPT_STOP_CODES.has(c)) stops = true;
  }
  return { stops, thai };
}

/** Sentences of a paragraph; no cut after an abbreviation or an initial. */
function sentences(text: string, [ps, pe]: Span): Span[] {
  const seg = text.slice(ps, pe);
  const cuts: number[] = [];
  for (const m of seg.matchAll(SENTENCE_END)) {
    const j = m.index;
    let k = j;
    while (k > 0 && (letterOrDigitAt(seg, k - 1) || seg.charCodeAt(k - 1) === 46)) k--;
    const prev = seg.slice(k, j);
    if (seg[j] === '.' && (ABBREVIATIONS.has(prev.toLowerCase()) || (prev.length === 1 && prev !== prev.toLowerCase()))) continue;
    cuts.push(m.index + m[0].length);
  }
  const { stops, thai } = scriptEnds(seg);
  if (stops) for (const m of seg.matchAll(SCRIPT_END)) cuts.push(m.index + m[0].length);
  if (thai) for (const m of seg.matchAll(THAI_SPACE)) cuts.push(m.index);
  cuts.sort((a, b) => a - b);
  const out: Span[] = [];
  let s = 0;
  for (const c of [...cuts, seg.length]) {
    const sp = trim(text, ps + s, ps + c);
    if (sp) out.push(sp);
    s = c;
  }
  return out;
}

const CJK_COMMA = /[\u3001\uff0c\uff1b\uff1a]/;
/** Inside a character: a low surrogate or a combining mark. */
const INSIDE = /[\udc00-\udfff\p{M}]/u;

/** Where to cut a span at `s` that is over `max` long: at the last whitespace, else after the last CJK comma, in the second half; else at `max`, moved back out of a character. */
function cutAt(text: string, s: number, max: number): number {
  const half = s + max / 2;
  for (let c = s + max; c > half; c--) if (isSpace(text, c)) return c;
  for (let c = s + max; c > half; c--) if (CJK_COMMA.test(text[c - 1])) return c;
  let c = s + max;
  while (c > s + 1 && INSIDE.test(text[c])) c--;
  return c;
}

/** Cuts an over-long span into pieces of at most `max`, at whitespace when there is some. */
function hardSplit(text: string, [s, e]: Span, max: number): Span[] {
  const out: Span[] = [];
  while (e - s > max) {
    const cut = cutAt(text, s, max);
    const a = trim(text, s, cut);
    if (a) out.push(a);
    const rest = trim(text, cut, e);
    if (!rest) return out;
    [s, e] = rest;
  }
  out.push([s, e]);
  return out;
}

/** The fewest consecutive groups of sentences within `max`, of balanced sizes. */
function balancedPack(sents: Span[], max: number): Span[] {
  const total = sents[sents.length - 1][1] - sents[0][0];
  if (total <= max) return [[sents[0][0], sents[sents.length - 1][1]]];
  for (let n = Math.ceil(total / max); ; n++) {
    const target = total / n;
    const groups: Span[] = [];
    let cur: Span = [sents[0][0], sents[0][1]];
    for (const s of sents.slice(1)) {
      const len = s[1] - cur[0];
      if (len > max || (len - target > (s[1] - s[0]) / 2 && groups.length < n - 1)) {
        groups.push(cur);
        cur = [s[0], s[1]];
      } else cur[1] = s[1];
    }
    groups.push(cur);
    if ((groups.every(([a, b]) => b - a <= max) && groups.length <= n + 1) || n > 200) return groups;
  }
}

/**
 * The passages of a text; no passage carries text past a paragraph that opens with one of
 * `headings` (by default those it is read by: sections.ts sectionHeadings).
 */
export function splitPassages(text: string, max = MAX_PASSAGE, headings: readonly Heading[] = sectionHeadings(text)): Span[] {
  const paras = paragraphs(text);
  const perPara = paras.map((p) => sentences(text, p).flatMap((s) => (s[1] - s[0] > max ? hardSplit(text, s, max) : [s])));
  const all = perPara.flat();
  const barriers = new Set(headings.map((h) => h.start));
  const firstOf = new Map(all.map((s, i) => [s[0], i]));
  const lastOf = new Map(all.map((s, i) => [s[1], i]));
  const out: Span[] = [];
  for (const sents of perPara) {
    if (!sents.length) continue;
    for (const [a, b] of balancedPack(sents, max)) {
      const i = firstOf.get(a)!;
      let j = lastOf.get(b)!;
      while (j + 1 < all.length && all[j + 1][1] - all[i][0] <= max && !barriers.has(all[j + 1][0])) j++;
      out.push([all[i][0], all[j][1]]);
    }
  }
  return out;
}

const BLANK_LINE = /\n[ \t\r\f\v]*\n/g;

/** The first position at or after `at` that follows a blank line (no paragraph spans it), else the text's end. */
function paragraphStart(text: string, at: number): number {
  BLANK_LINE.lastIndex = at;
  const m = BLANK_LINE.exec(text);
  return m ? m.index + m[0].length : text.length;
}

/** A part of a text whose passages can be found apart from the rest (passageRegions). */
export interface PassageRegion {
  /** where the region starts: just after a blank line, or 0 */
  from: number;
  /** where the next region starts: its passages are those that start before it */
  before: number;
  /** how far the region is read: every paragraph that starts within `max` of `before`, whole */
  to: number;
  /** how the whole text is read (sections.ts sectionReading): its passages stop at its heading lines or at its entries, or at neither */
  reading: SectionReading;
}

/**
 * Up to `k` consecutive regions of a text, cut after blank lines near every k-th of it, whose
 * passages can be found apart (regionPassages) and together, in order, are splitPassages(text):
 * no paragraph spans a cut; a paragraph's passages start inside it and depend only on its
 * sentences and on the sentences within `max` after each passage's start, all of which the region
 * reads.
 */
export function passageRegions(text: string, k: number, max = MAX_PASSAGE, reading = sectionReading(text)): PassageRegion[] {
  const starts = [0];
  for (let i = 1; i < k; i++) {
    const s = paragraphStart(text, Math.max(starts[starts.length - 1] + 1, Math.floor((i * text.length) / k)));
    if (s < text.length) starts.push(s);
  }
  return starts.map((from, i) => {
    const before = i + 1 < starts.length ? starts[i + 1] : text.length;
    return { from, before, to: before === text.length ? text.length : paragraphStart(text, before + max), reading };
  });
}

/** The headings of a region (passageRegions) given its text, text.slice(from, to): its heading lines or its entries, as the whole text is read; offsets the region's. */
export function regionHeadings(regionText: string, r: PassageRegion): Heading[] {
  if (r.reading === 'headings') return headingLines(regionText);
  return r.reading === 'entries' ? entryLines(regionText).entries : [];
}

/**
 * The passages of a region (passageRegions) given its text, text.slice(from, to), in the whole
 * text's offsets; `headings` are regionHeadings(regionText, r).
 */
export function regionPassages(regionText: string, r: PassageRegion, max = MAX_PASSAGE, headings = regionHeadings(regionText, r)): Span[] {
  return splitPassages(regionText, max, headings)
    .filter(([s]) => s + r.from < r.before)
    .map(([s, e]) => [s + r.from, e + r.from]);
}
