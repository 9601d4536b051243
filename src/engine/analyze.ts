// Turns a document into what the index needs, without the dense part: its passages (offsets), the
// term sequence of each passage with per-token flags, and the document's title terms. Pure and
// deterministic given the model's stop list. A document's title is `metadata.title` when it is a
// string, else its first line when that line is short and the document has more lines.
import { splitPassages } from './passages.js';
import { hash32, stem, tokenize, type Tokens } from './tokenize.js';

export const FLAG_CAPITALISED = 1;
export const FLAG_STOP = 2;
export const FLAG_SENTENCE_START = 4;

const MAX_TITLE_LINE = 100;

export interface TermSeq {
  /** Term ids: hash32 of each token's stem, in text order. */
  terms: Uint32Array;
  flags: Uint8Array;
}

export interface AnalyzedPassage extends TermSeq {
  start: number;
  end: number;
}

export interface AnalyzedDoc {
  passages: AnalyzedPassage[];
  /** Title terms (empty when the document has no title). */
  title: Uint32Array;
  /** Title terms without a trailing parenthetical ("Devotion (1929 film)" -> "Devotion"). */
  baseTitle: Uint32Array;
  nTokens: number;
}

export function termId(form: string): number {
  return hash32(stem(form));
}

export function documentTitle(text: string, metadata?: Record<string, unknown>): string {
  const t = metadata?.title;
  if (typeof t === 'string' && t.trim()) return t.trim();
  const nl = text.indexOf('\n');
  if (nl <= 0) return '';
  const first = text.slice(0, nl).trim();
  return first.length <= MAX_TITLE_LINE && !/[.!?:;,]$/.test(first) ? first : '';
}

export function termSeq(text: string, tokens: Tokens, stop: ReadonlySet<string>, offset = 0): TermSeq {
  const n = tokens.forms.length;
  const terms = new Uint32Array(n);
  const flags = new Uint8Array(n);
  let prevEnd = 0;
  for (let i = 0; i < n; i++) {
    const form = tokens.forms[i];
    terms[i] = termId(form);
    const s = tokens.start[i];
    const c = text[s];
    let f = c !== c.toLowerCase() && c === c.toUpperCase() ? FLAG_CAPITALISED : 0;
    if (stop.has(form)) f |= FLAG_STOP;
    const between = text.slice(i === 0 ? offset : prevEnd, s);
    if (i === 0 || /[.!?]["')\]]*\s*$|\n/.test(between)) f |= FLAG_SENTENCE_START;
    flags[i] = f;
    prevEnd = tokens.end[i];
  }
  return { terms, flags };
}

function titleTerms(title: string): Uint32Array {
  return Uint32Array.from(tokenize(title).forms, termId);
}

export function analyzeDocument(text: string, metadata: Record<string, unknown> | undefined, stop: ReadonlySet<string>): AnalyzedDoc {
  const title = documentTitle(text, metadata);
  const base = title.replace(/\s*\([^()]*\)\s*$/, '');
  const passages: AnalyzedPassage[] = [];
  let nTokens = 0;
  for (const [start, end] of splitPassages(text)) {
    const slice = text.slice(start, end);
    const tokens = tokenize(slice);
    nTokens += tokens.forms.length;
    passages.push({ start, end, ...termSeq(slice, tokens, stop) });
  }
  return { passages, title: titleTerms(title), baseTitle: base === title ? titleTerms(title) : titleTerms(base), nTokens };
}
