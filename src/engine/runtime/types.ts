// The types of the engine runtime: what the worker pool hands each worker and each task, what an op
// receives, the heap's options and statistics, the runtime a main thread bootstraps, the kernels'
// raw exports, errors as they cross threads, and the dense scan op's arguments.

/** What each worker receives in workerData. */
export interface EngineWorkerData {
  module: WebAssembly.Module;
  /** Plain data every worker needs besides the kernels (e.g. the model descriptor). */
  shared?: unknown;
  /** The board of jobs the workers spread over each other (assist.ts createAssistBuffer). */
  assist?: SharedArrayBuffer;
}

export interface TaskEnvelope {
  op: string;
  args: unknown;
  /** the heap's generation and memory (a worker's kernels follow them: adopt.ts) */
  gen: number;
  memory: WebAssembly.Memory;
  /** the memories of the regions past the main one (regions.ts), in order: only ever added to */
  regions: WebAssembly.Memory[];
}

export type TaskReply = { ok: true; value: unknown } | { ok: false; error: WireError };

/** The native helper's call (page-discard.ts): drops the whole pages inside [start, end) of `view`; returns the bytes given back. */
export type PageDiscard = (view: Uint8Array, start: number, end: number) => number;

/**
 * The native helper's call (native/pages.c): asks that the whole 2 MiB pages inside [start, end) of
 * `view` be backed by huge pages (`on`), or no longer; returns the bytes advised.
 */
export type HugePages = (view: Uint8Array, start: number, end: number, on: boolean) => number;

export interface HeapOptions {
  /** First usable byte (the kernels' heap_base()); rounded up to 16. */
  heapBase: number;
  /** Cap on the memory size, rounded down to whole pages; default 4 GiB. */
  maxBytes?: number;
  /** The native helper that drops free pages (page-discard.ts); without it, none are dropped. */
  discard?: PageDiscard;
  /** The native helper's huge-page advice, for blocks of MEMORY.hugePagesFrom bytes or more; without it, none. */
  hugePages?: HugePages;
}

export interface HeapStats {
  /** Bytes in live blocks, including retired blocks still awaiting reclamation. */
  bytesInUse: number;
  bytesRetired: number;
  /** Bytes in free-list holes below the bump pointer. */
  bytesFree: number;
  liveBlocks: number;
  retiredBlocks: number;
  outstandingPins: number;
  top: number;
  capacity: number;
  maxBytes: number;
  /** Bytes of free pages given back to the system so far (discardIdle). */
  bytesDiscarded: number;
  /** Bytes of ended task scratch kept live for the next task (freeScratch). */
  bytesScratchKept: number;
}

/** Raw kernel exports; pointers are byte offsets, all arguments unchecked. */
export interface KernelExports {
  heap_base(): number;
  dot_i8_rows(rows: number, nRows: number, dim: number, q: number, scales: number, alpha: number, beta: number, out: number): void;
  dot_i8_gather(
    rows: number,
    dim: number,
    ids: number,
    nIds: number,
    q: number,
    scales: number,
    alpha: number,
    beta: number,
    out: number,
  ): void;
  dot_f32_rows(rows: number, nRows: number, dim: number, q: number, alpha: number, beta: number, out: number): void;
  gemv_f32(W: number, rows: number, cols: number, x: number, y: number): void;
  topk(scores: number, n: number, k: number, outIdx: number, outScores: number): number;
  topk_keyed(scores: number, keys: number, n: number, k: number, outIdx: number, outScores: number): number;
  topk_push(scores: number, n: number, base: number, k: number, hIdx: number, hScores: number, count: number): number;
  topk_sort(hIdx: number, hScores: number, count: number): void;
  pool_f32(table: number, dim: number, ids: number, weights: number, n: number, out: number): void;
  pool_i8(table: number, rowScales: number, dim: number, ids: number, weights: number, n: number, out: number): void;
  l2_normalize(v: number, dim: number): number;
  quantize_i8(src: number, dim: number, dst: number): number;
  axpy_f32(n: number, a: number, x: number, y: number): void;
  fill_bytes(dst: number, value: number, n: number): void;
  copy_bytes(dst: number, src: number, n: number): void;
  count_above(scores: number, n: number, v: number): number;
  max_f32(scores: number, n: number): number;
  histogram_f32(scores: number, n: number, lo: number, hi: number, bins: number, out: number): void;
  max_diff_f32(a: number, b: number, n: number): number;
  bm25_accumulate(
    postings: number,
    n: number,
    rowLimit: number,
    docLen: number,
    avgLen: number,
    k1: number,
    b: number,
    weight: number,
    scores: number,
  ): void;
  bm25_accumulate_touch(
    postings: number,
    n: number,
    rowLimit: number,
    docLen: number,
    avgLen: number,
    k1: number,
    b: number,
    weight: number,
    scores: number,
    mark: number,
    list: number,
    cap: number,
    rowBase: number,
  ): number;
  bm25_accumulate_marked(
    postings: number,
    n: number,
    rowLimit: number,
    docLen: number,
    avgLen: number,
    k1: number,
    b: number,
    weight: number,
    scores: number,
    mark: number,
  ): void;
  bm25_accumulate_rows(
    rows: number,
    n: number,
    lo: number,
    hi: number,
    seqStart: number,
    seq: number,
    seqLength: number,
    terms: number,
    weights: number,
    k: number,
    counts: number,
    docLen: number,
    avgLen: number,
    k1: number,
    b: number,
    scores: number,
  ): void;
  bm25_accumulate_rows_coded(
    rows: number,
    n: number,
    lo: number,
    hi: number,
    seqAt: number,
    codes: number,
    codesLength: number,
    keys: number,
    nKeys: number,
    terms: number,
    weights: number,
    k: number,
    counts: number,
    docLen: number,
    avgLen: number,
    k1: number,
    b: number,
    scores: number,
  ): void;
  copy_rows_f32(dst: number, src: number, rows: number, n: number, limit: number): void;
  copy_rows_u8(dst: number, src: number, rows: number, n: number, limit: number): void;
  gather_f32(src: number, srcLength: number, idx: number, n: number, dst: number): void;
  mask_dead(scores: number, n: number, flags: number): void;
  mask_rows(scores: number, rows: number, n: number, lo: number, hi: number, flags: number): void;
  put_back_rows(scores: number, marks: number, rows: number, now: number, was: number, kept: number, n: number, limit: number): void;
  sum_rows_f32(dst: number, a: number, b: number, w: number, rows: number, n: number, limit: number): void;
  zero_rows(dst: number, rows: number, n: number, limit: number, width: number): void;
}

export interface WireError {
  name: string;
  message: string;
  code?: string;
  stack?: string;
}

export interface ScanArgs {
  /** Byte offset of row 0 of the int8 matrix (row-major, `dim` bytes per row). */
  rows: number;
  dim: number;
  /** Half-open range of absolute row ids to scan. */
  rowStart: number;
  rowEnd: number;
  /** f32 per-row scales, indexed by absolute row id. */
  scales: number;
  /** int8 query of `dim` bytes. */
  q: number;
  /** Query scale (default 1): score = alpha * scales[row] * dot(row, q). */
  alpha?: number;
  k: number;
  /** Optional u8 per-row dead flags (absolute row ids); 0 = none. */
  flags?: number;
  /** Block of at least scanScratchBytes(k) bytes, 4-aligned. */
  scratch: number;
}

export interface ScanResult {
  /** Absolute row ids, best first. */
  ids: Uint32Array;
  scores: Float32Array;
}

export interface ScanRequest extends Omit<ScanArgs, 'q' | 'scratch'> {
  query: Int8Array;
}
