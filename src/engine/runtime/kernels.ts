// Checked TypeScript wrappers over the WebAssembly kernels (main thread and workers).
// Invariants: every wrapper validates all of its arguments (integer ranges,
// finite scalars, each pointer span inside memory and element-aligned, every
// row id below the table's row count) and throws KernelBoundsError (a
// RangeError) before calling the kernel, which itself checks nothing. Spans are
// sized from the arguments: the caller owns the blocks they point into.
// One class with one checked wrapper per kernel export, so longer than the house's ~400 lines.

import { KernelBoundsError } from './errors.js';
import { instantiateRaw } from './module.js';
import type { KernelExports } from './types.js';
import { MAX_I32, MemoryViews } from './views.js';

/** Largest dim for int8 dots: keeps the i32 accumulator exact (dim * 128 * 128 < 2^31). */
export const MAX_I8_DIM = 65536;
/** Postings pack row << 8 | tf in a u32, so rows are below 2^24. */
export const MAX_POSTING_ROWS = 1 << 24;

function int(what: string, v: number, min = 0, max = MAX_I32): void {
  if (!Number.isSafeInteger(v) || v < min || v > max) {
    throw new KernelBoundsError(`${what} must be an integer in [${min}, ${max}], got ${v}`);
  }
}

function finite(what: string, v: number, min = -Infinity, max = Infinity): void {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw new KernelBoundsError(`${what} must be a finite number in [${min}, ${max}], got ${v}`);
  }
}

export class WasmKernels {
  readonly views: MemoryViews;
  private readonly k: KernelExports;

  constructor(
    module: WebAssembly.Module,
    readonly memory: WebAssembly.Memory,
  ) {
    this.k = instantiateRaw(module, memory);
    this.views = new MemoryViews(memory);
  }

  /** First byte past the module's static data. */
  get heapBase(): number {
    return this.k.heap_base();
  }

  private span(what: string, ptr: number, count: number, elemBytes: number): void {
    this.views.check(what, ptr, count, elemBytes);
  }

  private ids(what: string, ids: number, n: number, nRows: number): void {
    this.span(what, ids, n, 4);
    const v = this.views.u32At(ids, n);
    for (let i = 0; i < n; i++) {
      if (v[i] >= nRows) throw new KernelBoundsError(`${what}[${i}] = ${v[i]} is not below the table's ${nRows} rows`);
    }
  }

  /** out[i] = beta*out[i] + alpha*scales[i]*dot(rows[i], q) over int8 rows (out not read when beta == 0). */
  dotI8Rows(rows: number, nRows: number, dim: number, q: number, scales: number, alpha: number, beta: number, out: number): void {
    int('nRows', nRows);
    int('dim', dim, 0, MAX_I8_DIM);
    finite('alpha', alpha);
    finite('beta', beta);
    this.span('rows', rows, nRows * dim, 1);
    this.span('q', q, dim, 1);
    this.span('scales', scales, nRows, 4);
    this.span('out', out, nRows, 4);
    this.k.dot_i8_rows(rows, nRows, dim, q, scales, alpha, beta, out);
  }

  /** Same over the rows listed in ids (each < nRows); out[j] is for ids[j], scales indexed by row. */
  dotI8Gather(
    rows: number,
    nRows: number,
    dim: number,
    ids: number,
    nIds: number,
    q: number,
    scales: number,
    alpha: number,
    beta: number,
    out: number,
  ): void {
    int('nRows', nRows);
    int('dim', dim, 0, MAX_I8_DIM);
    int('nIds', nIds);
    finite('alpha', alpha);
    finite('beta', beta);
    this.span('rows', rows, nRows * dim, 1);
    this.span('q', q, dim, 1);
    this.span('scales', scales, nRows, 4);
    this.span('out', out, nIds, 4);
    this.ids('ids', ids, nIds, nRows);
    this.k.dot_i8_gather(rows, dim, ids, nIds, q, scales, alpha, beta, out);
  }

