// Text with ranges marked: [start, end) offsets in UTF-16 code units, as the API gives highlights
// and passage offsets. The text becomes text nodes and the ranges <mark> elements, never markup;
// ranges out of order, overlapping or out of bounds are clipped, so a bad range never drops text.
import { h } from './dom.js';

export function marked(text: string, ranges: number[][], attrs: (i: number) => Record<string, string> = () => ({})): DocumentFragment {
  const out = document.createDocumentFragment();
  let at = 0;
  const sorted = ranges.map((r, i) => ({ start: r[0], end: r[1], i })).sort((a, b) => a.start - b.start);
  for (const { start, end, i } of sorted) {
    const s = Math.max(at, Math.min(start, text.length));
    const e = Math.max(s, Math.min(end, text.length));
    if (e === s) continue;
    if (s > at) out.append(text.slice(at, s));
    out.append(h('mark', attrs(i), text.slice(s, e)));
    at = e;
  }
  if (at < text.length) out.append(text.slice(at));
  return out;
}
