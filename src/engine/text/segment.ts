// Word segmentation for the scripts written without spaces between words (Han, Hiragana, Katakana,
// Thai, Lao, Khmer, Myanmar). Invariants: a run of such characters becomes the word-like segments of
// ICU's dictionary word breaker (Intl.Segmenter, granularity `word`), each with its exact offsets in
// the run, so highlights land on the characters as written; the breaker is locale-independent for
// these scripts, so the same text gives the same words at ingest and at query time. Where the
// runtime's ICU has no dictionaries (a small-icu build of Node), runs are cut into overlapping
// character bigrams instead, and ANALYZER says which, so an index made one way is never searched
// the other way.

/** The scripts written without spaces, by script extension (the prolonged sound mark and the kana voicing marks count as kana). */
const NO_SPACE = ['Han', 'Hiragana', 'Katakana', 'Thai', 'Lao', 'Khmer', 'Myanmar'].map((s) => `\\p{scx=${s}}`).join('');
/** One character of a script written without spaces. */
export const NO_SPACE_CHAR = new RegExp(`[${NO_SPACE}]`, 'u');
/** A maximal run of such characters, with the combining marks that follow them. */
const NO_SPACE_RUN = new RegExp(`[${NO_SPACE}][${NO_SPACE}\\p{M}]*`, 'gu');

/** A word of a run: its text and [start, end) in UTF-16 units of the run. */
export interface RunWord {
  text: string;
  start: number;
  end: number;
}

let breaker: Intl.Segmenter | null | undefined;

/** The dictionary word breaker, or null where the runtime cannot segment these scripts into words. */
function dictionaryBreaker(): Intl.Segmenter | null {
  if (breaker !== undefined) return breaker;
  breaker = null;
  if (typeof Intl.Segmenter === 'function') {
    const s = new Intl.Segmenter('und', { granularity: 'word' });
    const probe = [...s.segment('富士山は静岡県にある')].filter((x) => x.isWordLike).length;
    if (probe >= 4) breaker = s;
  }
  return breaker;
}

/** How runs without spaces are cut: `dictionary` (ICU word breaker) or `bigrams` (no dictionary in this runtime). */
export function segmentation(): 'dictionary' | 'bigrams' {
  return dictionaryBreaker() ? 'dictionary' : 'bigrams';
}

/**
 * The text analysis an index was built with. A store records it; a store made with another one is
 * re-encoded from its stored text when it opens (its term ids would not match the queries').
 * Version 2: no-space scripts segmented, combining marks kept inside words, NFKC. Version 3: a
 * first sentence's subject may open with a pronoun or determiner before a capitalised word (title.ts).
 * Version 4: a document of more than FEATURE_TEXT.docWindow passages is read as the sections under
 * its heading lines (sections.ts). Version 5: so is a shorter one whose headings name their
 * sections. Version 6: a text without enough heading lines is read by its entries when enough of
 * its paragraphs open by naming their subject (sections.ts).
 */
export function analyzerId(): string {
  return `svc-text/6 ${segmentation()}`;
}

/** Overlapping character (code point) bigrams of a run; a one-character run is its own word. */
export function bigrams(run: string): RunWord[] {
  const chars = [...run.matchAll(/\P{M}\p{M}*/gu)].map((m) => ({ text: m[0], start: m.index }));
  if (chars.length === 1) return [{ text: run, start: 0, end: run.length }];
  const out: RunWord[] = [];
  for (let i = 0; i + 1 < chars.length; i++) {
    const start = chars[i].start;
    const end = i + 2 < chars.length ? chars[i + 2].start : run.length;
    out.push({ text: run.slice(start, end), start, end });
  }
  return out;
}

/** The words of a run of no-space script characters (NO_SPACE_RUN), in order. */
function segmentRun(run: string): RunWord[] {
  const b = dictionaryBreaker();
  if (!b) return bigrams(run);
  const out: RunWord[] = [];
  for (const s of b.segment(run)) {
    if (s.isWordLike) out.push({ text: s.segment, start: s.index, end: s.index + s.segment.length });
  }
  return out;
}

/**
 * Splits a run of letters, digits and marks into pieces: the words of its no-space script parts and,
 * as they are, the parts between them, in order, with offsets in the run.
 */
export function splitRun(run: string): Array<RunWord> {
  const out: Array<RunWord> = [];
  let at = 0;
  for (const m of run.matchAll(NO_SPACE_RUN)) {
    if (m.index > at) out.push({ text: run.slice(at, m.index), start: at, end: m.index });
    for (const w of segmentRun(m[0])) out.push({ text: w.text, start: m.index + w.start, end: m.index + w.end });
    at = m.index + m[0].length;
  }
  if (at < run.length) out.push({ text: run.slice(at), start: at, end: run.length });
  return out;
}