  /** out[i] = beta*out[i] + alpha*dot(rows[i], q) over f32 rows. */
  dotF32Rows(rows: number, nRows: number, dim: number, q: number, alpha: number, beta: number, out: number): void {
    int('nRows', nRows);
    int('dim', dim);
    finite('alpha', alpha);
    finite('beta', beta);
    this.span('rows', rows, nRows * dim, 4);
    this.span('q', q, dim, 4);
    this.span('out', out, nRows, 4);
    this.k.dot_f32_rows(rows, nRows, dim, q, alpha, beta, out);
  }

  /** y = W x, W row-major rows x cols. */
  gemvF32(W: number, rows: number, cols: number, x: number, y: number): void {
    int('rows', rows);
    int('cols', cols);
    this.span('W', W, rows * cols, 4);
    this.span('x', x, cols, 4);
    this.span('y', y, rows, 4);
    this.k.gemv_f32(W, rows, cols, x, y);
  }

  /** y += a x over n floats. */
  axpyF32(n: number, a: number, x: number, y: number): void {
    int('n', n);
    finite('a', a);
    this.span('x', x, n, 4);
    this.span('y', y, n, 4);
    this.k.axpy_f32(n, a, x, y);
  }

  /** bytes[dst, dst + n) = value: one bulk fill (a typed array's fill over shared memory stores byte by byte). */
  fillBytes(dst: number, n: number, value = 0): void {
    int('n', n);
    int('value', value, 0, 255);
    this.span('dst', dst, n, 1);
    this.k.fill_bytes(dst, value, n);
  }

  /** bytes[dst, dst + n) = bytes[src, src + n) (the ranges may overlap): one bulk copy. */
  copyBytes(dst: number, src: number, n: number): void {
    int('n', n);
    this.span('dst', dst, n, 1);
    this.span('src', src, n, 1);
    this.k.copy_bytes(dst, src, n);
  }

  /** How many of scores[0..n) are strictly greater than v (the 0-based rank of v). */
  countAbove(scores: number, n: number, v: number): number {
    int('n', n);
    this.span('scores', scores, n, 4);
    return this.k.count_above(scores, n, v);
  }

  /** Largest of scores[0..n) (-Infinity when n is 0). */
  maxF32(scores: number, n: number): number {
    int('n', n);
    this.span('scores', scores, n, 4);
    return this.k.max_f32(scores, n);
  }

  /** Counts scores[0..n) into `bins` equal-width bins over [lo, hi) (u32 out; below lo not counted, >= hi in the last bin). */
  histogramF32(scores: number, n: number, lo: number, hi: number, bins: number, out: number): void {
    int('n', n);
    int('bins', bins);
    finite('lo', lo);
    finite('hi', hi);
    this.span('scores', scores, n, 4);
    this.span('out', out, bins, 4);
    this.k.histogram_f32(scores, n, lo, hi, bins, out);
  }

  /** Largest a[i] - b[i] over [0, n) (-Infinity when n is 0). */
  maxDiffF32(a: number, b: number, n: number): number {
    int('n', n);
    this.span('a', a, n, 4);
    this.span('b', b, n, 4);
    return this.k.max_diff_f32(a, b, n);
  }

  /** Best k scores (NaN and -Infinity skipped), best first, ties to the lower index; returns the count (<= min(k, n)). */
  topk(scores: number, n: number, k: number, outIdx: number, outScores: number): number {
    this.topkArgs(scores, n, k, outIdx, outScores);
    return this.k.topk(scores, n, k, outIdx, outScores);
  }

  /**
   * Best k of scores[0..n), entry i standing for keys[i]: the keys into outIdx, best first, ties to
   * the lower key (topk over a buffer indexed by key, whatever the keys' order).
   */
  topkKeyed(scores: number, keys: number, n: number, k: number, outIdx: number, outScores: number): number {
    this.topkArgs(scores, n, k, outIdx, outScores);
    this.span('keys', keys, n, 4);
    return this.k.topk_keyed(scores, keys, n, k, outIdx, outScores);
  }

  private topkArgs(scores: number, n: number, k: number, outIdx: number, outScores: number): void {
    int('n', n);
    int('k', k);
    const m = Math.min(k, n);
    this.span('scores', scores, n, 4);
    this.span('outIdx', outIdx, m, 4);
    this.span('outScores', outScores, m, 4);
  }

