// A search task's view of one store: the snapshot's segments laid end to end as one row space
// (global row = segment's row base + local row), with live corpus statistics, document frequencies
// summed over segments, BM25 accumulation over both fields into a score buffer, and masking of
// dead and filtered-out rows. Worker side; reads segments only through SegmentView and kernels.
import type { ModelParams } from './model.js';
import { SEC } from './segment-layout.js';
import type { WasmKernels } from './wasm-kernels.js';
import { SegmentView } from './wasm-segment.js';

export interface SnapshotSegment {
  base: number;
  dead: number;
  nRows: number;
}

export interface CorpusStats {
  rows: number;
  avgBody: number;
  avgTitle: number;
}

export class SearchCorpus {
  readonly segs: SegmentView[];
  readonly rowBase: number[] = [];
  readonly totalRows: number;
  private readonly dfCache = new Map<number, number>();
  private readonly tdfCache = new Map<number, number>();

  constructor(
    readonly kernels: WasmKernels,
    readonly snapshot: SnapshotSegment[],
    readonly stats: CorpusStats,
    readonly lexical: ModelParams['lexical'],
    private readonly blocked: number,
  ) {
    this.segs = snapshot.map((s) => new SegmentView(kernels.views, s.base));
    let base = 0;
    for (const s of snapshot) {
      this.rowBase.push(base);
      base += s.nRows;
    }
    this.totalRows = base;
  }

  /** Segment index and local row of a global row. */
  locate(row: number): [number, number] {
    let lo = 0;
    let hi = this.rowBase.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.rowBase[mid] <= row) lo = mid;
      else hi = mid - 1;
    }
    return [lo, row - this.rowBase[lo]];
  }

  /** Body document frequency of a term over the snapshot (dead rows included until merged away). */
  df(term: number): number {
    let d = this.dfCache.get(term);
    if (d === undefined) {
      d = 0;
      for (const s of this.segs) d += s.term(term)?.count ?? 0;
      this.dfCache.set(term, d);
    }
    return d;
  }

  titleDf(term: number): number {
    let d = this.tdfCache.get(term);
    if (d === undefined) {
      d = 0;
      for (const s of this.segs) d += s.titleTerm(term)?.count ?? 0;
      this.tdfCache.set(term, d);
    }
    return d;
  }

  /** BM25 idf, ln(1 + (N - df + 0.5) / (df + 0.5)), with the body df. */
  idf(term: number): number {
    const n = this.stats.rows;
    const df = Math.min(this.df(term), n);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * scores += Σ weight_t · idf_t · (bm25_body(t) + titleWeight · bm25_title(t)) over every row.
   * `scores` points at a f32 buffer of totalRows.
   */
  accumulate(terms: ArrayLike<number>, weights: ArrayLike<number>, scores: number): void {
    const { k1, b, k1Title, bTitle, titleWeight } = this.lexical;
    const avgB = Math.max(this.stats.avgBody, 1e-3);
    const avgT = Math.max(this.stats.avgTitle, 1e-3);
    for (let i = 0; i < terms.length; i++) {
      const w = weights[i] * this.idf(terms[i]);
      if (w === 0) continue;
      this.segs.forEach((s, si) => {
        const out = scores + 4 * this.rowBase[si];
        const body = s.term(terms[i]);
        if (body) this.kernels.bm25Accumulate(body.ptr, body.count, s.nRows, s.ptr(SEC.blen), avgB, k1, b, w, out);
        const title = titleWeight > 0 ? s.titleTerm(terms[i]) : undefined;
        if (title) this.kernels.bm25Accumulate(title.ptr, title.count, s.nRows, s.ptr(SEC.tlen), avgT, k1Title, bTitle, w * titleWeight, out);
      });
    }
  }

  /** Sets dead and filtered-out rows of `scores` to -Infinity. */
  mask(scores: number): void {
    this.snapshot.forEach((s, si) => this.kernels.maskDead(scores + 4 * this.rowBase[si], s.nRows, s.dead));
    if (this.blocked) this.kernels.maskDead(scores, this.totalRows, this.blocked);
  }

  /** Whether a global row is dead or filtered out (read at call time). */
  excluded(row: number): boolean {
    const [si, r] = this.locate(row);
    const v = this.kernels.views;
    return v.u8At(this.snapshot[si].dead + r, 1)[0] !== 0 || (this.blocked !== 0 && v.u8At(this.blocked + row, 1)[0] !== 0);
  }
}
