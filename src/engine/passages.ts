// Splits a whole document into passages. Invariants: every passage is an exact substring
// text.slice(start, end) of at most MAX_PASSAGE characters with no leading or trailing
// whitespace; passages are in text order and do not overlap; every non-space character of the
// document is in some passage. Paragraphs (separated by blank lines) are split at sentence
// boundaries and sentences are packed greedily up to the limit; a paragraph shorter than
// `minChars` is joined to the next one when both fit. A sentence longer than the limit is cut at
// the last whitespace before it (or hard, when there is none).

export const MAX_PASSAGE = 1200;

export interface SplitOptions {
  maxChars?: number;
  /** Paragraphs shorter than this are packed with their neighbours. */
  minChars?: number;
}

const PARAGRAPH_BREAK = /\n[ \t\r\f\v]*\n\s*/g;
/** End of a sentence: terminal punctuation, optional closing quotes/brackets, then whitespace. */
const SENTENCE_END = /[.!?…]+["'”’)\]]*\s+(?=["'“‘(\[]?[\p{Lu}\p{N}])|\n+/gu;

type Span = [number, number];

function trimSpan(text: string, s: number, e: number): Span | undefined {
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return s < e ? [s, e] : undefined;
}

function paragraphs(text: string): Span[] {
  const out: Span[] = [];
  let last = 0;
  for (const m of text.matchAll(PARAGRAPH_BREAK)) {
    const sp = trimSpan(text, last, m.index);
    if (sp) out.push(sp);
    last = m.index + m[0].length;
  }
  const sp = trimSpan(text, last, text.length);
  if (sp) out.push(sp);
  return out;
}

function sentences(text: string, [ps, pe]: Span): Span[] {
  const out: Span[] = [];
  const re = new RegExp(SENTENCE_END.source, SENTENCE_END.flags);
  re.lastIndex = ps;
  let last = ps;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) && m.index < pe) {
    const cut = Math.min(m.index + m[0].length, pe);
    const sp = trimSpan(text, last, cut);
    if (sp) out.push(sp);
    last = cut;
  }
  const sp = trimSpan(text, last, pe);
  if (sp) out.push(sp);
  return out;
}

/** Cuts one over-long span into pieces of at most `max`, preferring whitespace. */
function hardSplit(text: string, [s, e]: Span, max: number): Span[] {
  const out: Span[] = [];
  while (e - s > max) {
    let cut = s + max;
    while (cut > s + max / 2 && !/\s/.test(text[cut])) cut--;
    if (cut <= s + max / 2) cut = s + max;
    const a = trimSpan(text, s, cut);
    if (a) out.push(a);
    const rest = trimSpan(text, cut, e);
    if (!rest) return out;
    [s, e] = rest;
  }
  out.push([s, e]);
  return out;
}

export function splitPassages(text: string, opts: SplitOptions = {}): Span[] {
  const max = opts.maxChars ?? MAX_PASSAGE;
  const min = opts.minChars ?? 0;
  const out: Span[] = [];
  let cur: Span | undefined;
  /** Appends a unit (sentence or short paragraph) to the current passage, or starts a new one. */
  const push = (u: Span, joinable: boolean) => {
    if (cur && joinable && u[1] - cur[0] <= max) cur = [cur[0], u[1]];
    else {
      if (cur) out.push(cur);
      cur = u;
    }
  };
  let prevShort = false;
  for (const para of paragraphs(text)) {
    const short = para[1] - para[0] < min;
    let first = true;
    for (const sent of sentences(text, para)) {
      for (const piece of hardSplit(text, sent, max)) {
        push(piece, !first || prevShort || (short && cur !== undefined && cur[1] - cur[0] < min));
        first = false;
      }
    }
    prevShort = short;
  }
  if (cur) out.push(cur);
  return out;
}