  /** Offers scores[i] as index base+i to a k-slot heap holding `count` entries; returns the new count. */
  topkPush(scores: number, n: number, base: number, k: number, heapIdx: number, heapScores: number, count: number): number {
    int('n', n);
    int('k', k);
    int('count', count, 0, k);
    int('base', base, 0, 2 ** 32 - n);
    this.span('scores', scores, n, 4);
    this.span('heapIdx', heapIdx, k, 4);
    this.span('heapScores', heapScores, k, 4);
    return this.k.topk_push(scores, n, base >>> 0, k, heapIdx, heapScores, count);
  }

  /** Sorts a heap filled by topkPush, best first. */
  topkSort(heapIdx: number, heapScores: number, count: number): void {
    int('count', count);
    this.span('heapIdx', heapIdx, count, 4);
    this.span('heapScores', heapScores, count, 4);
    this.k.topk_sort(heapIdx, heapScores, count);
  }

  /** out = sum_i weights[i] * table[ids[i]] over an f32 table of nRows x dim. */
  poolF32(table: number, nRows: number, dim: number, ids: number, weights: number, n: number, out: number): void {
    int('nRows', nRows);
    int('dim', dim);
    int('n', n);
    this.span('table', table, nRows * dim, 4);
    this.span('weights', weights, n, 4);
    this.span('out', out, dim, 4);
    this.ids('ids', ids, n, nRows);
    this.k.pool_f32(table, dim, ids, weights, n, out);
  }

  /** Same over an int8 table with per-row scales. */
  poolI8(table: number, rowScales: number, nRows: number, dim: number, ids: number, weights: number, n: number, out: number): void {
    int('nRows', nRows);
    int('dim', dim);
    int('n', n);
    this.span('table', table, nRows * dim, 1);
    this.span('rowScales', rowScales, nRows, 4);
    this.span('weights', weights, n, 4);
    this.span('out', out, dim, 4);
    this.ids('ids', ids, n, nRows);
    this.k.pool_i8(table, rowScales, dim, ids, weights, n, out);
  }

  /** Normalises v in place; returns its previous L2 norm (a zero vector stays zero). */
  l2Normalize(v: number, dim: number): number {
    int('dim', dim);
    this.span('v', v, dim, 4);
    return this.k.l2_normalize(v, dim);
  }

  /** dst = round(src / scale) in [-127, 127]; returns scale = max|src|/127 (0 for a zero vector). */
  quantizeI8(src: number, dim: number, dst: number): number {
    int('dim', dim);
    this.span('src', src, dim, 4);
    this.span('dst', dst, dim, 1);
    return this.k.quantize_i8(src, dim, dst);
  }

  /** Adds BM25 contributions of sorted postings (row << 8 | tf) with row < rowLimit into scores. */
  bm25Accumulate(
    postings: number,
    n: number,
    rowLimit: number,
    docLen: number,
    avgLen: number,
    k1: number,
    b: number,
    weight: number,
    scores: number,
  ): void {
    this.bm25Args(postings, n, rowLimit, docLen, avgLen, k1, b, weight, scores);
    this.k.bm25_accumulate(postings, n, rowLimit, docLen, avgLen, k1, b, weight, scores);
  }

  /**
   * bm25Accumulate that also sets mark[row] = 1 on every row it touches (u8 marks of rowLimit) and
   * writes the rows it newly marks, as rowBase + row, to list (u32, in the order met, at most `cap`;
   * the entry after the last may be overwritten); returns how many it newly marked.
   */
  bm25AccumulateTouch(
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
  ): number {
    this.bm25Args(postings, n, rowLimit, docLen, avgLen, k1, b, weight, scores);
    this.span('mark', mark, rowLimit, 1);
    int('cap', cap);
    int('rowBase', rowBase, 0, 2 ** 32 - 1 - rowLimit);
    this.span('list', list, cap, 4);
    return this.k.bm25_accumulate_touch(postings, n, rowLimit, docLen, avgLen, k1, b, weight, scores, mark, list, cap, rowBase);
  }

