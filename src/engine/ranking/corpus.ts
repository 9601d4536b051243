// A search task's view of one store: the snapshot's segments laid end to end as one row space
// (global row = segment's row base + local row), with live corpus statistics, document frequencies
// summed over segments, BM25 accumulation over both fields into a score buffer (corpus-scan.ts),
// and masking of dead and filtered-out rows; its titles are corpus-titles.ts's. Worker side; reads
// segments only through SegmentView and kernels. A segment's image may lie in a region past the
// kernels' memory (runtime/regions.ts: its address names the region): it is read through that
// region's views, and its postings are copied into the kernels' memory to be scanned (corpus-scan.ts);
// the score, mark, dead and filter buffers are always in the kernels' memory.
// The per-row accessors run in the search's inner loops: they allocate nothing but the views and
// tuples they return (a search's garbage is what its collections cost at a million rows).
import type { LexicalParams } from '../model/index.js';
import { FEATURE_TEXT, SCAN } from '../params.js';
import { type MemoryViews, type OpContext, offsetOf, regionOf, type WasmKernels } from '../runtime/index.js';
import { type PostingRange, SegmentView } from '../segment/index.js';
import { scanTargets } from './corpus-scan.js';
import { CorpusTitles } from './corpus-titles.js';
import { type TermTable, termTable } from './term-ranges.js';
import type { CorpusStats, ScanMarks, ScanTarget, SnapshotSegment } from './types.js';

/** What a search needs of a store's segment (index/store-index.ts Segment): the snapshot a worker reads. */
export function snapshotOf(s: {
  id: number;
  base: number;
  dead: number;
  keys: number;
  lens: number;
  nRows: number;
  liveRows: number;
}): SnapshotSegment {
  return { id: s.id, base: s.base, dead: s.dead, keys: s.keys, lens: s.lens, nRows: s.nRows, deadRows: s.nRows - s.liveRows };
}

/** A number naming the docWindow [first, count] (a section and a window may start at one row). */
export const windowKey = (first: number, count: number) => first * (FEATURE_TEXT.docWindow + 1) + count;

export class SearchCorpus {
  readonly segs: SegmentView[];
  /** The region each segment's image lies in (0: the kernels' memory). */
  readonly segRegion: number[];
  /** Whether some segment's image lies past the kernels' memory. */
  readonly spread: boolean;
  /** u32[SCAN.stagePostings] per lane of the kernels' memory that a region's postings are copied into (HopBuffers.stage: set where the scratch is laid out; 0: none) */
  stage = 0;
  /** How a scan's segments are spread over idle workers (set by the search op; none: this thread alone) */
  assist: OpContext['assist'];
  /** postings from which a scan is spread (SCAN.spreadPostings; a task may say) */
  spreadPostings: number = SCAN.spreadPostings;
  readonly rowBase: number[] = [];
  readonly totalRows: number;
  private readonly dfCache = new Map<number, number>();
  private readonly tdfCache = new Map<number, number>();
  private readonly idfCache = new Map<number, number>();
  private readonly searchableCache = new Map<number, boolean>();
  /** [first, count] of each document met, by its key (documentOf), and of each section met, by its key (-1 - its first row) */
  private readonly docRowsCache = new Map<number, [number, number]>();
  /** where each term's postings lie, per segment, and the titles of phrases: shared with the thread's searches of the same segments */
  private readonly rangeCache: TermTable;
  /** The memory's bytes, for the dead and filter flags (blocks allocated before the snapshot, so covered). */
  private readonly flags: Uint8Array;
  /** The memory's words, for the rows' tie keys. */
  private readonly words: Uint32Array;
  /** the snapshot's titles: prefixes, the titles a phrase names, the rows bearing a title */
  readonly titles: CorpusTitles;

