// A scan's terms run segment by segment, each segment a unit of an assist job (runtime/assist.ts):
// a search whose scan reads many postings spreads its segments over an idle worker. Three kinds of
// job: terms added to every row holding them, to the marked rows only, or touching (added, and
// the rows they newly mark listed). The job's payload holds everything a unit reads: the segments'
// rows, regions and lengths, each call's field, weight and BM25 parameters, and each call's
// postings in each segment.
// Invariants: a unit writes only its segment's rows of the score and mark buffers (and, touching,
// of the scratch list), and adds the calls in the order given, so every row's sum is made in the
// order a scan alone makes it (the same floats whichever thread runs which segment); a touching
// job's lists are stitched call by call, segment by segment: the order one thread meets the rows.
// A lane copies a region's postings into its own stage.

import { SCAN } from '../params.js';
import { type AssistKind, type MemoryViews, type OpContext, runAlone, type WasmKernels } from '../runtime/index.js';
import { SEC } from '../segment/index.js';
import type { RowScanCorpus } from './rows-scan.js';
import type { TouchScratch } from './types.js';

/** What a scan reads of the search corpus. */
export interface ScanCorpus extends RowScanCorpus {
  readonly totalRows: number;
  /** The region of each segment's image (0: the kernels' memory) and every region's views. */
  readonly segRegion: readonly number[];
  readonly regions: readonly MemoryViews[];
  readonly snapshot: ReadonlyArray<{ lens?: number; nRows: number }>;
  /** u32[SCAN.stagePostings] per lane of an assist job (HopBuffers.stage), in the kernels' memory, for postings copied in from a region (0: none laid out) */
  readonly stage: number;
  /** How a scan's segments are spread over idle workers (runtime/assist.ts; none: this thread alone), and from how many postings. */
  readonly assist?: OpContext['assist'];
  readonly spreadPostings: number;
}

/** One term of a scan in one field: what it adds and where (its postings per segment: ranges). */
export interface SegmentCall {
  body: boolean;
  /** weight · scale · idf */
  w: number;
  scores: number;
  ranges: ReadonlyArray<{ ptr: number; count: number } | undefined>;
}

const HEAD = 6;
const SEG = 5;
const CALL = 6;

/**
 * Adds every call to the rows of every segment (`mark` 0), or to the rows marked in `mark` only,
 * spreading the segments over an idle worker when the postings are many.
 */
export function scanSegments(c: ScanCorpus, calls: SegmentCall[], mark: number): void {
  runJob(c, calls, mark, undefined);
}

/**
 * Adds every call to the rows holding it and marks them in `marks.ptr`, listing each row it newly
 * marks after list[0..listed) in the order one thread would (call by call, segment by segment);
 * returns how many it listed, or undefined (nothing done) when `scratch` has no room for the
 * calls' counts. Spread over an idle worker when the postings are many.
 */
export function touchSegments(
  c: ScanCorpus,
  calls: SegmentCall[],
  marks: { ptr: number; list: number },
  listed: number,
  scratch: TouchScratch,
): number | undefined {
  const nSegs = c.segs.length;
  if (calls.length * nSegs > SCAN.touchCounts) return undefined;
  if (!runJob(c, calls, marks.ptr, scratch)) return 0;
  // stitch each segment's lists into the marks' list, call by call, segment by segment
  const u32 = c.kernels.views.u32;
  const counts = c.kernels.views.u32At(scratch.counts, calls.length * nSegs);
  const at = new Array<number>(nSegs).fill(0);
  let to = marks.list / 4 + listed;
  for (let ci = 0; ci < calls.length; ci++)
    for (let si = 0; si < nSegs; si++) {
      const n = counts[ci * nSegs + si];
      if (n === 0) continue;
      const from = scratch.list / 4 + c.rowBase[si] + at[si];
      u32.copyWithin(to, from, from + n);
      at[si] += n;
      to += n;
    }
  return to - (marks.list / 4 + listed);
}

/**
 * Whether a job of `postings` is spread over an idle worker: with a board and two segments or more,
 * from c.spreadPostings on, a touching job's postings counting SCAN.touchSpreadCost each.
 */
export function spreads(
  c: { readonly assist?: unknown; readonly segs: ArrayLike<unknown>; readonly spreadPostings: number },
  postings: number,
  touching: boolean,
): boolean {
  return c.assist !== undefined && c.segs.length >= 2 && postings * (touching ? SCAN.touchSpreadCost : 1) >= c.spreadPostings;
}

/** Runs the calls over every segment (spread when spreads() says); false when there was nothing to read. */
function runJob(c: ScanCorpus, calls: SegmentCall[], mark: number, touch: TouchScratch | undefined): boolean {
  if (calls.length === 0) return false;
  const nSegs = c.segs.length;
  let postings = 0;
  for (const call of calls) for (const r of call.ranges) postings += r?.count ?? 0;
  if (postings === 0) return false;
  const size = HEAD + SEG * nSegs + calls.length * (CALL + 2 * nSegs);
  const write = (p: Float64Array) => writePayload(c, calls, mark, touch, p);
  if (c.assist && spreads(c, postings, touch !== undefined)) c.assist.spread(SEGMENT_SCAN, nSegs, size, write);
  else runAlone({ kernels: c.kernels, regions: [...c.regions] }, SEGMENT_SCAN, nSegs, size, write);
  return true;
}

