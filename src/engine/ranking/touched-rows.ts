// The rows a scan touched, and reductions over a score buffer that count only them. BM25
// accumulation marks every row it adds to (a u8 per row) and lists each row as it first marks it
// (idx, in the order met, not sorted). When they are few (at most 1/SCAN.sparseShare of the rows)
// top-k, maximum, largest difference and histogram run over their gathered scores, so a hop's work
// follows the postings it read rather than the store size; otherwise the kernels run over the whole
// buffer. Both give the same answers: rows never touched score 0 (or -Infinity where masked) and are
// counted as zeros (in the sparse histogram, dead untouched rows too: the only difference, in bin 0),
// and top-k breaks ties by row either way. Scores gathered once may be handed in (KnownScores): a
// later hop's rows start with hop 1's, whose hop-1 scores stay as they are until the search ends,
// and in a clean scratch the rows it lists after them read 0 in hop 1's buffer (not gathered).
import { SCAN } from '../params.js';
import type { WasmKernels } from '../runtime/index.js';
import type { RowSetBuffers } from './types.js';

/** The scores of buffer `ptr` at the first `count` listed rows, gathered before (`ptr` unwritten since). */
export interface KnownScores {
  ptr: number;
  count: number;
  values(): Float32Array;
  /** whether `ptr` reads 0 at every row listed after the first `count` (nothing wrote them: a clean scratch) */
  zeroAfter: boolean;
}

export class TouchedRows {
  private readonly sparse: boolean;

  /** `count`: how many rows are marked, all of them listed in idx[0..count). */
  constructor(
    private readonly kk: WasmKernels,
    readonly totalRows: number,
    private readonly buf: RowSetBuffers,
    readonly count: number,
    private readonly known?: KnownScores,
  ) {
    this.sparse = count * SCAN.sparseShare <= totalRows;
  }

  /** Rows never touched (they score 0 unless masked). */
  get untouched(): number {
    return this.totalRows - this.count;
  }

  /**
   * Where `ptr`'s scores at the touched rows lie gathered in list order (g), if the last gather
   * into g was this set's, of ptr; else undefined.
   */
  gatheredAt(ptr: number): number | undefined {
    return this.sparse && this.holdsG(ptr) ? this.buf.g : undefined;
  }

  private holdsG(ptr: number): boolean {
    const held = this.buf.gHolds;
    return held !== undefined && held.by === this && held.ptr === ptr;
  }

  /** The scores of the touched rows, gathered in list order (once per ptr while it is the last gathered into g). */
  private gather(ptr: number, into = this.buf.g): number {
    if (into !== this.buf.g || !this.holdsG(ptr)) {
      const k = this.known && this.known.ptr === ptr && this.known.count <= this.count && this.known.count > 0 ? this.known : undefined;
      const from = k?.count ?? 0;
      const rest = this.count - from;
      if (k) this.kk.views.f32At(into, from).set(k.values());
      if (k?.zeroAfter) this.kk.fillBytes(into + 4 * from, 4 * rest);
      else this.kk.gatherF32(ptr, this.totalRows, this.buf.idx + 4 * from, rest, into + 4 * from);
      if (into === this.buf.g) this.buf.gHolds = { by: this, ptr };
    }
    return into;
  }

  /** Best k (row, score), best first, ties to the lower row (`k` fits topIdx/topScores). */
  top(ptr: number, k: number, topIdx: number, topScores: number): Array<[number, number]> {
    const kk = this.kk;
    const n = this.sparse
      ? kk.topkKeyed(this.gather(ptr), this.buf.idx, this.count, k, topIdx, topScores)
      : kk.topk(ptr, this.totalRows, k, topIdx, topScores);
    const rows = kk.views.readU32(topIdx, n);
    const sc = kk.views.readF32(topScores, n);
    const out: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) out.push([rows[i], sc[i]]);
    return out;
  }

  /** Largest score over all rows. */
  max(ptr: number): number {
    if (!this.sparse) return this.kk.maxF32(ptr, this.totalRows);
    const m = this.kk.maxF32(this.gather(ptr), this.count);
    return this.untouched > 0 ? Math.max(m, 0) : m;
  }

  /** Largest a[row] - b[row] over all rows (untouched rows differ by 0). */
  maxDiff(a: number, b: number): number {
    if (!this.sparse) return this.kk.maxDiffF32(a, b, this.totalRows);
    const m = this.kk.maxDiffF32(this.gather(a), this.gather(b, this.buf.g2), this.count);
    return this.untouched > 0 ? Math.max(m, 0) : m;
  }

  /** Histogram of all rows' scores over [0, hi) in `bins` bins (u32 out). */
  histogram(ptr: number, hi: number, bins: number, out: number): void {
    if (!this.sparse) {
      this.kk.histogramF32(ptr, this.totalRows, 0, hi, bins, out);
      return;
    }
    this.kk.histogramF32(this.gather(ptr), this.count, 0, hi, bins, out);
    if (bins > 0 && hi > 0) this.kk.views.u32At(out, bins)[0] += this.untouched;
  }
}
