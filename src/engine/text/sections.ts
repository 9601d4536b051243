// The sections of a long document: a book or a manual stored as one document is read as the
// sections under its heading lines, each passage taking the heading it falls under as its title,
// as a short document's passages take the document's title. A document has sections when it is
// longer than TITLES.sectionChars characters, or when it has at least TITLES.minHeadings heading
// lines that mostly name their sections and that its title does not name throughout (a chapter of
// entries, a report on named things: readAsSections). A document is read by its entries instead
// when they outnumber the heading lines it would be read by, enough of its paragraphs open one
// and its title does not name them throughout (an encyclopaedia or a glossary stored without
// headings: readAsEntries); an entry is a paragraph that opens by naming its subject ("Nantong is
// a city ..."), a heading run into its paragraph. Other documents, every document of the training
// data among them, are read as before. A heading line is
// - a Markdown heading: `# Title` (ATX, anywhere) or a line underlined with `===` or `---` (setext);
// - a plain line that opens a block (the text's start or after a blank line), of at most
//   TITLES.maxLine characters, with a letter, not opening in lower case, with a quote, a list,
//   table or code marker, nor ending in a full stop, colon, semicolon or comma (a question or an
//   exclamation may be a title: an FAQ's "How do I reset it?", "Oklahoma!"), that is either the whole block
//   ("CHAPTER I") or followed in its block by a line at least twice as long that opens as a
//   sentence does, not in lower case nor with a digit or a closing bracket ("Title\nparagraph"). A
//   hard-wrapped paragraph's first line is about as long as its second; a line cut before a
//   subscript ("molecular O\n2 is ...") leaves a bracket open or the next line opens with a digit.
// Whether a line is a heading, or a paragraph an entry, depends on its paragraph alone (its lines,
// and that a blank line or the text's start is before it), so the text's regions (passages.ts
// passageRegions) find the headings the whole text has. In such a document a passage never carries
// text past a paragraph that opens with a heading or an entry (passages.ts). A passage falls under the last heading that starts at
// or before it; passages before the first heading are a section under the document's title, and
// those of a section longer than FEATURE_TEXT.docWindow passages keep the document's title. Pure.
import { FEATURE_TEXT, TITLES } from '../params.js';
import { NO_SPACE_CHAR } from './segment.js';
import { documentTitle, leadSubject } from './title.js';
import { stem } from './tokenize.js';
import type { Section } from './types.js';

/** A heading line: where it starts in the text (its first character that is not a space), and the title it gives. */
export interface Heading {
  start: number;
  title: string;
}