  constructor(
    readonly kernels: WasmKernels,
    readonly snapshot: SnapshotSegment[],
    readonly stats: CorpusStats,
    readonly lexical: LexicalParams,
    private readonly blocked: number,
    /** Views of every region's memory ([0]: the kernels'); a snapshot in the kernels' memory alone needs no other. */
    readonly regions: MemoryViews[] = [kernels.views],
  ) {
    this.segRegion = snapshot.map((s) => regionOf(s.base));
    this.spread = this.segRegion.some((r) => r !== 0);
    this.segs = snapshot.map((s, i) => {
      const views = regions[this.segRegion[i]];
      if (!views) throw new RangeError(`segment ${s.id} lies in region ${this.segRegion[i]}, which this thread has no view of`);
      return new SegmentView(views, offsetOf(s.base));
    });
    this.rangeCache = termTable(snapshot.map((s) => s.id));
    let base = 0;
    for (const s of snapshot) {
      this.rowBase.push(base);
      base += s.nRows;
    }
    this.totalRows = base;
    snapshot.forEach((s) => {
      kernels.views.check('dead flags', s.dead, s.nRows, 1);
      kernels.views.check('tie keys', s.keys, s.nRows, 4);
    });
    if (blocked) kernels.views.check('filter flags', blocked, base, 1);
    this.flags = kernels.views.u8;
    this.words = kernels.views.u32;
    // no row needs its flags read when none is dead (as the snapshot counts them) or filtered out
    const excludes = blocked !== 0 || snapshot.some((s) => (s.deadRows ?? 0) > 0);
    this.titles = new CorpusTitles(this.segs, this.rowBase, this.rangeCache, excludes ? (row) => this.excluded(row) : undefined, (rows) =>
      this.inTieOrder(rows),
    );
  }

  /** Segment index of a global row. */
  private segOf(row: number): number {
    let lo = 0;
    let hi = this.rowBase.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.rowBase[mid] <= row) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Segment index and local row of a global row. */
  locate(row: number): [number, number] {
    const si = this.segOf(row);
    return [si, row - this.rowBase[si]];
  }

  /**
   * Occurrences of a term in the bodies of the global rows [first, first + count), which lie in one
   * segment (a document's rows do): read from the term's postings between the two rows by binary
   * search, so the cost does not grow with the rows' length.
   */
  termCount(term: number, first: number, count: number): number {
    const [si, lo] = this.locate(first);
    const r = this.ranges('body', term)[si];
    return r ? this.segs[si].countInRows(r, lo, count) : 0;
  }

  /** Summed body lengths (terms) of the global rows [first, first + count), in one segment. */
  bodyLength(first: number, count: number): number {
    const [si, lo] = this.locate(first);
    const lens = this.segs[si].bodyLengths();
    let n = 0;
    for (let r = lo; r < lo + count; r++) n += lens[r];
    return n;
  }

  /** Body document frequency of a term over the live rows of the snapshot. */
  df(term: number): number {
    let d = this.dfCache.get(term);
    if (d === undefined) {
      d = this.liveCount(this.ranges('body', term));
      this.dfCache.set(term, d);
    }
    return d;
  }

  /** Whether a row this search may return (live, not filtered out) holds the term in its body (memoised). */
  searchable(term: number): boolean {
    if (this.df(term) === 0) return false;
    if (!this.blocked) return true;
    let found = this.searchableCache.get(term);
    if (found !== undefined) return found;
    found = false;
    const ranges = this.ranges('body', term);
    const flags = this.flags;
    for (let si = 0; si < this.segs.length && !found; si++) {
      const r = ranges[si];
      if (!r) continue;
      const dead = this.snapshot[si].dead;
      const blocked = this.blocked + this.rowBase[si];
      const postings = this.segs[si].postings(r);
      for (let i = 0; i < postings.length; i++) {
        const row = postings[i] >>> 8;
        if (flags[dead + row] === 0 && flags[blocked + row] === 0) {
          found = true;
          break;
        }
      }
    }
    this.searchableCache.set(term, found);
    return found;
  }