  /** bm25Accumulate into the rows with mark[row] != 0 only. */
  bm25AccumulateMarked(
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
  ): void {
    this.bm25Args(postings, n, rowLimit, docLen, avgLen, k1, b, weight, scores);
    this.span('mark', mark, rowLimit, 1);
    this.k.bm25_accumulate_marked(postings, n, rowLimit, docLen, avgLen, k1, b, weight, scores, mark);
  }

  /** dst[r] = src[r] (f32) for the n rows r listed in `rows` that are below `limit` (the others skipped). */
  copyRowsF32(dst: number, src: number, rows: number, n: number, limit: number): void {
    this.rowCopyArgs(rows, n, limit);
    this.span('dst', dst, limit, 4);
    this.span('src', src, limit, 4);
    this.k.copy_rows_f32(dst, src, rows, n, limit >>> 0);
  }

  /**
   * Puts a later scan's rows back (rows r below `limit`; the others skipped): for i < kept,
   * scores[r] = was[i] where now[i] (the scores gathered at the rows) differs from it bit for bit;
   * for kept <= i < n, scores[r] = 0 and marks[r] = 0 (scores f32, marks u8 per row; rows u32[n]; now, was f32[kept]).
   */
  putBackRows(scores: number, marks: number, rows: number, now: number, was: number, kept: number, n: number, limit: number): void {
    this.rowCopyArgs(rows, n, limit);
    int('kept', kept, 0, n);
    this.span('scores', scores, limit, 4);
    this.span('marks', marks, limit, 1);
    this.span('now', now, kept, 4);
    this.span('was', was, kept, 4);
    this.k.put_back_rows(scores, marks, rows, now, was, kept, n, limit >>> 0);
  }

  /** The same over u8 elements. */
  copyRowsU8(dst: number, src: number, rows: number, n: number, limit: number): void {
    this.rowCopyArgs(rows, n, limit);
    this.span('dst', dst, limit, 1);
    this.span('src', src, limit, 1);
    this.k.copy_rows_u8(dst, src, rows, n, limit >>> 0);
  }

  /**
   * bm25AccumulateMarked for k terms at once from the rows' term sequences: for r = rows[i], i < n,
   * lo <= r < hi, each term's count in seq[seqStart[r - lo] .. seqStart[r - lo + 1]) (a segment's
   * sequences, read no further than seqLength; counts: u32[k] scratch) adds its BM25 with
   * weights[j] to scores[r - lo].
   */
  bm25AccumulateRows(
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
  ): void {
    this.rowScanArgs(rows, n, lo, hi, terms, weights, k, counts, docLen, avgLen, k1, b, scores);
    int('seqLength', seqLength);
    this.span('seqStart', seqStart, hi - lo + 1, 4);
    this.span('seq', seq, seqLength, 4);
    this.k.bm25_accumulate_rows(
      rows,
      n,
      lo >>> 0,
      hi >>> 0,
      seqStart,
      seq,
      seqLength >>> 0,
      terms,
      weights,
      k,
      counts,
      docLen,
      avgLen,
      k1,
      b,
      scores,
    );
  }

  /** The checks both row scans make of the rows, terms, scratch, lengths, scores and BM25 parameters. */
  private rowScanArgs(
    rows: number,
    n: number,
    lo: number,
    hi: number,
    terms: number,
    weights: number,
    k: number,
    counts: number,
    docLen: number,
    avgLen: number,
    k1: number,
    b: number,
    scores: number,
  ): void {
    this.rowCopyArgs(rows, n, hi);
    int('lo', lo, 0, hi);
    int('k', k);
    this.span('terms', terms, k, 4);
    this.span('weights', weights, k, 4);
    this.span('counts', counts, k, 4);
    this.span('docLen', docLen, hi - lo, 4);
    this.span('scores', scores, hi - lo, 4);
    finite('avgLen', avgLen, 2 ** -126);
    finite('k1', k1, 0);
    finite('b', b, 0, 1);
  }