const ATX = /^#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_RULE = /^[ \t]*(?:=+|-+)[ \t]*$/;
/** Lines that open a list item, a table row, a quote, a code fence or a quoted line. */
const NOT_A_HEADING = /^(?:[-*+•|>]|```|~~~|["'“‘«])/u;
const LETTER = /\p{L}/u;
const LOWER_START = /^[^\p{L}\p{N}]*\p{Ll}/u;
/** Punctuation that ends a sentence or a clause, not a title, at the end of a line (before closing quotes or brackets). */
const SENTENCE_PUNCTUATION = /[.:;,]["'”’)\]]*$/u;

/** What a line that goes on a sentence opens with: a lower-case letter, a digit or a closing bracket. */
const GOES_ON = /^(?:[^\p{L}\p{N}"'“‘([]*\p{Ll}|\p{N}|[)\]])/u;

/** Whether every bracket the line opens it also closes. */
function balanced(line: string): boolean {
  let depth = 0;
  for (const ch of line) {
    if (ch === '(' || ch === '[') depth++;
    else if ((ch === ')' || ch === ']') && depth > 0) depth--;
  }
  return depth === 0;
}

/** Whether a trimmed line reads as a plain heading (its place in the block aside). */
function plainHeading(line: string): boolean {
  return (
    line.length <= TITLES.maxLine &&
    LETTER.test(line) &&
    !LOWER_START.test(line) &&
    !NOT_A_HEADING.test(line) &&
    !SENTENCE_PUNCTUATION.test(line) &&
    balanced(line)
  );
}

/** A word of a heading or a body: a run of letters and digits, lower-cased. */
const WORD = /[\p{L}\p{N}]+/gu;

/** A section's text as headings' words are looked for in it (sectionText): lower-cased, and its distinct words and their stems once asked for (wordsOf). */
interface SectionText {
  body: string;
  words?: string[];
  stems?: Set<string>;
}

function wordsOf(t: SectionText): { words: string[]; stems: Set<string> } {
  if (!t.words || !t.stems) {
    t.words = [...new Set(t.body.match(WORD) ?? [])];
    t.stems = new Set(t.words.map(stem));
  }
  return { words: t.words, stems: t.stems };
}

/** The text a heading's words are looked for in: after its line, up to `next` (the next heading), within TITLES.namingChars characters. */
function sectionText(text: string, heading: Heading, next: number): SectionText {
  const lineEnd = text.indexOf('\n', heading.start);
  return textBetween(text, lineEnd < 0 ? text.length : lineEnd, next);
}

/** The text from `from` up to `next`, within TITLES.namingChars characters, as names() reads it. */
function textBetween(text: string, from: number, next: number): SectionText {
  return { body: text.slice(from, Math.min(next, from + TITLES.namingChars)).toLowerCase() };
}

/** How many characters (UTF-16 units) two words share at their start. */
function sharedStart(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Whether a title names a section's text (sectionText): one of its words of at least TITLES.namingWord
 * characters (code points) recurs in it as itself, with the same stem ("Insects" and "insect"),
 * or, when it has at least TITLES.namingPrefix characters, as a word sharing all but its last
 * TITLES.namingEnding characters and at least TITLES.namingPrefix ("Armenia" and "Armenian",
 * "Geology" and "geologists"); a word in a script written without spaces, anywhere in it. The
 * model's stopwords ("The" of "The Mill") name nothing. "Lisbon" over a paragraph on Lisbon
 * names it; "History" or "Overview" over one that never says so does not.
 */
function names(title: string, section: SectionText, stop: ReadonlySet<string>): boolean {
  const { body } = section;
  const near = (w: string) => {
    const need = Math.max(TITLES.namingPrefix, w.length - TITLES.namingEnding);
    return w.length >= TITLES.namingPrefix && wordsOf(section).words.some((b) => sharedStart(w, b) >= need);
  };
  return (title.toLowerCase().match(WORD) ?? []).some((w) => {
    if ([...w].length < TITLES.namingWord || stop.has(w)) return false;
    if (NO_SPACE_CHAR.test(w)) return body.includes(w);
    // a word of the same stem, or sharing namingPrefix characters or more, opens with the stem's
    // first characters (a stem differs from its word only at its end): without them the body's words need not be read
    const s = stem(w);
    if (!body.includes(s.slice(0, Math.min(TITLES.namingPrefix - 1, s.length - 1)))) return false;
    return wordsOf(section).stems.has(s) || near(w);
  });
}

/**
 * Whether a text with these heading lines and this title (title.ts documentTitle) is read as
 * sections: it is longer than TITLES.sectionChars; or it has at least TITLES.minHeadings of them,
 * most of them name their sections (names), and its title names at most half of the sections
 * under other headings. So a chapter of encyclopaedia entries or a report on named things is read
 * by its sections, and an article is read under its title as before: under generic headings
 * ("Overview", "History") that name nothing, or under subtopics ("Economy" over its economy, a
 * paper's "Methods" and "Results") of a subject its title names throughout, which says more
 * about each passage than they do.
 */
function readAsSections(text: string, headings: readonly Heading[], stop: ReadonlySet<string>, title: string): boolean {
  if (text.length > TITLES.sectionChars) return true;
  if (headings.length < TITLES.minHeadings) return false;
  const texts = headings.map((h, i) => sectionText(text, h, headings[i + 1]?.start ?? text.length));
  const named = headings.filter((h, i) => names(h.title, texts[i], stop)).length;
  if (named * 2 <= headings.length) return false;
  const others = texts.filter((_, i) => headings[i].title !== title);
  return others.filter((t) => names(title, t, stop)).length * 2 <= others.length;
}

/**
 * Whether a text whose paragraphs open with these entries (entryLines) is read by them: at least
 * TITLES.minHeadings of them, opening at least TITLES.entryShare of its paragraphs, and its title
 * naming (names) at most half of those under other names. So an encyclopaedia, a glossary or a
 * catalogue stored without headings is read entry by entry, and neither a novel (whose paragraphs
 * rarely open by naming what they are about) nor an article whose paragraphs open on its own
 * subject ("The economy of Himachal Pradesh is ...", under "Himachal Pradesh") is.
 */
function readAsEntries(text: string, { entries, paragraphs }: Entries, stop: ReadonlySet<string>, title: string): boolean {
  if (entries.length < TITLES.minHeadings || entries.length < TITLES.entryShare * paragraphs) return false;
  const others = entries.flatMap((e, i) => (e.title === title ? [] : [textBetween(text, e.start, entries[i + 1]?.start ?? text.length)]));
  return others.filter((t) => names(title, t, stop)).length * 2 <= others.length;
}

const NO_STOP: ReadonlySet<string> = new Set();

/** How a text is read: by its heading lines, by its entries, or whole (under its title). */
export type SectionReading = 'headings' | 'entries' | 'none';

/**
 * How a text is read (sectionHeadings), `stop` being the model's stopwords (they name nothing) and
 * `title` the document's (by default the one its text gives).
 */
export function sectionReading(text: string, stop = NO_STOP, title = documentTitle(text)): SectionReading {
  return readings(text, stop, title).reading;
}

/**
 * The headings a text is read by (sectionReading's arguments): its entries when it is read by them
 * (readAsEntries) and they outnumber the heading lines it is read as sections by (readAsSections),
 * if any: an encyclopaedia stored without headings but for a few stray short lines, or with a
 * heading per letter, is read entry by entry; else those heading lines; else none.
 */
export function sectionHeadings(text: string, stop = NO_STOP, title = documentTitle(text)): Heading[] {
  return readings(text, stop, title).headings;
}

function readings(text: string, stop: ReadonlySet<string>, title: string): { reading: SectionReading; headings: Heading[] } {
  const headings = headingLines(text);
  const byHeadings = readAsSections(text, headings, stop, title);
  const entries = entryLines(text);
  if (entries.entries.length > (byHeadings ? headings.length : 0) && readAsEntries(text, entries, stop, title))
    return { reading: 'entries', headings: entries.entries };
  return byHeadings ? { reading: 'headings', headings } : { reading: 'none', headings: [] };
}

/** What goes on from an entry's name: a bracket, or a verb of being (after the quote closing a quoted name). */
const ENTRY_GOES_ON = /^["”]?\s*(?:\(|(?:is|was|are|were|has been|had been|refers to|may refer to)\s)/u;

/** A text's entries (entryLines), and how many paragraphs it has. */
export interface Entries {
  entries: Heading[];
  paragraphs: number;
}

/**
 * The entries of a text: each paragraph (at the text's start or after a blank line) whose first
 * sentence opens with a name (title.ts leadSubject) followed by a bracket or a verb of being, as
 * the entries of an encyclopaedia, a glossary or a catalogue open ("Guido Brignone (6 December
 * 1886 – ...", "Nantong is a city ..."): a heading run into its paragraph, titled by that name.
 * Whether a paragraph opens an entry depends on the paragraph alone, as a heading line does.
 */
export function entryLines(text: string): Entries {
  const entries: Heading[] = [];
  let paragraphs = 0;
  let at = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; at += lines[i].length + 1, i++) {
    const line = lines[i].trim();
    if (!line || (i > 0 && lines[i - 1].trim() !== '')) continue;
    paragraphs++;
    const name = entryName(lines, i);
    if (name) entries.push({ start: at + lines[i].length - lines[i].trimStart().length, title: name });
  }
  return { entries, paragraphs };
}

/** The name the paragraph opening at line `i` opens its entry with, or '' (a paragraph that opens with a heading line is a section, not an entry). */
function entryName(lines: readonly string[], i: number): string {
  const line = lines[i].trim();
  if (lineHeading(line, lines[i + 1]?.trim() ?? '', true) !== undefined) return '';
  // the paragraph's first words, its lines joined (a hard-wrapped paragraph), as leadSubject reads a text's start
  let head = line;
  for (let j = i + 1; j < lines.length && head.length < TITLES.maxLine + 40 && lines[j].trim(); j++) head += ` ${lines[j].trim()}`;
  head = head.slice(0, TITLES.maxLine + 40);
  const name = leadSubject(head);
  return name && ENTRY_GOES_ON.test(head.slice(head.indexOf(name) + name.length)) ? name : '';
}

/** The heading lines of a text, in order. */
export function headingLines(text: string): Heading[] {
  const lines: Array<{ start: number; line: string }> = [];
  let at = 0;
  for (const raw of text.split('\n')) {
    const lead = raw.length - raw.trimStart().length;
    lines.push({ start: at + lead, line: raw.trim() });
    at += raw.length + 1;
  }
  const out: Heading[] = [];
  for (let i = 0; i < lines.length; i++) {
    const { start, line } = lines[i];
    const title = line ? lineHeading(line, lines[i + 1]?.line ?? '', i === 0 || lines[i - 1].line === '') : undefined;
    if (title === undefined) continue;
    if (title) out.push({ start, title });
    // a setext heading's underline is not a line of its own
    if (!ATX.test(line) && SETEXT_RULE.test(lines[i + 1]?.line ?? '')) i++;
  }
  return out;
}

/**
 * The title a trimmed, non-empty line gives as a heading line (an empty one for an ATX heading
 * with no text), or undefined when it is none, given the trimmed line after it and whether it
 * opens a block.
 */
function lineHeading(line: string, next: string, opensBlock: boolean): string | undefined {
  const atx = ATX.exec(line);
  if (atx) return atx[1].trim();
  if (next && SETEXT_RULE.test(next) && LETTER.test(line) && opensBlock) return line;
  if (opensBlock && plainHeading(line) && (next === '' || (next.length >= 2 * line.length && !GOES_ON.test(next)))) return line;
  return undefined;
}

/** Where a section starts: its first passage, and its heading. */
export interface SectionStart {
  first: number;
  heading: string;
  /** the heading's index among those sectionStarts was given */
  index: number;
}

/** For each heading (in order) that some passage starting at `starts` (in order) falls under: that passage. */
export function sectionStarts(headings: readonly Heading[], starts: ArrayLike<number>): SectionStart[] {
  const out: SectionStart[] = [];
  let h = -1;
  for (let p = 0; p < starts.length; p++) {
    const before = h;
    while (h + 1 < headings.length && headings[h + 1].start <= starts[p]) h++;
    if (h !== before && h >= 0) out.push({ first: p, heading: headings[h].title, index: h });
  }
  return out;
}

/**
 * The sections of a document of `nPassages` passages that start at `found`: each titled by its
 * heading (`titleOf` makes the terms of a start's heading), or by `own`, the document's title, when
 * it is longer than FEATURE_TEXT.docWindow passages: so long a section is no unit of evidence, and
 * a line taken for a heading by mistake does not title the thousands of passages after it. The
 * passages before the first heading, if any, are a section titled `own`.
 */
export function titledSections<S extends Pick<SectionStart, 'first'>>(
  found: readonly S[],
  nPassages: number,
  titleOf: (start: S) => Omit<Section, 'first'>,
  own: Omit<Section, 'first'>,
): Section[] {
  const sections = found.map((start, i) => {
    const end = i + 1 < found.length ? found[i + 1].first : nPassages;
    return { first: start.first, ...(end - start.first > FEATURE_TEXT.docWindow ? own : titleOf(start)) };
  });
  return found.length > 0 && found[0].first > 0 ? [{ first: 0, ...own }, ...sections] : sections;
}
