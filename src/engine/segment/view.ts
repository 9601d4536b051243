// Read access to an index segment image placed in the shared memory (layout: layout.ts).
// A SegmentView is cheap and short-lived: build one per task (its typed views are taken from the
// memory at construction and must not be kept across a memory growth). Segments are immutable, so
// any thread may read them while the main thread writes other blocks; the only mutable per-segment
// data, the dead flags, lives in a separate block owned by the store index.

import type { MemoryViews } from '../runtime/index.js';
import { decodeTerms } from './codes.js';
import { HEADER_WORDS, MAGIC, SEC } from './layout.js';
import type { PostingRange, SegmentDoc } from './types.js';

export class SegmentView {
  readonly nRows: number;
  readonly dim: number;
  private readonly u32: Uint32Array;
  private readonly u8: Uint8Array;
  private readonly i8: Int8Array;
  private readonly f32: Float32Array;
  private readonly off: Uint32Array;
  /** Scratch of titleLineLength's decoded title line. */
  private head = new Uint32Array(16);
  private coded?: ReturnType<SegmentView['codes']>;

  constructor(
    views: MemoryViews,
    readonly base: number,
  ) {
    views.check('segment header', base, HEADER_WORDS, 4);
    this.u32 = views.u32;
    this.u8 = views.u8;
    this.i8 = views.i8;
    this.f32 = views.f32;
    const h = this.u32.subarray(base >>> 2, (base >>> 2) + HEADER_WORDS);
    if (h[0] !== MAGIC) throw new Error(`no segment at ${base}`);
    views.check('segment', base, h[3], 1);
    this.nRows = h[1];
    this.dim = h[2];
    this.off = h;
  }

  /** Absolute byte pointer of a section. */
  ptr(section: number): number {
    return this.base + this.off[4 + 2 * section];
  }

  private words(section: number, start = 0, end?: number): Uint32Array {
    const p = (this.ptr(section) >>> 2) + start;
    return this.u32.subarray(p, end === undefined ? p + (this.off[5 + 2 * section] >>> 2) - start : (this.ptr(section) >>> 2) + end);
  }

  /** Index of a key in a section of sorted keys (searched in place, allocating nothing), or -1. */
  private find(keysSec: number, key: number): number {
    const base = this.ptr(keysSec) >>> 2;
    const n = this.off[5 + 2 * keysSec] >>> 2;
    const u = this.u32;
    let lo = 0;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = u[base + mid];
      if (k === key) return mid;
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private range(keysSec: number, startSec: number, postSec: number, key: number): PostingRange | undefined {
    const i = this.find(keysSec, key);
    if (i < 0) return undefined;
    const at = (this.ptr(startSec) >>> 2) + i;
    const a = this.u32[at];
    return { ptr: this.ptr(postSec) + 4 * a, count: this.u32[at + 1] - a };
  }

  /** Postings of a body term. */
  term(termId: number): PostingRange | undefined {
    return this.range(SEC.termKeys, SEC.termStart, SEC.postings, termId);
  }

  /** Postings of a title term. */
  titleTerm(termId: number): PostingRange | undefined {
    return this.range(SEC.tTermKeys, SEC.tTermStart, SEC.tPostings, termId);
  }

  /** Rows whose document title (full, kind 1, or without its parenthetical, kind 2) has this phrase key; packed `row << 8 | kind`. */
  phrase(key: number): Uint32Array | undefined {
    const r = this.range(SEC.phraseKeys, SEC.phraseStart, SEC.phraseRows, key);
    return r && this.u32.subarray(r.ptr >>> 2, (r.ptr >>> 2) + r.count);
  }

  /** Packed postings at a range (a view: use at once). */
  postings(r: PostingRange): Uint32Array {
    return this.u32.subarray(r.ptr >>> 2, (r.ptr >>> 2) + r.count);
  }

  /** Summed term frequencies of the rows [lo, lo + count) in the postings at `r` (binary search to lo; allocates nothing). */
  countInRows(r: PostingRange, lo: number, count: number): number {
    const u = this.u32;
    const end = (r.ptr >>> 2) + r.count;
    let a = r.ptr >>> 2;
    let b = end;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (u[mid] >>> 8 < lo) a = mid + 1;
      else b = mid;
    }
    let n = 0;
    for (let i = a; i < end && u[i] >>> 8 < lo + count; i++) n += u[i] & 255;
    return n;
  }

  /** Terms at the start of the row's passage that are its title line (0 if it does not start with its title; allocates nothing). */
  titleLineLength(row: number): number {
    const u = this.u32;
    const t = (this.ptr(SEC.titleStart) >>> 2) + row;
    const tAt = (this.ptr(SEC.titleSeq) >>> 2) + u[t];
    const tLen = u[t + 1] - u[t];
    const q = (this.ptr(SEC.seqStart) >>> 2) + row;
    if (tLen === 0 || u[q + 1] - u[q] < tLen) return 0;
    if (this.head.length < tLen) this.head = new Uint32Array(tLen);
    const head = this.head;
    if (this.decode(row, head, tLen) < tLen) return 0;
    for (let i = 0; i < tLen; i++) if (head[i] !== u[tAt + i]) return 0;
    return tLen;
  }

