// A scan of terms into score buffers over a snapshot's segments (corpus.ts SearchCorpus.scan): BM25
// of each term in each target field, over every row holding it, or, with marks, the terms not
// restricted first (marking and listing the rows they touch), then the restricted terms added to
// marked rows only, from their postings or from the listed rows' sequences (rows-scan.ts). The
// postings are read segment by segment, spread over an idle worker (scan-segments.ts); a scan
// whose marks give no touching scratch touches on this thread (touchTerm).
// Invariant: the rows a scan newly marks are listed after marks.listed, in the order met.
import { SCAN } from '../params.js';
import { SEC } from '../segment/index.js';
import { mayScanByRows, scanByRows } from './rows-scan.js';
import { postingsIn, type ScanCorpus, type SegmentCall, scanSegments, stagedLengths, touchSegments } from './scan-segments.js';
import type { ScanMarks, ScanTarget } from './types.js';

/**
 * For each target, scores += Σ weight_t · scale · bm25_field(t). Without marks every row holding a
 * term is scored. With marks, the terms not restricted are scanned first and mark the rows they
 * touch (u8 per global row), appending each row they newly mark to the marks' list; the restricted
 * terms then add to marked rows only. Returns how many rows it newly marked. The terms that mark
 * nothing run segment by segment (scan-segments.ts), in the order of a scan alone.
 */
export function scanTargets(
  c: ScanCorpus,
  targets: ScanTarget[],
  terms: ArrayLike<number>,
  weights: ArrayLike<number>,
  marks?: ScanMarks,
): number {
  if (!marks) {
    scanSegments(
      c,
      callsOf(c, targets, terms, weights, () => true),
      0,
    );
    return 0;
  }
  const restricted = (i: number) => marks.restrict?.[i] ?? false;
  const touched =
    marks.touch &&
    touchSegments(
      c,
      callsOf(c, targets, terms, weights, (i) => !restricted(i)),
      marks,
      marks.listed,
      marks.touch,
    );
  let marked = touched ?? 0;
  if (touched === undefined)
    for (const t of targets)
      for (let i = 0; i < terms.length; i++) if (!restricted(i)) marked += touchTerm(c, t, terms[i], weights[i] * t.scale, marks, marked);
  // the restricted terms, a target at a time where a scan by rows may take one (it writes at once:
  // the calls before it go first), else all targets in one job
  const listed = marks.listed + marked;
  let pending: ScanTarget[] = [];
  const flush = () => {
    scanSegments(c, callsOf(c, pending, terms, weights, restricted), marks.ptr);
    pending = [];
  };
  for (const t of targets) {
    if (mayScanByRows(c, marks)) {
      flush();
      if (scanByRows(c, t, { terms, weights, restricted }, marks, listed)) continue;
    }
    pending.push(t);
  }
  flush();
  return marked;
}

/** The calls of the terms `which` selects, target by target, in order (those that add nothing left out). */
function callsOf(
  c: ScanCorpus,
  targets: ScanTarget[],
  terms: ArrayLike<number>,
  weights: ArrayLike<number>,
  which: (i: number) => boolean,
): SegmentCall[] {
  const calls: SegmentCall[] = [];
  for (const t of targets)
    for (let i = 0; i < terms.length; i++) {
      if (!which(i)) continue;
      const w = weights[i] * t.scale * c.idf(terms[i]);
      if (w !== 0) calls.push({ body: t.field === 'body', w, scores: t.scores, ranges: c.ranges(t.field, terms[i]) });
    }
  return calls;
}

/** A term not restricted, with marks: adds to every row holding it and marks (and lists) the rows it newly touches. */
function touchTerm(c: ScanCorpus, t: ScanTarget, term: number, weight: number, marks: ScanMarks, marked: number): number {
  const { k1, b, k1Title, bTitle } = c.lexical;
  const body = t.field === 'body';
  const avg = Math.max(body ? c.stats.avgBody : c.stats.avgTitle, 1e-3);
  const w = weight * c.idf(term);
  if (w === 0) return 0;
  const kk = c.kernels;
  const ranges = c.ranges(t.field, term);
  const k1f = body ? k1 : k1Title;
  const bf = body ? b : bTitle;
  let added = 0;
  // a plain loop and direct calls: this runs per term, field and segment of every hop, and allocates
  // nothing for a segment in the kernels' memory. One past it has its postings copied into the stage
  // a chunk at a time, and its rows' lengths read from their copy in the kernels' memory
  // (Segment.lens): postings are sorted by row and each adds to its own row, so the chunks sum
  // exactly as one call would.
  for (let si = 0; si < c.segs.length; si++) {
    const range = ranges[si];
    if (!range) continue;
    const s = c.segs[si];
    const region = c.segRegion[si];
    const lens = region === 0 ? s.ptr(body ? SEC.blen : SEC.tlen) : stagedLengths(c, si, body);
    const chunk = region === 0 ? range.count : SCAN.stagePostings;
    const base = c.rowBase[si];
    for (let at = 0; at < range.count; at += chunk) {
      const n = Math.min(chunk, range.count - at);
      const postings = postingsIn(kk, c.regions[region], region, range.ptr + 4 * at, n, c.stage);
      const listed = marks.listed + marked + added;
      added += kk.bm25AccumulateTouch(
        postings,
        n,
        s.nRows,
        lens,
        avg,
        k1f,
        bf,
        w,
        t.scores + 4 * base,
        marks.ptr + base,
        marks.list + 4 * listed,
        c.totalRows - listed,
        base,
      );
    }
  }
  return added;
}
