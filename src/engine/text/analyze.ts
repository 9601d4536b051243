// Turns a document into what the index needs, without the dense part: its passages (offsets), the
// term sequence of each passage with per-token flags, and the document's title terms. Pure and
// deterministic given the model's stop list. A document's title is found by title.ts, a long
// document's sections by sections.ts.
import { ANALYSIS, TEXT_CACHES } from '../params.js';
import { CLOSERS, MAX_PASSAGE, SCRIPT_STOP, splitPassages } from './passages.js';
import { type SectionStart, sectionHeadings, sectionStarts, titledSections } from './sections.js';
import { documentTitle } from './title.js';
import { hash32, isUpperUnit, mayCrossToken, stem, tokenize } from './tokenize.js';
import type { AnalyzedDoc, AnalyzedPassage, PackedTitles, Section, TermSeq, Tokens } from './types.js';

/** Token starts with an uppercase letter or a digit. */
export const FLAG_CAPITALISED = 1;
export const FLAG_STOP = 2;
export const FLAG_SENTENCE_START = 4;
/** Token is all digits. */
export const FLAG_NUMBER = 8;
/** Token is a year: four digits from 1000 to 2099. */
export const FLAG_YEAR = 16;

/**
 * termId's cache: open addressing on the form's hash32, the form kept to check it (a Map keyed by
 * the forms cost more per token, which a book has millions of), at most half full: emptied when it
 * holds TEXT_CACHES.termIds forms. Beside each id, termSeq keeps the flags that depend on the form
 * alone (stop word, number, year) for the stop list it was last given (FORM_KNOWN once computed).
 */
const CACHE_SLOTS = 2 * TEXT_CACHES.termIds;
const cachedForms: Array<string | undefined> = new Array(CACHE_SLOTS).fill(undefined);
const cachedIds = new Uint32Array(CACHE_SLOTS);
const cachedFlags = new Uint8Array(CACHE_SLOTS);
const FORM_KNOWN = 128;
let flagsStop: ReadonlySet<string> | undefined;
let cached = 0;

/** The cache slot of a form, its id computed (hash32 of its stem) when it is new. */
function slotOf(form: string): number {
  const mask = CACHE_SLOTS - 1;
  const h = hash32(form);
  let s = h & mask;
  for (let k = cachedForms[s]; k !== undefined; k = cachedForms[s]) {
    if (k === form) return s;
    s = (s + 1) & mask;
  }
  const id = hash32(stem(form));
  if (cached >= TEXT_CACHES.termIds) {
    cachedForms.fill(undefined);
    cachedFlags.fill(0);
    cached = 0;
    s = h & mask;
  }
  cachedForms[s] = form;
  cachedIds[s] = id;
  cachedFlags[s] = 0;
  cached++;
  return s;
}

/** hash32 of the form's stem, cached per form. */
export function termId(form: string): number {
  return cachedIds[slotOf(form)];
}

/** FLAG_STOP, FLAG_NUMBER and FLAG_YEAR of the form in `slot`, cached there for `stop`. */
function formFlags(slot: number, form: string, stop: ReadonlySet<string>): number {
  if (stop !== flagsStop) {
    cachedFlags.fill(0);
    flagsStop = stop;
  }
  let f = cachedFlags[slot];
  if (f === 0) {
    f = FORM_KNOWN | (stop.has(form) ? FLAG_STOP : 0) | numberFlags(form);
    cachedFlags[slot] = f;
  }
  return f & ~FORM_KNOWN;
}

/** Opening CJK brackets and quotes: 「『（【《. */
const CJK_OPENERS = /[\u300c\u300e\uff08\u3010\u300a]/;

/** A token is capitalised when it starts with an uppercase letter or a digit (names, years). */
function isCapitalised(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  return isUpperUnit(text, i);
}

/**
 * Whether the token at `i` starts a sentence: a newline lies between it and the previous token (which
 * ends at `from`), or only spaces and closing quotes/brackets separate it from a terminal . ! ? and
 * it is capitalised (as passages are cut: "e.g. the" goes on), or from a full stop of a script that
 * needs no space after one (。, the danda...). Plain spaces alone never do.
 */
