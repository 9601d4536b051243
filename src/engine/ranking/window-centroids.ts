// The centroids of the passage windows the whole-document dense feature reads (the sum of a
// window's scaled int8 vectors, SearchCorpus.docWindow), remembered across the searches a thread
// runs: in a book stored as one document, the passages a search scores fall in many windows of
// FEATURE_TEXT.docWindow passages, and summing each window's vectors again for every search was
// most of such a search's time. A segment is immutable while it exists and its id is never given to
// another segment in this process (term-ranges.ts), and a window lies inside one segment (a
// document's rows do) and is fixed by its first row and length (a section's rows, or a window
// of a long document's, may start at the same row), so an entry never goes stale.
// Invariants: per thread (module state); a centroid is exactly the sum the feature computed before
// (the same rows, in the same order, in float64); windows shorter than FEATURE_TEXT.keptWindowRows,
// and those of a segment without an id, are summed afresh; at most FEATURE_TEXT.keptWindows are
// kept, least recently read dropped first.
import { FEATURE_TEXT } from '../params.js';
import type { SearchCorpus } from './corpus.js';

export interface WindowCentroid {
  /** the sum of the window's vectors, each times its scale */
  sum: Float64Array;
  /** the sum's squared norm */
  norm2: number;
}

const kept = new Map<string, WindowCentroid>();

/** The centroid of the global rows [first, first + count) of one document, a `dim`-dimensional sum. */
export function windowCentroid(c: SearchCorpus, first: number, count: number, dim: number): WindowCentroid {
  const [si, local] = c.locate(first);
  const id = c.snapshot[si].id;
  const key = count >= FEATURE_TEXT.keptWindowRows && id !== undefined ? `${id}:${local}:${count}` : undefined;
  if (key !== undefined) {
    const hit = kept.get(key);
    if (hit) {
      kept.delete(key);
      kept.set(key, hit);
      return hit;
    }
  }
  const sum = new Float64Array(dim);
  for (let r = first; r < first + count; r++) {
    const [v, sc] = c.vector(r);
    for (let i = 0; i < v.length; i++) sum[i] += v[i] * sc;
  }
  let norm2 = 0;
  for (let i = 0; i < dim; i++) norm2 += sum[i] * sum[i];
  const out = { sum, norm2 };
  if (key !== undefined) {
    if (kept.size >= FEATURE_TEXT.keptWindows) kept.delete(kept.keys().next().value!);
    kept.set(key, out);
  }
  return out;
}