  titleDf(term: number): number {
    let d = this.tdfCache.get(term);
    if (d === undefined) {
      d = this.liveCount(this.ranges('title', term));
      this.tdfCache.set(term, d);
    }
    return d;
  }

  /**
   * Postings of a term that belong to live rows, summed over the segments: a segment with dead rows
   * has its postings checked against its dead flags, so statistics never count a replaced or deleted
   * passage (a store scores the same before and after a restart rebuilds it without them).
   */
  private liveCount(ranges: ReadonlyArray<PostingRange | undefined>): number {
    let d = 0;
    this.segs.forEach((s, si) => {
      const r = ranges[si];
      if (!r) return;
      const seg = this.snapshot[si];
      if (!seg.deadRows) {
        d += r.count;
        return;
      }
      const dead = this.kernels.views.u8At(seg.dead, seg.nRows);
      for (const p of s.postings(r)) if (dead[p >>> 8] === 0) d++;
    });
    return d;
  }

  /** A term's postings in each segment, in one field (memoised). */
  ranges(field: 'body' | 'title', term: number): ReadonlyArray<PostingRange | undefined> {
    const cache = this.rangeCache[field];
    let r = cache.get(term);
    if (!r) {
      r = this.segs.map((s) => (field === 'body' ? s.term(term) : s.titleTerm(term)));
      cache.set(term, r);
    }
    return r;
  }

  /** BM25 idf, ln(1 + (N - df + 0.5) / (df + 0.5)), with the body df. */
  idf(term: number): number {
    let v = this.idfCache.get(term);
    if (v === undefined) {
      const n = this.stats.rows;
      const df = Math.min(this.df(term), n);
      v = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      this.idfCache.set(term, v);
    }
    return v;
  }

  /**
   * scores += Σ weight_t · (bm25_body(t) + titleWeight · bm25_title(t)) over every row (or as
   * `marks` says), idf from the body field; `scores` points at a f32 buffer of totalRows.
   */
  accumulate(terms: ArrayLike<number>, weights: ArrayLike<number>, scores: number, marks?: ScanMarks): number {
    const targets: ScanTarget[] = [{ field: 'body', scores, scale: 1 }];
    if (this.lexical.titleWeight > 0) targets.push({ field: 'title', scores, scale: this.lexical.titleWeight });
    return this.scan(targets, terms, weights, marks);
  }

  /**
   * For each target, scores += Σ weight_t · scale · bm25_field(t), over every row or as `marks` says
   * (corpus-scan.ts); returns how many rows it newly marked.
   */
  scan(targets: ScanTarget[], terms: ArrayLike<number>, weights: ArrayLike<number>, marks?: ScanMarks): number {
    return scanTargets(this, targets, terms, weights, marks);
  }

  /** Sets dead and filtered-out rows of `scores` to -Infinity. */
  mask(scores: number): void {
    this.snapshot.forEach((s, si) => {
      this.kernels.maskDead(scores + 4 * this.rowBase[si], s.nRows, s.dead);
    });
    if (this.blocked) this.kernels.maskDead(scores, this.totalRows, this.blocked);
  }

  /** mask() over the rows list[0..count) only (the others are left as they are). */
  maskListed(scores: number, list: number, count: number): void {
    this.snapshot.forEach((s, si) => {
      if (s.deadRows !== 0) this.kernels.maskRows(scores, list, count, this.rowBase[si], this.rowBase[si] + s.nRows, s.dead);
    });
    if (this.blocked) this.kernels.maskRows(scores, list, count, 0, this.totalRows, this.blocked);
  }

  /** Term ids and flags of a row's passage (views: use at once). */
  seq(row: number): { terms: Uint32Array; flags: Uint8Array } {
    const si = this.segOf(row);
    return this.segs[si].seq(row - this.rowBase[si]);
  }

  /** Title terms of a row's document (a view). */
  title(row: number): Uint32Array {
    const si = this.segOf(row);
    return this.segs[si].title(row - this.rowBase[si]);
  }

