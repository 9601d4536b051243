// A scan of terms into score buffers over a snapshot's segments (corpus.ts SearchCorpus.scan): BM25
// of each term in each target field, over every row holding it, or, with marks, the terms not
// restricted first (marking and listing the rows they touch), then the restricted terms added to
// marked rows only, from their postings or from the listed rows' sequences (rows-scan.ts).
// Invariant: the rows a scan newly marks are listed after marks.listed, in the order met.
import { SCAN } from '../params.js';
import type { MemoryViews } from '../runtime/index.js';
import { type PostingRange, SEC } from '../segment/index.js';
import { type RowScanCorpus, scanByRows } from './rows-scan.js';
import type { ScanMarks, ScanTarget } from './types.js';

/** What a scan reads of the search corpus. */
export interface ScanCorpus extends RowScanCorpus {
  readonly totalRows: number;
  /** The region of each segment's image (0: the kernels' memory) and every region's views. */
  readonly segRegion: readonly number[];
  readonly regions: readonly MemoryViews[];
  readonly snapshot: ReadonlyArray<{ lens?: number; nRows: number }>;
  /** u32[SCAN.stagePostings] of the kernels' memory, for postings copied in from a region (0: none laid out) */
  readonly stage: number;
}

/**
 * For each target, scores += Σ weight_t · scale · bm25_field(t). Without marks every row holding a
 * term is scored. With marks, the terms not restricted are scanned first and mark the rows they
 * touch (u8 per global row), appending each row they newly mark to the marks' list; the restricted
 * terms then add to marked rows only. Returns how many rows it newly marked.
 */
export function scanTargets(
  c: ScanCorpus,
  targets: ScanTarget[],
  terms: ArrayLike<number>,
  weights: ArrayLike<number>,
  marks?: ScanMarks,
): number {
  const restricted = (i: number) => marks?.restrict?.[i] ?? false;
  let marked = 0;
  for (const phase of [false, true]) {
    for (const t of targets) {
      if (phase && marks && scanByRows(c, t, { terms, weights, restricted }, marks, marks.listed + marked)) continue;
      for (let i = 0; i < terms.length; i++)
        if (restricted(i) === phase)
          marked += scanTerm(c, t, terms[i], weights[i] * t.scale, phase ? 'marked' : marks ? 'touch' : 'all', marks, marked);
    }
  }
  return marked;
}

function scanTerm(
  c: ScanCorpus,
  t: ScanTarget,
  term: number,
  weight: number,
  how: 'all' | 'touch' | 'marked',
  marks: ScanMarks | undefined,
  marked: number,
): number {
  const { k1, b, k1Title, bTitle } = c.lexical;
  const body = t.field === 'body';
  const avg = Math.max(body ? c.stats.avgBody : c.stats.avgTitle, 1e-3);
  const w = weight * c.idf(term);
  if (w === 0) return 0;
  const kk = c.kernels;
  const ranges = c.ranges(t.field, term);
  const k1f = body ? k1 : k1Title;
  const bf = body ? b : bTitle;
  const mark = marks?.ptr ?? 0;
  let added = 0;
  // a plain loop and direct calls: this runs per term, field and segment of every hop, and allocates nothing
  for (let si = 0; si < c.segs.length; si++) {
    const range = ranges[si];
    if (!range) continue;
    const s = c.segs[si];
    const lens = s.ptr(body ? SEC.blen : SEC.tlen);
    const base = c.rowBase[si];
    const scores = t.scores + 4 * base;
    if (c.segRegion[si] !== 0) {
      added += scanStaged(c, si, range, body, [avg, k1f, bf, w], scores, how, marks, marked + added);
      continue;
    }
    if (how === 'all') kk.bm25Accumulate(range.ptr, range.count, s.nRows, lens, avg, k1f, bf, w, scores);
    else if (how === 'touch' && marks) {
      const listed = marks.listed + marked + added;
      const list = marks.list + 4 * listed;
      added += kk.bm25AccumulateTouch(
        range.ptr,
        range.count,
        s.nRows,
        lens,
        avg,
        k1f,
        bf,
        w,
        scores,
        mark + base,
        list,
        c.totalRows - listed,
        base,
      );
    } else kk.bm25AccumulateMarked(range.ptr, range.count, s.nRows, lens, avg, k1f, bf, w, scores, mark + base);
  }
  return added;
}

/**
 * scanTerm's work on a segment whose image lies past the kernels' memory: its postings copied into
 * the stage (SCAN.stagePostings at a time) and each chunk scanned by the same kernel, with the
 * rows' lengths from the copy in the kernels' memory (Segment.lens). Postings are sorted by row and
 * each adds to its own row, so the chunks sum exactly as one call would. Returns the rows newly marked.
 */
function scanStaged(
  c: ScanCorpus,
  si: number,
  range: PostingRange,
  body: boolean,
  [avg, k1, b, w]: [number, number, number, number],
  scores: number,
  how: 'all' | 'touch' | 'marked',
  marks: ScanMarks | undefined,
  marked: number,
): number {
  const kk = c.kernels;
  const s = c.segs[si];
  const lensBlock = c.snapshot[si].lens ?? 0;
  if (!lensBlock || !c.stage) throw new RangeError(`segment ${si} lies past the kernels' memory without its lengths or a stage`);
  const lens = lensBlock + (body ? 0 : 4 * s.nRows);
  const base = c.rowBase[si];
  const from = c.regions[c.segRegion[si]];
  const mark = (marks?.ptr ?? 0) + base;
  let added = 0;
  for (let at = 0; at < range.count; at += SCAN.stagePostings) {
    const n = Math.min(SCAN.stagePostings, range.count - at);
    kk.views.u32At(c.stage, n).set(from.u32At(range.ptr + 4 * at, n));
    if (how === 'all') kk.bm25Accumulate(c.stage, n, s.nRows, lens, avg, k1, b, w, scores);
    else if (how === 'touch' && marks) {
      const listed = marks.listed + marked + added;
      added += kk.bm25AccumulateTouch(
        c.stage,
        n,
        s.nRows,
        lens,
        avg,
        k1,
        b,
        w,
        scores,
        mark,
        marks.list + 4 * listed,
        c.totalRows - listed,
        base,
      );
    } else kk.bm25AccumulateMarked(c.stage, n, s.nRows, lens, avg, k1, b, w, scores, mark);
  }
  return added;
}
