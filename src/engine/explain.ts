// Renders raw trace steps into one readable `why` per hop, from the query text and the text of the
// passages involved: which query words matched, which words of the passage read led on, or which
// title it names.
import type { RawStep } from './search-op.js';
import type { RowRef } from './search-dispatch.js';
import { tokenize } from './tokenize.js';
import type { TextReader, TraceStep } from './types.js';

function words(text: string, positions: number[]): string[] {
  const t = tokenize(text);
  return [...new Set(positions.filter((i) => i < t.forms.length).map((i) => text.slice(t.start[i], t.end[i])))];
}

export function explain(steps: RawStep[], rowRef: (seg: number, row: number) => RowRef | undefined, readText: TextReader): TraceStep[] {
  const out: TraceStep[] = [];
  for (const s of steps) {
    const ref = rowRef(s.seg, s.row);
    if (!ref) continue;
    let why: string;
    if (s.why.kind === 'query') {
      why = s.why.words.length ? `matches the query words ${s.why.words.map((w) => `'${w}'`).join(', ')}` : 'closest to the query';
    } else {
      const [fs, fr] = (s.why as { from?: [number, number] }).from ?? [0, 0];
      const from = rowRef(fs, fr);
      const text = from ? readText(from.docId, from.start, from.end) ?? '' : '';
      const ws = words(text, s.why.positions);
      const src = from ? `'${from.docId}' (hop ${s.why.fromHop})` : `the passage read at hop ${s.why.fromHop}`;
      why = s.why.kind === 'link'
        ? `its title ${ws.length ? `'${ws.join(' ')}' ` : ''}is named in ${src}`
        : `follows ${src} through ${ws.length ? ws.map((w) => `'${w}'`).join(', ') : 'its terms'}`;
    }
    out.push({ hop: s.hop, doc_id: ref.docId, why });
  }
  return out;
}