function startsSentence(text: string, from: number, i: number): boolean {
  for (let j = i - 1; j >= from; j--) {
    const c = text.charCodeAt(j);
    if (c === 10) return true;
    if (c === 32 || c === 9 || c === 13 || c === 34 || c === 39 || c === 41 || c === 93) continue;
    if (c < 128) return (c === 46 || c === 33 || c === 63) && isCapitalised(text, i);
    if (CLOSERS.test(text[j]) || CJK_OPENERS.test(text[j])) continue;
    return SCRIPT_STOP.test(text[j]);
  }
  return false;
}

/**
 * FLAG_NUMBER for a form of ASCII digits only, with FLAG_YEAR when it is a year (1000 to 2099).
 * Read by character codes: a regular expression tested on every token allocated for each one.
 */
function numberFlags(form: string): number {
  const n = form.length;
  if (n === 0) return 0;
  for (let i = 0; i < n; i++) {
    const c = form.charCodeAt(i);
    if (c < 48 || c > 57) return 0;
  }
  const c0 = form.charCodeAt(0);
  return n === 4 && (c0 === 49 || (c0 === 50 && form.charCodeAt(1) === 48)) ? FLAG_NUMBER | FLAG_YEAR : FLAG_NUMBER;
}

export function termSeq(text: string, tokens: Tokens, stop: ReadonlySet<string>): TermSeq {
  const n = tokens.forms.length;
  const terms = new Uint32Array(n);
  const flags = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const form = tokens.forms[i];
    const slot = slotOf(form);
    terms[i] = cachedIds[slot];
    const s = tokens.start[i];
    let f = formFlags(slot, form, stop) | (isCapitalised(text, s) ? FLAG_CAPITALISED : 0);
    if (i === 0 || startsSentence(text, tokens.end[i - 1], s)) f |= FLAG_SENTENCE_START;
    flags[i] = f;
  }
  return { terms, flags };
}

/**
 * A title's terms, and how many leading ones form it without a trailing parenthetical (0: none):
 * a document's (the title documentTitle gives) or a heading's, as analyzeDocument reads them.
 */
export function analyzeTitle(title: string): Omit<Section, 'first'> {
  const base = title.replace(/\s*\([^()]*\)\s*$/, '');
  const terms = Uint32Array.from(tokenize(title).forms, termId);
  const baseLen = base === title ? 0 : tokenize(base).forms.length;
  return { title: terms, baseLen: baseLen < terms.length ? baseLen : 0 };
}

export function analyzeDocument(text: string, metadata: Record<string, unknown> | undefined, stop: ReadonlySet<string>): AnalyzedDoc {
  const docTitle = documentTitle(text, metadata);
  const headings = sectionHeadings(text, stop, docTitle);
  const spans = splitPassages(text, MAX_PASSAGE, headings);
  const title = analyzeTitle(docTitle);
  const found = sectionStarts(
    headings,
    spans.map(([start]) => start),
  );
  return { ...analyzePassages(text, spans, stop), ...title, sections: sectionsAt(found, spans.length, title) };
}

/** The sections that start at `found` of a document of `nPassages` passages titled `own`, as analyzeDocument titles them. */
function sectionsAt(found: readonly SectionStart[], nPassages: number, own: Omit<Section, 'first'>): Section[] {
  return titledSections(found, nPassages, (s) => analyzeTitle(s.heading), own);
}

/**
 * Headings' titles analysed as sectionsAt analyses them, packed in three arrays (cheap to move
 * between threads): title i's terms are `terms[ends[i - 1] .. ends[i])` (from 0 for the first),
 * its base length `baseLens[i]`.
 */
export function packTitles(headings: readonly string[]): PackedTitles {
  const titles = headings.map(analyzeTitle);
  const ends = new Uint32Array(titles.length);
  let n = 0;
  titles.forEach((t, i) => {
    n += t.title.length;
    ends[i] = n;
  });
  const terms = new Uint32Array(n);
  titles.forEach((t, i) => {
    terms.set(t.title, i ? ends[i - 1] : 0);
  });
  return { terms, ends, baseLens: Uint32Array.from(titles, (t) => t.baseLen) };
}

/**
 * sectionsAt, the titles of the headings `found` was found among (sectionStarts) analysed
 * beforehand: `packed` holds them all, in order, in one or more runs (packTitles of consecutive
 * slices of those headings).
 */
