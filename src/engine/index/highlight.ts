// Character offsets of the words to highlight in a passage: the words of `text` whose term (the
// engine's normalised, stemmed form) is one of a hit's marks (ranking/marks.ts). Offsets are UTF-16
// code units into `text`, as [start, end) pairs, sorted, overlapping or touching ones merged.
import { termId, tokenize } from '../text/index.js';

export function highlightSpans(text: string, marks: readonly number[]): Array<[number, number]> {
  if (marks.length === 0) return [];
  const want = new Set(marks);
  const t = tokenize(text);
  const out: Array<[number, number]> = [];
  t.forms.forEach((form, i) => {
    if (!want.has(termId(form))) return;
    const last = out[out.length - 1];
    if (last && t.start[i] <= last[1]) last[1] = Math.max(last[1], t.end[i]);
    else out.push([t.start[i], t.end[i]]);
  });
  return out;
}
