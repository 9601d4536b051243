// Builds an immutable index segment image (one ArrayBuffer) from encoded documents: per-row dense
// vectors and lengths, every row's term sequence and flags, its document's title terms, and three
// sorted dictionaries: body terms -> postings, title terms -> postings, title phrases -> rows.
// Pure TypeScript on plain buffers (runs in a worker or on the main thread); the layout is read by
// wasm-segment.ts. Invariants: rows keep input order; postings are sorted by row, packed as
// `row << 8 | min(tf, 255)`; dictionary keys are sorted ascending and unique.
import type { EncodedPassage } from './encoding-format.js';
import { phraseKey } from './phrase.js';
import { HEADER_WORDS, MAGIC, SEC, SECTION_COUNT } from './segment-layout.js';

/** One document's rows: its passages, title terms and the phrase key of its base title (0: none). */
export interface SegmentDoc {
  title: Uint32Array;
  baseKey: number;
  passages: EncodedPassage[];
}

export interface SegmentInput {
  docs: SegmentDoc[];
  dim: number;
}

export interface BuiltSegment {
  image: ArrayBuffer;
  /** For each row, the index of its document in `docs` (non-decreasing). */
  rowDoc: Uint32Array;
  /** Passage offsets of each row in its document's text. */
  rowStart: Uint32Array;
  rowEnd: Uint32Array;
  /** Body and title lengths (terms) of each row, for live statistics. */
  blen: Float32Array;
  tlen: Float32Array;
}

/** Sorted unique keys with CSR-style starts and packed postings, from (key, row, tf) triples. */
function dictionary(keys: Uint32Array, rows: Uint32Array, tfs: Uint8Array, n: number) {
  const order = radixOrder(keys, n);
  const uniq: number[] = [];
  const start: number[] = [];
  const postings = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const j = order[i];
    if (uniq.length === 0 || uniq[uniq.length - 1] !== keys[j]) {
      uniq.push(keys[j]);
      start.push(i);
    }
    postings[i] = ((rows[j] << 8) | tfs[j]) >>> 0;
  }
  start.push(n);
  return { keys: Uint32Array.from(uniq), start: Uint32Array.from(start), postings };
}

/** Stable LSD radix order of 32-bit keys (3 passes of 11 bits). */
export function radixOrder(keys: Uint32Array, n: number): Uint32Array {
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let tmp = new Uint32Array(n);
  const count = new Uint32Array(2048);
  for (let shift = 0; shift < 32; shift += 11) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(keys[order[i]] >>> shift) & 2047]++;
    let sum = 0;
    for (let b = 0; b < 2048; b++) {
      const c = count[b];
      count[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = order[i];
      tmp[count[(keys[j] >>> shift) & 2047]++] = j;
    }
    [order, tmp] = [tmp, order];
  }
  return order;
}

/** Term counts of one sequence, as parallel arrays in first-occurrence order. */
function termCounts(seq: Uint32Array): { terms: number[]; tfs: number[] } {
  const at = new Map<number, number>();
  const terms: number[] = [];
  const tfs: number[] = [];
  for (const t of seq) {
    const i = at.get(t);
    if (i === undefined) {
      at.set(t, terms.length);
      terms.push(t);
      tfs.push(1);
    } else if (tfs[i] < 255) tfs[i]++;
  }
  return { terms, tfs };
}

class Triples {
  keys: Uint32Array;
  rows: Uint32Array;
  tfs: Uint8Array;
  n = 0;
  constructor(cap: number) {
    this.keys = new Uint32Array(Math.max(cap, 16));
    this.rows = new Uint32Array(this.keys.length);
    this.tfs = new Uint8Array(this.keys.length);
  }
  push(key: number, row: number, tf: number): void {
    if (this.n === this.keys.length) {
      const grow = <T extends Uint32Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.keys = grow(this.keys);
      this.rows = grow(this.rows);
      this.tfs = grow(this.tfs);
    }
    this.keys[this.n] = key;
    this.rows[this.n] = row;
    this.tfs[this.n++] = tf;
  }
}

