// The sections of a long document: a book or a manual stored as one document is read as the
// sections under its heading lines, each passage taking the heading it falls under as its title,
// as a short document's passages take the document's title. Only a document of more than
// TITLES.sectionChars characters has sections (shorter ones, every document of the training data
// among them, are read as before). A heading line is
// - a Markdown heading: `# Title` (ATX, anywhere) or a line underlined with `===` or `---` (setext);
// - a plain line that opens a block (the text's start or after a blank line), of at most
//   TITLES.maxLine characters, with a letter, not opening in lower case, with a quote, a list,
//   table or code marker, nor ending in a full stop, colon, semicolon or comma (a question or an
//   exclamation may be a title: an FAQ's "How do I reset it?", "Oklahoma!"), that is either the whole block
//   ("CHAPTER I") or followed in its block by a line at least twice as long that opens as a
//   sentence does, not in lower case nor with a digit or a closing bracket ("Title\nparagraph"). A
//   hard-wrapped paragraph's first line is about as long as its second; a line cut before a
//   subscript ("molecular O\n2 is ...") leaves a bracket open or the next line opens with a digit.
// Whether a line is a heading depends on its paragraph alone (its lines, and that a blank line or
// the text's start is before it), so the text's regions (passages.ts passageRegions) find the
// headings the whole text has. In such a document a passage never carries text past a paragraph
// that opens with a heading (passages.ts). A passage falls under the last heading that starts at
// or before it; passages before the first heading, and those of a section longer than
// FEATURE_TEXT.docWindow passages, keep the document's title. Pure.
import { FEATURE_TEXT, TITLES } from '../params.js';
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

/** Whether a text is long enough to be read as sections (TITLES.sectionChars). */
export const sectioned = (text: string) => text.length > TITLES.sectionChars;

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
    if (!line) continue;
    const atx = ATX.exec(line);
    if (atx) {
      if (atx[1].trim()) out.push({ start, title: atx[1].trim() });
      continue;
    }
    const next = lines[i + 1]?.line ?? '';
    const opensBlock = i === 0 || lines[i - 1].line === '';
    if (next && SETEXT_RULE.test(next) && LETTER.test(line) && opensBlock) {
      out.push({ start, title: line });
      i++;
      continue;
    }
    if (opensBlock && plainHeading(line) && (next === '' || (next.length >= 2 * line.length && !GOES_ON.test(next))))
      out.push({ start, title: line });
  }
  return out;
}

/** Where a section starts: its first passage, and its heading. */
export interface SectionStart {
  first: number;
  heading: string;
}

/** For each heading (in order) that some passage starting at `starts` (in order) falls under: that passage. */
export function sectionStarts(headings: readonly Heading[], starts: ArrayLike<number>): SectionStart[] {
  const out: SectionStart[] = [];
  let h = -1;
  for (let p = 0; p < starts.length; p++) {
    const before = h;
    while (h + 1 < headings.length && headings[h + 1].start <= starts[p]) h++;
    if (h !== before && h >= 0) out.push({ first: p, heading: headings[h].title });
  }
  return out;
}

/**
 * The sections of a document of `nPassages` passages that start at `found`: each titled by its
 * heading (`titleOf` makes the terms), or by `own`, the document's title, when it is longer than
 * FEATURE_TEXT.docWindow passages: so long a section is no unit of evidence, and a line taken for
 * a heading by mistake does not title the thousands of passages after it.
 */
export function titledSections(
  found: readonly SectionStart[],
  nPassages: number,
  titleOf: (heading: string) => Omit<Section, 'first'>,
  own: Omit<Section, 'first'>,
): Section[] {
  return found.map(({ first, heading }, i) => {
    const end = i + 1 < found.length ? found[i + 1].first : nPassages;
    return { first, ...(end - first > FEATURE_TEXT.docWindow ? own : titleOf(heading)) };
  });
}
