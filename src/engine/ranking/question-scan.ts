// Hop 1's scan of the question into the hop buffers (buffers.ts), and what it leaves there for the
// later hops and the next search. The scan adds BM25 of the question's terms to sBody and sTitle,
// marks and lists the rows it touches (mark, idx), sets s = sBody + titleWeight · sTitle with dead and
// filtered-out rows at -Infinity, and s2 / mark2 to s / mark.
// Modes: 'fill' zeroes, sums, masks and copies every row (small stores and training); 'clean' takes
// buffers already zero (the block kept clean: buffers.ts cleanTag), does all of it over the rows it
// listed only, and end() zeroes those rows again; 'dirty' zeroes the buffers whole first, then works as
// 'clean'. In the clean modes a dead or filtered-out row no scan touched reads 0, not -Infinity.
// A later hop scans into s2 / mark2 (scanLater) and puts back the rows it listed (putBack); its rows
// start with hop 1's, whose s it reads as gathered once a scan (known).
// Invariant (clean modes): between scan() and end(), outside a later hop's scan, every buffer is zero
// but at the rows listed in idx[0..marked).
import type { SearchCorpus } from './corpus.js';
import type { KnownScores } from './touched-rows.js';
import type { HopBuffers, ScanTarget } from './types.js';

export type ScratchMode = 'fill' | 'clean' | 'dirty';

export class QuestionScan {
  /** Rows the last scan marked, listed in idx[0..marked). */
  marked = 0;
  /** Clean modes: whether the buffers are zero; whether they are zero but for the listed rows. */
  private zero: boolean;
  private scanned = false;
  /** A later hop's rows are in s2 / mark2, not yet put back. */
  private later = false;
  /** s at the rows the last scan listed, once a later hop asked (s is not written again until the next scan). */
  private listedScores?: Float32Array;

  constructor(
    private readonly c: SearchCorpus,
    private readonly buf: HopBuffers,
    readonly mode: ScratchMode,
  ) {
    this.zero = mode === 'clean';
  }

  /** Scans the question's terms (weights qw; restrict: the terms that only add to touched rows). */
  scan(qt: number[], qw: number[], restrict: readonly boolean[] | undefined): void {
    const c = this.c;
    const kk = c.kernels;
    const n = c.totalRows;
    const b = this.buf;
    const whole = this.mode === 'fill';
    if (whole) {
      kk.fillBytes(b.sBody, 4 * n);
      kk.fillBytes(b.sTitle, 4 * n);
      kk.fillBytes(b.mark, n);
    } else if (!this.end()) {
      for (const p of [b.sBody, b.sTitle, b.s, b.s2]) kk.fillBytes(p, b.rowBytes);
      for (const p of [b.mark, b.mark2]) kk.fillBytes(p, b.markBytes);
    }
    this.zero = false;
    this.later = false;
    this.listedScores = undefined;
    const fields: ScanTarget[] = [
      { field: 'body', scores: b.sBody, scale: 1 },
      { field: 'title', scores: b.sTitle, scale: 1 },
    ];
    this.marked = c.scan(fields, qt, qw, {
      ptr: b.mark,
      list: b.idx,
      listed: 0,
      restrict,
      terms: b.rowTerms,
      touch: { list: b.g2, counts: b.touchCounts },
    });
    const listed = this.marked;
    if (whole) {
      kk.copyBytes(b.s, b.sBody, 4 * n);
      kk.axpyF32(n, c.lexical.titleWeight, b.sTitle, b.s);
      for (const p of [b.s, b.sBody, b.sTitle]) c.mask(p);
      kk.copyBytes(b.s2, b.s, 4 * n);
      kk.copyBytes(b.mark2, b.mark, n);
      return;
    }
    this.scanned = true;
    kk.sumRowsF32(b.s, b.sBody, b.sTitle, c.lexical.titleWeight, b.idx, listed, n);
    for (const p of [b.s, b.sBody, b.sTitle]) c.maskListed(p, b.idx, listed);
    kk.copyRowsF32(b.s2, b.s, b.idx, listed, n);
    kk.copyRowsU8(b.mark2, b.mark, b.idx, listed, n);
  }