export function buildSegment({ docs, dim }: SegmentInput): BuiltSegment {
  const rowDoc: number[] = [];
  let nTokens = 0;
  let nTitle = 0;
  docs.forEach((d, di) => {
    for (const p of d.passages) {
      rowDoc.push(di);
      nTokens += p.terms.length;
      nTitle += d.title.length;
    }
  });
  const nRows = rowDoc.length;
  if (nRows >= 1 << 24) throw new RangeError(`a segment holds at most ${(1 << 24) - 1} rows`);
  const vec = new Int8Array(nRows * dim);
  const vscale = new Float32Array(nRows);
  const blen = new Float32Array(nRows);
  const tlen = new Float32Array(nRows);
  const rowStart = new Uint32Array(nRows);
  const rowEnd = new Uint32Array(nRows);
  const seqStart = new Uint32Array(nRows + 1);
  const seq = new Uint32Array(nTokens);
  const flags = new Uint8Array(nTokens);
  const titleStart = new Uint32Array(nRows + 1);
  const titleSeq = new Uint32Array(nTitle);
  const baseKey = new Uint32Array(nRows);
  const body = new Triples(nTokens);
  const title = new Triples(nTitle);
  const phrases = new Triples(2 * nRows);
  let row = 0;
  for (const d of docs) {
    const tc = termCounts(d.title);
    const full = d.title.length ? phraseKey(d.title) : 0;
    const base = d.baseKey === full ? 0 : d.baseKey;
    for (const p of d.passages) {
      rowStart[row] = p.start;
      rowEnd[row] = p.end;
      vec.set(p.vec, row * dim);
      vscale[row] = p.scale;
      blen[row] = p.terms.length;
      tlen[row] = d.title.length;
      baseKey[row] = base;
      seq.set(p.terms, seqStart[row]);
      flags.set(p.flags, seqStart[row]);
      seqStart[row + 1] = seqStart[row] + p.terms.length;
      titleSeq.set(d.title, titleStart[row]);
      titleStart[row + 1] = titleStart[row] + d.title.length;
      const bc = termCounts(p.terms);
      for (let i = 0; i < bc.terms.length; i++) body.push(bc.terms[i], row, bc.tfs[i]);
      for (let i = 0; i < tc.terms.length; i++) title.push(tc.terms[i], row, tc.tfs[i]);
      if (full) phrases.push(full, row, 1);
      if (base) phrases.push(base, row, 2);
      row++;
    }
  }
  const bodyDict = dictionary(body.keys, body.rows, body.tfs, body.n);
  const titleDict = dictionary(title.keys, title.rows, title.tfs, title.n);
  const phraseDict = dictionary(phrases.keys, phrases.rows, phrases.tfs, phrases.n);

  const sections: ArrayBufferView[] = [];
  sections[SEC.vec] = vec;
  sections[SEC.vscale] = vscale;
  sections[SEC.blen] = blen;
  sections[SEC.tlen] = tlen;
  sections[SEC.seqStart] = seqStart;
  sections[SEC.seq] = seq;
  sections[SEC.flags] = flags;
  sections[SEC.titleStart] = titleStart;
  sections[SEC.titleSeq] = titleSeq;
  sections[SEC.termKeys] = bodyDict.keys;
  sections[SEC.termStart] = bodyDict.start;
  sections[SEC.postings] = bodyDict.postings;
  sections[SEC.tTermKeys] = titleDict.keys;
  sections[SEC.tTermStart] = titleDict.start;
  sections[SEC.tPostings] = titleDict.postings;
  sections[SEC.phraseKeys] = phraseDict.keys;
  sections[SEC.phraseStart] = phraseDict.start;
  sections[SEC.phraseRows] = phraseDict.postings;
  sections[SEC.baseKey] = baseKey;
  const rowDocArr = Uint32Array.from(rowDoc);
  sections[SEC.rowDoc] = rowDocArr;

  const headerBytes = HEADER_WORDS * 4;
  let size = headerBytes;
  const offsets: number[] = [];
  for (let s = 0; s < SECTION_COUNT; s++) {
    offsets.push(size);
    size += (sections[s].byteLength + 15) & ~15;
  }
  const image = new ArrayBuffer(size);
  const header = new Uint32Array(image, 0, HEADER_WORDS);
  header[0] = MAGIC;
  header[1] = nRows;
  header[2] = dim;
  header[3] = size;
  for (let s = 0; s < SECTION_COUNT; s++) {
    header[4 + 2 * s] = offsets[s];
    header[5 + 2 * s] = sections[s].byteLength;
    new Uint8Array(image, offsets[s], sections[s].byteLength).set(new Uint8Array(sections[s].buffer, sections[s].byteOffset, sections[s].byteLength));
  }
  return { image, rowDoc: rowDocArr, rowStart, rowEnd, blen, tlen };
}
