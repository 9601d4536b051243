// Renders raw trace steps into one readable `why` and `query` per hop, from the query text and the
// text of the passages involved: which query words matched, which words of the passage read led on,
// or which title it names; the query a later hop searched with is the question plus those words.
import type { RawStep } from '../ranking/index.js';
import { type Tokens, termId, tokenize } from '../text/index.js';
import type { TextReader, TraceStep } from '../types.js';
import type { RowRef } from './types.js';

/** Distinct surface words of `text` (tokenized as `t`) at the given token positions (or whose term ids are listed). */
function words(text: string, t: Tokens, pick: (form: string, i: number) => boolean): string[] {
  const out: string[] = [];
  t.forms.forEach((f, i) => {
    const w = text.slice(t.start[i], t.end[i]);
    if (pick(f, i) && !out.includes(w)) out.push(w);
  });
  return out;
}

/** The tokens of `text` at the given positions as one phrase: touching tokens (words of Chinese or Japanese) joined as written, others by a space. */
function phrase(text: string, t: Tokens, positions: Set<number>): string {
  let out = '';
  let end = -1;
  t.forms.forEach((_, i) => {
    if (!positions.has(i)) return;
    out += (out && t.start[i] !== end ? ' ' : '') + text.slice(t.start[i], t.end[i]);
    end = t.end[i];
  });
  return out;
}

const quote = (ws: string[]) => ws.map((w) => `'${w}'`).join(', ');

export function explain(
  query: string,
  steps: RawStep[],
  rowRef: (seg: number, row: number) => RowRef | undefined,
  readText: TextReader,
): TraceStep[] {
  const out: TraceStep[] = [];
  for (const s of steps) {
    const ref = rowRef(s.seg, s.row);
    if (!ref) continue;
    let why: string;
    let searched = query;
    if (s.why.kind === 'query') {
      const ids = new Set(s.why.terms);
      const ws = words(query, tokenize(query), (f) => ids.has(termId(f))).slice(0, 6);
      why = ws.length ? `matches the query words ${quote(ws)}` : 'closest to the query';
    } else {
      const from = s.why.from ? rowRef(s.why.from[0], s.why.from[1]) : undefined;
      const text = from ? (readText(from.docId, from.start, from.end) ?? '') : '';
      const pos = new Set(s.why.positions);
      const tokens = tokenize(text);
      const ws = words(text, tokens, (_, i) => pos.has(i));
      const title = s.why.kind === 'link' ? phrase(text, tokens, pos) : '';
      const src = from ? `'${from.docId}' (read at hop ${s.hop - 1})` : `the passage read at hop ${s.hop - 1}`;
      why =
        s.why.kind === 'link'
          ? `its title${title ? ` '${title}'` : ''} is named in ${src}`
          : `follows ${src}${ws.length ? ` through ${quote(ws)}` : ''}`;
      searched = ws.length ? `${query} + ${s.why.kind === 'link' ? `'${title}'` : quote(ws)}` : `${query} + ${src}`;
    }
    out.push({ hop: s.hop, doc_id: ref.docId, why, query: searched, ms: s.ms, candidates: s.candidates });
  }
  return out;
}