  titleKey(row: number): number {
    const si = this.segOf(row);
    return this.segs[si].titleKey(row - this.rowBase[si]);
  }

  /** [start, end) of a row's passage in its document. */
  span(row: number): [number, number] {
    const si = this.segOf(row);
    return this.segs[si].span(row - this.rowBase[si]);
  }

  /** A row's int8 vector (a view; empty without an encoder) and its scale. */
  vector(row: number): [Int8Array, number] {
    const [si, r] = this.locate(row);
    const seg = this.segs[si];
    return [this.regions[this.segRegion[si]].i8At(seg.vecPtr(r), seg.dim), seg.scale(r)];
  }

  baseLenOf(row: number): number {
    const si = this.segOf(row);
    return this.segs[si].baseLen(row - this.rowBase[si]);
  }

  /**
   * The global rows [first, first + count) of the row's unit of evidence (docOf): its section's or
   * its document's; what the row is the lead passage of, and how long what it lies in is. A row
   * that is a unit alone (a long document, no heading over it) reads as its document.
   */
  docRows(row: number): [number, number] {
    const [si, r] = this.locate(row);
    return this.unitOfSection(si, r) ?? this.rowsOfDocument(si, r);
  }

  /** The global rows [first, count] of the document of local row `r` of segment `si`, by its key (documentOf). */
  private rowsOfDocument(si: number, r: number): [number, number] {
    const seg = this.segs[si];
    const d = seg.docOf(r);
    const key = this.rowBase[si] + d;
    const hit = this.docRowsCache.get(key);
    if (hit) return hit;
    let a = r;
    let b = r + 1;
    while (a > 0 && seg.docOf(a - 1) === d) a--;
    while (b < seg.nRows && seg.docOf(b) === d) b++;
    const out: [number, number] = [this.rowBase[si] + a, b - a];
    this.docRowsCache.set(key, out);
    return out;
  }

  /** The global rows [first, count] of the section of local row `r` of segment `si` (undefined: the row takes its document's title). */
  private rowsOfSection(si: number, r: number): [number, number] | undefined {
    const seg = this.segs[si];
    const s = seg.sectionStart(r);
    if (s < 0) return undefined;
    const key = -1 - (this.rowBase[si] + s);
    const hit = this.docRowsCache.get(key);
    if (hit) return hit;
    let b = s + 1;
    while (b < seg.nRows && seg.sectionStart(b) === s) b++;
    const out: [number, number] = [this.rowBase[si] + s, b - s];
    this.docRowsCache.set(key, out);
    return out;
  }

  /**
   * The rows of a sectioned document's unit of evidence for local row `r` of segment `si`: its
   * section when it has one of at most FEATURE_TEXT.docWindow passages, else undefined.
   */
  private unitOfSection(si: number, r: number): [number, number] | undefined {
    const sec = this.rowsOfSection(si, r);
    return sec && sec[1] <= FEATURE_TEXT.docWindow ? sec : undefined;
  }

  /**
   * The rows the whole-document features read for `row`: its section's when that is its unit
   * (docOf); else its document's, or, in a document of more than FEATURE_TEXT.docWindow passages,
   * that many around the row: windows start on a grid of half their length (the row in their
   * second half, clamped to the document), so that nearby rows share a window and its memoised
   * features.
   */
  docWindow(row: number): [number, number] {
    const [si, r] = this.locate(row);
    const unit = this.unitOfSection(si, r);
    if (unit) return unit;
    const [first, count] = this.rowsOfDocument(si, r);
    const w = FEATURE_TEXT.docWindow;
    if (count <= w) return [first, count];
    const half = w >> 1;
    const block = Math.floor((row - first) / half);
    return [Math.min(first + Math.max(0, block - 1) * half, first + count - w), w];
  }

