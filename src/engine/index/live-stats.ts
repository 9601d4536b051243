// The live-row statistics of one store index (main thread): how many rows are not flagged dead, and
// their summed body and title lengths, from which a search's corpus statistics (BM25's average
// lengths) are read. Invariants: the sums always equal those of the rows not flagged dead, over the
// index and per segment (Segment.liveRows), because every flag change goes through account(); they
// persist with the index (IndexState) and are taken back whole by restore().
import type { CorpusStats } from '../ranking/index.js';
import type { IndexState, Segment } from './types.js';

export type LiveTotals = Pick<IndexState, 'liveRows' | 'liveBody' | 'liveTitle'>;

export class LiveStats {
  private rows = 0;
  private body = 0;
  private title = 0;

  get liveRows(): number {
    return this.rows;
  }

  /** Counts a row of `seg` in (sign 1: flagged live) or out (-1: flagged dead or moved by a merge). */
  account(seg: Segment, row: number, sign: 1 | -1): void {
    seg.liveRows += sign;
    this.rows += sign;
    this.body += sign * seg.blen[row];
    this.title += sign * seg.tlen[row];
  }

  /** The corpus statistics a search of these rows, of `documents` documents, scores with. */
  corpus(documents: number): CorpusStats {
    const rows = Math.max(this.rows, 1);
    return {
      rows: this.rows,
      avgBody: this.body / rows || 1,
      avgTitle: this.title / rows || 1,
      avgDoc: this.body / Math.max(documents, 1) || 1,
    };
  }

  /** The totals as persist() writes them. */
  totals(): LiveTotals {
    return { liveRows: this.rows, liveBody: this.body, liveTitle: this.title };
  }

  /** Takes the totals restore() read. */
  restore(t: LiveTotals): void {
    this.rows = t.liveRows;
    this.body = t.liveBody;
    this.title = t.liveTitle;
  }
}