  /**
   * bm25AccumulateRows over a segment's coded sequences (segment/codes.ts): row r - lo's terms are
   * the codes in codes[at[r - lo] .. at[r - lo + 1]) (read no further than `bytes`), each the rank
   * of its term in keys[0..nKeys).
   */
  bm25AccumulateRowsCoded(
    rows: number,
    n: number,
    lo: number,
    hi: number,
    seq: { at: number; codes: number; bytes: number; keys: number; nKeys: number },
    terms: number,
    weights: number,
    k: number,
    counts: number,
    docLen: number,
    avgLen: number,
    k1: number,
    b: number,
    scores: number,
  ): void {
    this.rowScanArgs(rows, n, lo, hi, terms, weights, k, counts, docLen, avgLen, k1, b, scores);
    int('codes length', seq.bytes);
    int('keys', seq.nKeys);
    this.span('seqAt', seq.at, hi - lo + 1, 4);
    this.span('codes', seq.codes, seq.bytes, 1);
    this.span('keys', seq.keys, seq.nKeys, 4);
    this.k.bm25_accumulate_rows_coded(
      rows,
      n,
      lo >>> 0,
      hi >>> 0,
      seq.at,
      seq.codes,
      seq.bytes >>> 0,
      seq.keys,
      seq.nKeys >>> 0,
      terms,
      weights,
      k,
      counts,
      docLen,
      avgLen,
      k1,
      b,
      scores,
    );
  }

  /** dst[r] = a[r] + w * b[r] for r = rows[i], i < n, r < limit (f32; the others skipped). */
  sumRowsF32(dst: number, a: number, b: number, w: number, rows: number, n: number, limit: number): void {
    this.rowCopyArgs(rows, n, limit);
    this.span('dst', dst, limit, 4);
    this.span('a', a, limit, 4);
    this.span('b', b, limit, 4);
    finite('w', w);
    this.k.sum_rows_f32(dst, a, b, w, rows, n, limit >>> 0);
  }

  /** scores[r] = -Infinity for r = rows[i], i < n, lo <= r < hi, flags[r - lo] != 0 (one segment's dead or filter flags). */
  maskRows(scores: number, rows: number, n: number, lo: number, hi: number, flags: number): void {
    this.rowCopyArgs(rows, n, hi);
    int('lo', lo, 0, hi);
    this.span('scores', scores, hi, 4);
    this.span('flags', flags, hi - lo, 1);
    this.k.mask_rows(scores, rows, n, lo >>> 0, hi >>> 0, flags);
  }

  /** dst[r] = 0 for r = rows[i], i < n, r < limit; elements of `width` bytes (1 or 4). */
  zeroRows(dst: number, rows: number, n: number, limit: number, width: 1 | 4): void {
    this.rowCopyArgs(rows, n, limit);
    if (width !== 1 && width !== 4) throw new KernelBoundsError(`width must be 1 or 4, got ${width}`);
    this.span('dst', dst, limit, width);
    this.k.zero_rows(dst, rows, n, limit >>> 0, width);
  }

  private rowCopyArgs(rows: number, n: number, limit: number): void {
    int('n', n);
    int('limit', limit);
    this.span('rows', rows, n, 4);
  }

  /** dst[i] = src[idx[i]] for i < n (NaN where idx[i] >= srcLength: the kernel checks each index). */
  gatherF32(src: number, srcLength: number, idx: number, n: number, dst: number): void {
    int('n', n);
    int('srcLength', srcLength);
    this.span('src', src, srcLength, 4);
    this.span('idx', idx, n, 4);
    this.span('dst', dst, n, 4);
    this.k.gather_f32(src, srcLength >>> 0, idx, n, dst);
  }

  private bm25Args(
    postings: number,
    n: number,
    rowLimit: number,
    docLen: number,
    avgLen: number,
    k1: number,
    b: number,
    weight: number,
    scores: number,
  ): void {
    int('n', n);
    int('rowLimit', rowLimit, 0, MAX_POSTING_ROWS);
    finite('avgLen', avgLen, 2 ** -126);
    finite('k1', k1, 0);
    finite('b', b, 0, 1);
    finite('weight', weight);
    this.span('postings', postings, n, 4);
    this.span('docLen', docLen, rowLimit, 4);
    this.span('scores', scores, rowLimit, 4);
  }

  /** scores[i] = -Infinity where flags[i] != 0. */
  maskDead(scores: number, n: number, flags: number): void {
    int('n', n);
    this.span('scores', scores, n, 4);
    this.span('flags', flags, n, 1);
    this.k.mask_dead(scores, n, flags);
  }
}