  /** Term ids (decoded: a new array) and flags (a view: use at once) of a row's passage. */
  seq(row: number): { terms: Uint32Array; flags: Uint8Array } {
    const at = (this.ptr(SEC.seqStart) >>> 2) + row;
    const a = this.u32[at];
    const b = this.u32[at + 1];
    const f = this.ptr(SEC.flags);
    return { terms: this.terms(row, b - a), flags: this.u8.subarray(f + a, f + b) };
  }

  /** The row's term ids, decoded from its codes (a new array of `n`, the row's length). */
  private terms(row: number, n: number): Uint32Array {
    const out = new Uint32Array(n);
    const got = this.decode(row, out, n);
    return got === n ? out : out.subarray(0, got);
  }

  /** Decodes the first `max` term ids of a row's passage into `out`; returns how many. */
  private decode(row: number, out: Uint32Array, max: number): number {
    const { at, codes, keys, nKeys } = this.codes();
    const from = (at >>> 2) + row;
    return decodeTerms(this.u8, codes + this.u32[from], codes + this.u32[from + 1], this.u32, keys >>> 2, nKeys, out, max);
  }

  /**
   * Where the rows' codes lie (read by decode and by bm25_accumulate_rows_coded): their starts, the
   * codes, their bytes, the keys by rank and how many; worked out once per view.
   */
  codes(): { at: number; codes: number; bytes: number; keys: number; nKeys: number } {
    this.coded ??= {
      at: this.ptr(SEC.seqAt),
      codes: this.ptr(SEC.seq),
      bytes: this.off[5 + 2 * SEC.seq],
      keys: this.ptr(SEC.seqKeys),
      nKeys: this.off[5 + 2 * SEC.seqKeys] >>> 2,
    };
    return this.coded;
  }

  /** Title term ids of a row's document (a view). */
  title(row: number): Uint32Array {
    const at = (this.ptr(SEC.titleStart) >>> 2) + row;
    const base = this.ptr(SEC.titleSeq) >>> 2;
    return this.u32.subarray(base + this.u32[at], base + this.u32[at + 1]);
  }

  /** Absolute pointer of a row's int8 vector (`dim` bytes). */
  vecPtr(row: number): number {
    return this.ptr(SEC.vec) + row * this.dim;
  }

  scale(row: number): number {
    return this.f32[(this.ptr(SEC.vscale) >>> 2) + row];
  }

  /** [start, end) of the row's passage in its document's text. */
  span(row: number): [number, number] {
    return [this.u32[(this.ptr(SEC.rowStart) >>> 2) + row], this.u32[(this.ptr(SEC.rowEnd) >>> 2) + row]];
  }

  /** Index of the row's document within the segment (rows of one document are consecutive). */
  docOf(row: number): number {
    return this.u32[(this.ptr(SEC.rowDoc) >>> 2) + row];
  }

  /** Leading title terms forming the row's base title (0: none distinct from the full title). */
  baseLen(row: number): number {
    return this.u32[(this.ptr(SEC.baseLen) >>> 2) + row];
  }

  /** Phrase key of the row's full title (0: no title). */
  titleKey(row: number): number {
    return this.u32[(this.ptr(SEC.titleKey) >>> 2) + row];
  }

  /** Whether some title (full or base) of the segment starts with the phrase of this key. */
  hasPrefix(key: number): boolean {
    return this.find(SEC.prefixKeys, key) >= 0;
  }

  /**
   * The rows [first, first + count) of one document, with `starts`/`ends` offsets: views into the
   * segment, not copies (a merge reads a whole segment; its sources stay live until it is installed).
   */
  readDoc(first: number, count: number, starts: Uint32Array, ends: Uint32Array): SegmentDoc {
    const passages = [];
    for (let r = first; r < first + count; r++) {
      const { terms, flags } = this.seq(r);
      const v = this.vecPtr(r);
      passages.push({
        start: starts[r],
        end: ends[r],
        scale: this.scale(r),
        vec: this.i8.subarray(v, v + this.dim),
        terms,
        flags,
      });
    }
    // the document's title is that of a row outside every section (none: no row takes it)
    let own = first;
    while (own < first + count && this.sectionStart(own) >= 0) own++;
    const sections = [];
    for (let r = first; r < first + count; r++) {
      if (this.sectionStart(r) === r) sections.push({ first: r - first, title: this.title(r), baseLen: this.baseLen(r) });
    }
    const title = own < first + count ? this.title(own) : new Uint32Array(0);
    return { title, baseLen: own < first + count ? this.baseLen(own) : 0, sections, passages };
  }

  /** The row the row's section starts at (-1: the row takes its document's title). */
  sectionStart(row: number): number {
    return this.u32[(this.ptr(SEC.section) >>> 2) + row] - 1;
  }

  /** Body length (terms) of every row. */
  bodyLengths(): Float32Array {
    const p = this.ptr(SEC.blen) >>> 2;
    return this.f32.subarray(p, p + this.nRows);
  }

  titleLengths(): Float32Array {
    const p = this.ptr(SEC.tlen) >>> 2;
    return this.f32.subarray(p, p + this.nRows);
  }

  /** Sum of body lengths, for average-length statistics. */
  totalBodyLength(): number {
    return this.words(SEC.seqStart, this.nRows, this.nRows + 1)[0];
  }

  totalTitleLength(): number {
    return this.words(SEC.titleStart, this.nRows, this.nRows + 1)[0];
  }
}
