// The per-search scratch of the hops (hops.ts), laid out in one block: f32 score buffers,
// the touched-row marks, list and gather buffers of touched-rows.ts (each per row of the snapshot),
// then the top-k lists, the rank histogram and the dense encoder's scratch. Serving (search-op.ts)
// and training (in-process.ts) lay it out the same way.

import { SCAN } from '../params.js';
import type { HopBuffers } from './types.js';

const align16 = (n: number) => (n + 15) & ~15;

/** Bytes of HopBuffers for `totalRows` rows, top-k lists of `topK` and a dense scratch of `denseBytes`. */
export function hopScratchBytes(totalRows: number, topK: number, denseBytes: number): number {
  const f = align16(4 * Math.max(totalRows, 1));
  const u8 = align16(Math.max(totalRows, 1));
  return 7 * f + 2 * u8 + 8 * topK + 4 * SCAN.histBins + denseBytes;
}

/** Lays HopBuffers out from `ptr` (a block of hopScratchBytes). */
export function hopBuffers(ptr: number, totalRows: number, topK: number): HopBuffers {
  const f = align16(4 * Math.max(totalRows, 1));
  const u8 = align16(Math.max(totalRows, 1));
  const at = (i: number) => ptr + i * f;
  const top = ptr + 7 * f + 2 * u8;
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
    topIdx: top,
    topScores: top + 4 * topK,
    hist: top + 8 * topK,
    dense: top + 8 * topK + 4 * SCAN.histBins,
  };
}
