// The per-search scratch of the hops (hops.ts), laid out in one block: f32 score buffers,
// the touched-row marks, list and gather buffers of touched-rows.ts (each per row of the snapshot),
// then the top-k lists (twice the largest k a search asks: a run of tied scores across the cut is
// fetched whole, hops.ts top), the rank histogram, the terms of a scan by rows (rows-scan.ts), the
// stages of postings copied in from an image past the kernels' memory (corpus-scan.ts; one per lane
// of a job spread over the workers, scan-segments.ts), a touching scan's counts (the rows each
// term listed in each segment, scan-segments.ts touchSegments), hop 1's scores at its rows
// (question-scan.ts known; room for as many rows as a sparse reduction takes) and the dense
// encoder's scratch. Serving (search-op.ts) and training (in-process.ts) lay it out the same way.
// A block is clean for a layout (cleanTag) when its six per-row buffers that a scan adds to or
// copies into (sBody, sTitle, s, s2, mark, mark2) are zero over their laid-out lengths: a search
// given such a block scans without zeroing them, and may hand it back clean (question-scan.ts).

import { SCAN, WORKERS } from '../params.js';
import type { HopBuffers } from './types.js';

const align16 = (n: number) => (n + 15) & ~15;

/** Bytes of each f32 row buffer and of each u8 mark buffer for `totalRows` rows (16-byte aligned). */
function rowSpans(totalRows: number): { f: number; u8: number } {
  return { f: align16(4 * Math.max(totalRows, 1)), u8: align16(Math.max(totalRows, 1)) };
}

/** Bytes of HopBuffers for `totalRows` rows, top-k lists of `topK` and a dense scratch of `denseBytes`. */
export function hopScratchBytes(totalRows: number, topK: number, denseBytes: number): number {
  return hopBuffers(0, totalRows, topK).dense + denseBytes;
}

/** The tag under which a block kept clean for `totalRows` rows is known (blocks of one layout share it). */
export function cleanTag(totalRows: number): string {
  const { f, u8 } = rowSpans(totalRows);
  return `hops/${f}/${u8}`;
}

/** Lays HopBuffers out from `ptr` (a block of hopScratchBytes), for top-k lists of up to `k` asked. */
export function hopBuffers(ptr: number, totalRows: number, k: number): HopBuffers {
  const { f, u8 } = rowSpans(totalRows);
  const at = (i: number) => ptr + i * f;
  const top = ptr + 7 * f + 2 * u8;
  const topK = 2 * k;
  const rowTerms = top + 8 * topK + 4 * SCAN.histBins;
  const stage = rowTerms + 12 * SCAN.rowScanTerms;
  const touchCounts = stage + 4 * SCAN.stagePostings * WORKERS.assist.lanes;
  const known = touchCounts + 4 * SCAN.touchCounts;
  const knownCap = Math.floor(Math.max(totalRows, 1) / SCAN.sparseShare);
  return {
    sBody: at(0),
    sTitle: at(1),
    s: at(2),
    s2: at(3),
    idx: at(4),
    g: at(5),
    g2: at(6),
    mark: ptr + 7 * f,
    mark2: ptr + 7 * f + u8,
    rowBytes: f,
    markBytes: u8,
    topIdx: top,
    topScores: top + 4 * topK,
    topCap: topK,
    hist: top + 8 * topK,
    rowTerms,
    stage,
    touchCounts,
    known,
    knownCap,
    dense: known + align16(4 * knownCap),
  };
}