  /**
   * A later hop's scan of a read passage's terms into s2 / mark2, the rows it first marks listed
   * after hop 1's (and masked: fill mode masked every row already; common terms from their postings
   * only). Returns how many rows are listed
   * now; until putBack(), end() does not count the buffers clean.
   */
  scanLater(terms: number[], weights: number[], restrict: readonly boolean[] | undefined): number {
    const b = this.buf;
    this.later = true;
    const marked = terms.length
      ? this.c.accumulate(terms, weights, b.s2, {
          ptr: b.mark2,
          list: b.idx,
          listed: this.marked,
          restrict,
          touch: { list: b.g2, counts: b.touchCounts },
        })
      : 0;
    if (this.mode !== 'fill') this.c.maskListed(b.s2, b.idx + 4 * this.marked, marked);
    return this.marked + marked;
  }

  /**
   * s at the rows this scan listed, for a later hop's reductions (TouchedRows, which gathers only
   * where the rows are few: at most knownCap). In the clean modes s is 0 at every row a later hop
   * lists after them.
   */
  known(): KnownScores {
    return { ptr: this.buf.s, count: this.marked, values: () => this.knownValues(), zeroAfter: this.mode !== 'fill' };
  }

  /** s at the rows this scan listed, gathered into the block's `known` list once a scan. */
  private knownValues(): Float32Array {
    if (!this.listedScores) {
      const b = this.buf;
      const kk = this.c.kernels;
      if (this.marked > b.knownCap) throw new RangeError(`hop 1 listed ${this.marked} rows, more than the known list's ${b.knownCap}`);
      kk.gatherF32(b.s, this.c.totalRows, b.idx, this.marked, b.known);
      this.listedScores = kk.views.readF32(b.known, this.marked);
    }
    return this.listedScores;
  }

  /**
   * Puts back the `listed` rows scanLater() returned: s2 / mark2 equal s / mark again. A later hop
   * may add to any listed row's score, but marks only the rows it listed after hop 1's (a mark is 1
   * or 0), so only those are unmarked again. `s2At`, when given: s2 gathered at the listed rows in
   * their order (TouchedRows.gatheredAt); in the clean modes it is compared with s at hop 1's rows
   * (`known`), and only the rows the hop changed are written.
   */
  putBack(listed: number, s2At?: number): void {
    const kk = this.c.kernels;
    const n = this.c.totalRows;
    const b = this.buf;
    const after = b.idx + 4 * this.marked;
    const fill = this.mode === 'fill';
    if (!fill && s2At !== undefined) {
      this.knownValues();
      kk.putBackRows(b.s2, b.mark2, b.idx, s2At, b.known, this.marked, listed, n);
    } else {
      // in the clean modes s is 0 at the rows listed after hop 1's (the invariant above): zeroed, s not read
      kk.copyRowsF32(b.s2, b.s, b.idx, fill ? listed : this.marked, n);
      if (!fill) kk.zeroRows(b.s2, after, listed - this.marked, n, 4);
      kk.zeroRows(b.mark2, after, listed - this.marked, n, 1);
    }
    this.later = false;
  }

  /**
   * Ends the search's use of the buffers: in the clean modes, zeroes the rows the scan listed.
   * Returns whether the buffers are clean (buffers.ts) for the search's layout.
   */
  end(): boolean {
    if (this.later) return false;
    if (this.scanned) {
      const kk = this.c.kernels;
      const n = this.c.totalRows;
      const b = this.buf;
      for (const p of [b.sBody, b.sTitle, b.s, b.s2]) kk.zeroRows(p, b.idx, this.marked, n, 4);
      for (const p of [b.mark, b.mark2]) kk.zeroRows(p, b.idx, this.marked, n, 1);
      this.scanned = false;
      this.zero = true;
    }
    return this.zero;
  }
}