function writePayload(c: ScanCorpus, calls: SegmentCall[], mark: number, touch: TouchScratch | undefined, p: Float64Array): void {
  const nSegs = c.segs.length;
  const { k1, b, k1Title, bTitle } = c.lexical;
  p[0] = calls.length;
  p[1] = nSegs;
  p[2] = c.stage;
  p[3] = mark;
  p[4] = touch?.list ?? 0;
  p[5] = touch?.counts ?? 0;
  for (let si = 0; si < nSegs; si++) {
    const at = HEAD + SEG * si;
    const region = c.segRegion[si];
    const s = c.segs[si];
    p[at] = s.nRows;
    p[at + 1] = region;
    p[at + 2] = region === 0 ? s.ptr(SEC.blen) : stagedLengths(c, si, true);
    p[at + 3] = region === 0 ? s.ptr(SEC.tlen) : stagedLengths(c, si, false);
    p[at + 4] = c.rowBase[si];
  }
  const calls0 = HEAD + SEG * nSegs;
  const ranges0 = calls0 + CALL * calls.length;
  calls.forEach((call, ci) => {
    const at = calls0 + CALL * ci;
    p[at] = call.body ? 1 : 0;
    p[at + 1] = call.w;
    p[at + 2] = Math.max(call.body ? c.stats.avgBody : c.stats.avgTitle, 1e-3);
    p[at + 3] = call.body ? k1 : k1Title;
    p[at + 4] = call.body ? b : bTitle;
    p[at + 5] = call.scores;
    for (let si = 0; si < nSegs; si++) {
      const r = call.ranges[si];
      p[ranges0 + 2 * (ci * nSegs + si)] = r?.ptr ?? 0;
      p[ranges0 + 2 * (ci * nSegs + si) + 1] = r?.count ?? 0;
    }
  });
}

/**
 * Segment `si` of a job: every call's postings there, in order, into its rows: to every row
 * holding them, to the marked rows only, or (a touching job) marking the rows and listing those
 * newly marked in the segment's own rows of the job's list, with how many each call listed.
 */
function segmentUnit(ctx: OpContext, p: Float64Array, si: number, lane: number): void {
  const kk = ctx.kernels;
  const nCalls = p[0];
  const nSegs = p[1];
  const stage = p[2] + 4 * lane * SCAN.stagePostings;
  const mark = p[3];
  const list = p[4];
  const seg = HEAD + SEG * si;
  const nRows = p[seg];
  const region = p[seg + 1];
  const base = p[seg + 4];
  const views = ctx.regions[region];
  const calls0 = HEAD + SEG * nSegs;
  const ranges0 = calls0 + CALL * nCalls;
  const counts = list ? kk.views.u32At(p[5], nCalls * nSegs) : undefined;
  let listed = 0;
  for (let ci = 0; ci < nCalls; ci++) {
    const count = p[ranges0 + 2 * (ci * nSegs + si) + 1];
    let added = 0;
    const ptr = p[ranges0 + 2 * (ci * nSegs + si)];
    const at = calls0 + CALL * ci;
    const lens = p[at] === 1 ? p[seg + 2] : p[seg + 3];
    const scores = p[at + 5] + 4 * base;
    const chunk = region === 0 ? count : SCAN.stagePostings;
    for (let from = 0; from < count; from += chunk) {
      const n = Math.min(chunk, count - from);
      const postings = postingsIn(kk, views, region, ptr + 4 * from, n, stage);
      if (list) {
        const into = list + 4 * (base + listed + added);
        added += kk.bm25AccumulateTouch(
          postings,
          n,
          nRows,
          lens,
          p[at + 2],
          p[at + 3],
          p[at + 4],
          p[at + 1],
          scores,
          mark + base,
          into,
          nRows - listed - added,
          base,
        );
      } else if (mark === 0) kk.bm25Accumulate(postings, n, nRows, lens, p[at + 2], p[at + 3], p[at + 4], p[at + 1], scores);
      else kk.bm25AccumulateMarked(postings, n, nRows, lens, p[at + 2], p[at + 3], p[at + 4], p[at + 1], scores, mark + base);
    }
    if (counts) counts[ci * nSegs + si] = added;
    listed += added;
  }
}

/** The job's kind, registered by every worker (worker.ts). */
export const SEGMENT_SCAN: AssistKind = { name: 'scan-segments', unit: segmentUnit };

/**
 * Where the kernels read `n` postings at `ptr` of a segment's region: in place in the kernels'
 * memory (region 0), else copied into `stage` (u32[SCAN.stagePostings] of the kernels' memory).
 */
export function postingsIn(kk: WasmKernels, views: MemoryViews, region: number, ptr: number, n: number, stage: number): number {
  if (region === 0) return ptr;
  kk.views.u32At(stage, n).set(views.u32At(ptr, n));
  return stage;
}

/** Where the rows' lengths of a segment past the kernels' memory lie in it (its body's, then its titles'), and that a stage is laid out. */
export function stagedLengths(c: ScanCorpus, si: number, body: boolean): number {
  const lens = c.snapshot[si].lens ?? 0;
  if (!lens || !c.stage) throw new RangeError(`segment ${si} lies past the kernels' memory without its lengths or a stage`);
  return lens + (body ? 0 : 4 * c.segs[si].nRows);
}