export function sectionsPacked(
  found: ReadonlyArray<Pick<SectionStart, 'first' | 'index'>>,
  nPassages: number,
  own: Omit<Section, 'first'>,
  packed: readonly PackedTitles[],
): Section[] {
  const titles: Array<Omit<Section, 'first'>> = [];
  for (const { terms, ends, baseLens } of packed)
    for (let i = 0; i < ends.length; i++) titles.push({ title: terms.subarray(i ? ends[i - 1] : 0, ends[i]), baseLen: baseLens[i] });
  return titledSections(
    found,
    nPassages,
    ({ index }) => {
      const t = titles[index];
      if (!t) throw new RangeError(`heading ${index} of ${titles.length} packed titles`);
      return t;
    },
    own,
  );
}

/**
 * The passages `spans` of a document, analysed: `text` is the document's text from `offset` on
 * (a piece of it holding the spans; the whole text by default), the spans and the passages'
 * offsets are the document's. Each passage depends on its own text alone, so a document analysed
 * piece by piece gives the passages it gives whole. Consecutive passages overlap, so the text
 * under a group of them (at most ANALYSIS.groupChars) is tokenized once and each passage takes its
 * tokens from it (sharedPassage); a passage whose edge may fall inside a word is analysed alone, and
 * so is every passage of a group where those that could share would not save the region's reading.
 */
export function analyzePassages(
  text: string,
  spans: ReadonlyArray<readonly [number, number]>,
  stop: ReadonlySet<string>,
  offset = 0,
): Pick<AnalyzedDoc, 'passages' | 'nTokens'> {
  const passages: AnalyzedPassage[] = [];
  let nTokens = 0;
  for (let i = 0; i < spans.length; ) {
    const lo = spans[i][0];
    let hi = spans[i][1];
    let j = i + 1;
    while (j < spans.length && Math.max(hi, spans[j][1]) - lo <= ANALYSIS.groupChars) hi = Math.max(hi, spans[j++][1]);
    const region = text.slice(lo - offset, hi - offset);
    // which passages can take their terms from the region's, and whether they cover more text than it holds
    const shares = spans.slice(i, j).map(([s, e]) => !mayCrossToken(region, s - lo) && !mayCrossToken(region, e - lo));
    const covered = shares.reduce((n, ok, k) => (ok ? n + spans[i + k][1] - spans[i + k][0] : n), 0);
    const group = covered > hi - lo ? sharedText(region, stop) : undefined;
    for (let k = 0; i < j; i++, k++) {
      const [start, end] = spans[i];
      const p =
        group && shares[k] ? sharedPassage(group, start - lo, end - lo) : passageAlone(text.slice(start - offset, end - offset), stop);
      nTokens += p.terms.length;
      passages.push({ start, end, ...p });
    }
  }
  return { passages, nTokens };
}

function passageAlone(slice: string, stop: ReadonlySet<string>): TermSeq {
  return termSeq(slice, tokenize(slice), stop);
}

/** The text under a group of passages, tokenized and read into terms once. */
interface SharedText {
  tokens: Tokens;
  seq: TermSeq;
}

function sharedText(text: string, stop: ReadonlySet<string>): SharedText {
  const tokens = tokenize(text);
  return { tokens, seq: termSeq(text, tokens, stop) };
}

/**
 * The passage [s, e) of a shared text, neither edge inside a token (mayCrossToken), as termSeq of its
 * own slice gives it: the tokens starting in [s, e) (none crosses e, no word does), each one's
 * flags depending on its own form and on the text back to the previous token, which lies in the
 * passage, except the first, which always starts the passage's first sentence.
 */
function sharedPassage({ tokens, seq }: SharedText, s: number, e: number): TermSeq {
  const a = firstAtOrAfter(tokens.start, s);
  const b = firstAtOrAfter(tokens.start, e);
  const flags = seq.flags.slice(a, b);
  if (b > a) flags[0] |= FLAG_SENTENCE_START;
  return { terms: seq.terms.slice(a, b), flags };
}

/** The first index of a non-decreasing array whose value is at least v (its length when none is). */
function firstAtOrAfter(xs: Uint32Array, v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