  /**
   * A key identifying the row's unit of evidence within the snapshot: in a sectioned document
   * (text/sections.ts), its section's when that is at most FEATURE_TEXT.docWindow passages long;
   * else its document's when that is at most as long; else the row's own (sections and rows take
   * negative keys, apart from every document's). The loop's notion of a document (which chains a
   * list holds, where the next hop may go, how many passages of one document a list takes) was
   * fitted on documents of at most that many passages, each about one subject; a book, or a
   * chapter of entries, stored as one document would otherwise be one piece of evidence that
   * every chain lies in.
   */
  docOf(row: number): number {
    const [si, r] = this.locate(row);
    const unit = this.unitOfSection(si, r);
    if (unit) return -1 - unit[0];
    if (this.rowsOfDocument(si, r)[1] <= FEATURE_TEXT.docWindow) return this.rowBase[si] + this.segs[si].docOf(r);
    return -1 - row;
  }

  /** A key identifying the row's document within the snapshot, however long the document. */
  documentOf(row: number): number {
    const [si, r] = this.locate(row);
    return this.rowBase[si] + this.segs[si].docOf(r);
  }

  /** Terms at the start of the row's passage that are its title line (0 if it does not start with its title). */
  titleLineLength(row: number): number {
    const si = this.segOf(row);
    return this.segs[si].titleLineLength(row - this.rowBase[si]);
  }

  /** Live global rows whose body holds a term (filtered-out rows included, as in every statistic). */
  rowsWithTerm(term: number): number[] {
    const out: number[] = [];
    const ranges = this.ranges('body', term);
    this.segs.forEach((s, si) => {
      const r = ranges[si];
      if (!r) return;
      const dead = this.snapshot[si].dead;
      for (const p of s.postings(r)) if (this.flags[dead + (p >>> 8)] === 0) out.push(this.rowBase[si] + (p >>> 8));
    });
    return out;
  }

  /** Writes a row's tie key (its document id's hash) and where its passage starts in its document to out[at], out[at + 1]. */
  private tieInto(row: number, out: Uint32Array, at: number): void {
    const si = this.segOf(row);
    const r = row - this.rowBase[si];
    out[at] = this.words[(this.snapshot[si].keys >>> 2) + r];
    out[at + 1] = this.segs[si].span(r)[0];
  }

  private readonly tiePair = new Uint32Array(4);

  /**
   * The order of two rows of equal score, whatever the rows' layout (the order their documents came
   * in, merges, a rebuild): by their document id's hash, then by where the passage starts in its
   * document; by row only between documents whose ids' hashes collide. Negative: `a` first.
   */
  tieOrder(a: number, b: number): number {
    const t = this.tiePair;
    this.tieInto(a, t, 0);
    this.tieInto(b, t, 2);
    return compareTies(t, 0, 1, a, b);
  }

  /** `rows` sorted in tieOrder, each row's key read once (a title may have tens of thousands of rows). */
  inTieOrder(rows: readonly number[]): number[] {
    const ties = new Uint32Array(2 * rows.length);
    for (let i = 0; i < rows.length; i++) this.tieInto(rows[i], ties, 2 * i);
    const order = Array.from(rows, (_, i) => i).sort((i, j) => compareTies(ties, i, j, rows[i], rows[j]));
    return order.map((i) => rows[i]);
  }

  /** Whether a global row is dead or filtered out (read at call time). */
  excluded(row: number): boolean {
    const si = this.segOf(row);
    return (
      this.flags[this.snapshot[si].dead + row - this.rowBase[si]] !== 0 || (this.blocked !== 0 && this.flags[this.blocked + row] !== 0)
    );
  }
}

/** tieOrder of rows `a` and `b`, whose keys tieInto wrote at pairs `i` and `j` of `ties`. */
function compareTies(ties: Uint32Array, i: number, j: number, a: number, b: number): number {
  return ties[2 * i] - ties[2 * j] || ties[2 * i + 1] - ties[2 * j + 1] || a - b;
}
