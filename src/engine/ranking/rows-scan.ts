// The common terms of an approximate scan (scan-budget.ts) only add to the rows the rare ones
// touched. Read from their postings (bm25_accumulate_marked), that costs every posting of every
// common term, which grows with the store; read from the touched rows' own term sequences
// (bm25_accumulate_rows_coded for the body's coded sequences, bm25_accumulate_rows for the
// titles'), it costs their lengths, which the scan budget bounds. scanByRows takes
// the second way when it reads less (SCAN.rowScanCost) and the scan's marks give it scratch (hop 1's
// scan does: question-scan.ts), one field at a time, all its terms at once (at most
// SCAN.rowScanTerms per call). The sums are the same either way: a posting's tf is the
// term's count in the row's sequence (capped at 255), and each row adds its terms in the same order.
import type { LexicalParams } from '../model/index.js';
import { SCAN } from '../params.js';
import type { WasmKernels } from '../runtime/index.js';
import { type PostingRange, SEC, type SegmentView } from '../segment/index.js';
import type { CorpusStats, ScanMarks, ScanTarget } from './types.js';

/** What a scan by rows reads of the search corpus (corpus.ts SearchCorpus). */
export interface RowScanCorpus {
  readonly kernels: WasmKernels;
  readonly segs: readonly SegmentView[];
  /** Whether some segment's image lies past the kernels' memory (runtime/regions.ts). */
  readonly spread: boolean;
  readonly rowBase: readonly number[];
  readonly stats: CorpusStats;
  readonly lexical: LexicalParams;
  idf(term: number): number;
  ranges(field: 'body' | 'title', term: number): ReadonlyArray<PostingRange | undefined>;
}

/** A scan's terms, their weights, and which are restricted (add to touched rows only). */
interface ScanTerms {
  terms: ArrayLike<number>;
  weights: ArrayLike<number>;
  restricted: (i: number) => boolean;
}

/** The restricted terms that add anything to target t, in order: each with its weight (weight · scale · idf) and postings in t's field. */
function restrictedOf(
  c: RowScanCorpus,
  t: ScanTarget,
  { terms, weights, restricted }: ScanTerms,
): Array<{ term: number; w: number; postings: number }> {
  const out: Array<{ term: number; w: number; postings: number }> = [];
  for (let i = 0; i < terms.length; i++) {
    if (!restricted(i)) continue;
    const w = weights[i] * t.scale * c.idf(terms[i]);
    if (w === 0) continue;
    const postings = c.ranges(t.field, terms[i]).reduce((n, r) => n + (r?.count ?? 0), 0);
    if (postings > 0) out.push({ term: terms[i], w, postings });
  }
  return out;
}

/**
 * Whether scanByRows may take a target: the marks give it scratch, and the row scan, a kernel over
 * the rows' sequences, can read every image (one past the kernels' memory is scanned by its
 * postings instead: the same sums).
 */
export function mayScanByRows(c: RowScanCorpus, marks: ScanMarks): marks is ScanMarks & { terms: number } {
  return Boolean(marks.terms) && !c.spread;
}

/**
 * Adds the restricted terms of `scan` (in order) to the rows marks.list[0..listed) of `t` from the
 * rows' sequences when that reads less than their postings would; returns whether it did (else
 * nothing is written).
 */
export function scanByRows(c: RowScanCorpus, t: ScanTarget, scan: ScanTerms, marks: ScanMarks, listed: number): boolean {
  if (!mayScanByRows(c, marks)) return false;
  const terms = restrictedOf(c, t, scan);
  if (terms.length === 0) return false;
  const body = t.field === 'body';
  const avg = Math.max(body ? c.stats.avgBody : c.stats.avgTitle, 1e-3);
  const postings = terms.reduce((n, x) => n + x.postings, 0);
  const perRow = avg * terms.length + c.segs.length;
  if (marks.byRows !== 'always' && listed * perRow * SCAN.rowScanCost >= postings) return false;
  const kk = c.kernels;
  const { k1, b, k1Title, bTitle } = c.lexical;
  const max = SCAN.rowScanTerms;
  const termIds = kk.views.u32At(marks.terms, max);
  const weights = kk.views.f32At(marks.terms + 4 * max, max);
  const counts = marks.terms + 8 * max;
  for (let from = 0; from < terms.length; from += max) {
    const chunk = terms.slice(from, from + max);
    chunk.forEach((x, j) => {
      termIds[j] = x.term;
      weights[j] = x.w;
    });
    for (let si = 0; si < c.segs.length; si++) {
      const s = c.segs[si];
      const lo = c.rowBase[si];
      const rest = [
        chunk.length,
        counts,
        s.ptr(body ? SEC.blen : SEC.tlen),
        avg,
        body ? k1 : k1Title,
        body ? b : bTitle,
        t.scores + 4 * lo,
      ] as const;
      if (body) kk.bm25AccumulateRowsCoded(marks.list, listed, lo, lo + s.nRows, s.codes(), marks.terms, marks.terms + 4 * max, ...rest);
      else {
        const seq = [s.ptr(SEC.titleStart), s.ptr(SEC.titleSeq), s.totalTitleLength()] as const;
        kk.bm25AccumulateRows(marks.list, listed, lo, lo + s.nRows, ...seq, marks.terms, marks.terms + 4 * max, ...rest);
      }
    }
  }
  return true;
}
