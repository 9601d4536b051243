// The `scan` op: dense int8 scan of a row range plus top-k, tiled so the
// per-tile scores stay in L1/L2, and its main-thread helper.
// Invariants: rows, scales and flags are indexed by absolute row id (row 0 at
// `rows`); the op reads only [rowStart, rowEnd) of them, writes only inside its
// scratch block (scanScratchBytes(k) bytes) and returns copies, so the caller
// may free the query and scratch as soon as the task settled.

import { WORKERS } from '../params.js';
import { KernelBoundsError } from './errors.js';
import { alignUp } from './free-list.js';
import type { WasmKernels } from './kernels.js';
import type { OpContext } from './op-registry.js';
import type { EnginePool } from './pool.js';
import type { ScanArgs, ScanRequest, ScanResult } from './types.js';

export function scanScratchBytes(k: number): number {
  return WORKERS.scanTileRows * 4 + 2 * alignUp(k * 4);
}

function int(what: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new KernelBoundsError(`scan: ${what} must be a non-negative integer, got ${String(v)}`);
  }
  return v;
}

/** Runs the scan with the given kernels (in a worker, or inline on the main thread). */
export function scanRange(kernels: WasmKernels, a: ScanArgs): ScanResult {
  const dim = int('dim', a.dim),
    k = int('k', a.k),
    start = int('rowStart', a.rowStart),
    end = int('rowEnd', a.rowEnd);
  const rows = int('rows', a.rows),
    scales = int('scales', a.scales),
    q = int('q', a.q);
  const flags = int('flags', a.flags ?? 0),
    scratch = int('scratch', a.scratch);
  if (end < start) throw new KernelBoundsError(`scan: rowEnd ${end} is below rowStart ${start}`);
  const alpha = a.alpha ?? 1;
  kernels.views.check('scan scratch', scratch, scanScratchBytes(k) / 4, 4);
  const tile = scratch;
  const heapIdx = scratch + WORKERS.scanTileRows * 4;
  const heapScores = heapIdx + alignUp(k * 4);
  let count = 0;
  for (let r = start; k > 0 && r < end; r += WORKERS.scanTileRows) {
    const n = Math.min(WORKERS.scanTileRows, end - r);
    kernels.dotI8Rows(rows + r * dim, n, dim, q, scales + r * 4, alpha, 0, tile);
    if (flags !== 0) kernels.maskDead(tile, n, flags + r);
    count = kernels.topkPush(tile, n, r, k, heapIdx, heapScores, count);
  }
  kernels.topkSort(heapIdx, heapScores, count);
  return { ids: kernels.views.readU32(heapIdx, count), scores: kernels.views.readF32(heapScores, count) };
}

export function scanOp(ctx: OpContext, args: ScanArgs): ScanResult {
  return scanRange(ctx.kernels, args);
}

/** Main thread: copies the query into shared memory, runs `scan` in the pool, frees the scratch. */
export async function scanTopK(pool: EnginePool, req: ScanRequest): Promise<ScanResult> {
  const { query, ...rest } = req;
  if (query.length !== req.dim) throw new KernelBoundsError(`scan: query has ${query.length} dims, expected ${req.dim}`);
  const qBytes = alignUp(query.length);
  const block = pool.heap.alloc(qBytes + scanScratchBytes(int('k', req.k)));
  try {
    pool.heap.views.write(block, query);
    return await pool.run<ScanResult>('scan', { ...rest, q: block, scratch: block + qBytes });
  } finally {
    pool.heap.free(block);
  }
}
