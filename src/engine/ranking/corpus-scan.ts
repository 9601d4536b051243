// A scan of terms into score buffers over a snapshot's segments (corpus.ts SearchCorpus.scan): BM25
// of each term in each target field, over every row holding it, or, with marks, the terms not
// restricted first (marking and listing the rows they touch), then the restricted terms added to
// marked rows only, from their postings or from the listed rows' sequences (rows-scan.ts).
// Invariant: the rows a scan newly marks are listed after marks.listed, in the order met.
import { SCAN } from '../params.js';
import type { MemoryViews } from '../runtime/index.js';
import { SEC } from '../segment/index.js';
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
    const scores = t.scores + 4 * base;
    for (let at = 0; at < range.count; at += chunk) {
      const n = Math.min(chunk, range.count - at);
      let postings = range.ptr + 4 * at;
      if (region !== 0) {
        kk.views.u32At(c.stage, n).set(c.regions[region].u32At(postings, n));
        postings = c.stage;
      }
      if (how === 'all') kk.bm25Accumulate(postings, n, s.nRows, lens, avg, k1f, bf, w, scores);
      else if (how === 'touch' && marks) {
        const listed = marks.listed + marked + added;
        const list = marks.list + 4 * listed;
        added += kk.bm25AccumulateTouch(postings, n, s.nRows, lens, avg, k1f, bf, w, scores, mark + base, list, c.totalRows - listed, base);
      } else kk.bm25AccumulateMarked(postings, n, s.nRows, lens, avg, k1f, bf, w, scores, mark + base);
    }
  }
  return added;
}

/** Where the rows' lengths of a segment past the kernels' memory lie in it (its body's, then its titles'), and that a stage is laid out. */
function stagedLengths(c: ScanCorpus, si: number, body: boolean): number {
  const lens = c.snapshot[si].lens ?? 0;
  if (!lens || !c.stage) throw new RangeError(`segment ${si} lies past the kernels' memory without its lengths or a stage`);
  return lens + (body ? 0 : 4 * c.segs[si].nRows);
}
