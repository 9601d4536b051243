// Builds an immutable index segment image (one ArrayBuffer) from encoded documents: per-row dense
// vectors and lengths, every row's term sequence and flags, its title terms (its document's, or in a
// long document its section's, with the row its section starts at), and three sorted dictionaries:
// body terms -> postings, title terms -> postings, title phrases -> rows.
// Pure TypeScript on plain buffers (runs in a worker or on the main thread); the layout is read by
// view.ts. Invariants: rows keep input order; postings are sorted by row, packed as
// `row << 8 | min(tf, 255)`; dictionary keys are sorted ascending and unique.
import { phraseKey } from '../text/index.js';
import { HEADER_WORDS, MAGIC, SEC, SECTION_COUNT } from './layout.js';
import type { BuiltSegment, SegmentInput } from './types.js';

/**
 * Sorted unique keys with CSR-style starts and packed postings from (key, row) occurrences given in
 * non-decreasing row order; repeated (key, row) pairs become the posting's tf (capped at 255).
 * `keys` and `rows` are the sort's scratch: their contents are lost.
 */
function dictionary(keys: Uint32Array, rows: Uint32Array, n: number) {
  const sorted = radixSortPairs(keys, rows, n);
  const uniq: number[] = [];
  const start: number[] = [];
  const postings = new Uint32Array(n);
  let np = 0;
  for (let i = 0; i < n; i++) {
    const key = sorted.keys[i];
    const row = sorted.values[i];
    if (uniq.length === 0 || uniq[uniq.length - 1] !== key) {
      uniq.push(key);
      start.push(np);
    } else if (postings[np - 1] >>> 8 === row) {
      if ((postings[np - 1] & 255) < 255) postings[np - 1]++;
      continue;
    }
    postings[np++] = ((row << 8) | 1) >>> 0;
  }
  start.push(np);
  return { keys: Uint32Array.from(uniq), start: Uint32Array.from(start), postings: postings.slice(0, np) };
}

/**
 * The pairs (keys[i], values[i]) for i < n in a stable ascending order of their keys: an LSD radix
 * sort in 3 passes of 11 bits, or 2 passes of 16 bits for 65,536 pairs and more (a 16-bit pass's
 * counts cost more to clear than a short list is worth, and fewer passes over a long list save more
 * than they cost); either gives the same order. Each pass moves the pairs themselves, so the caller
 * then reads them in sequence (an order of positions to follow costs a cache miss per pair, which
 * on a book of millions of term occurrences was most of the build). `keys` and `values` are the
 * sort's scratch: their contents are lost, and the result may lie in them.
 */
export function radixSortPairs(keys: Uint32Array, values: Uint32Array, n: number): { keys: Uint32Array; values: Uint32Array } {
  const bits = n >= 65536 ? 16 : 11;
  const mask = (1 << bits) - 1;
  const count = new Uint32Array(1 << bits);
  let fromK = keys;
  let fromV = values;
  let toK: Uint32Array = new Uint32Array(n);
  let toV: Uint32Array = new Uint32Array(n);
  for (let shift = 0; shift < 32; shift += bits) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(fromK[i] >>> shift) & mask]++;
    let sum = 0;
    for (let b = 0; b <= mask; b++) {
      const c = count[b];
      count[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const key = fromK[i];
      const at = count[(key >>> shift) & mask]++;
      toK[at] = key;
      toV[at] = fromV[i];
    }
    [fromK, toK] = [toK, fromK];
    [fromV, toV] = [toV, fromV];
  }
  return { keys: fromK, values: fromV };
}

/** A growable list of (key, row) occurrences. */
class Occurrences {
  keys: Uint32Array;
  rows: Uint32Array;
  n = 0;
  constructor(cap: number) {
    this.keys = new Uint32Array(Math.max(cap, 16));
    this.rows = new Uint32Array(this.keys.length);
  }
  push(key: number, row: number): void {
    if (this.n === this.keys.length) {
      const k = new Uint32Array(this.n * 2);
      const r = new Uint32Array(this.n * 2);
      k.set(this.keys);
      r.set(this.rows);
      this.keys = k;
      this.rows = r;
    }
    this.keys[this.n] = key;
    this.rows[this.n++] = row;
  }
}

/** A title's phrase keys (full, and base when it has one: 0 otherwise), its prefixes added to `prefixes`. */
function titleKeys(t: { title: Uint32Array; baseLen: number }, prefixes: Set<number>): { full: number; base: number; baseLen: number } {
  const bl = t.baseLen > 0 && t.baseLen < t.title.length ? t.baseLen : 0;
  for (let n = 1; n <= t.title.length; n++) prefixes.add(phraseKey(t.title, 0, n));
  return { full: t.title.length ? phraseKey(t.title) : 0, base: bl ? phraseKey(t.title, 0, bl) : 0, baseLen: bl };
}

export function buildSegment({ docs, dim }: SegmentInput): BuiltSegment {
  const rowDoc: number[] = [];
  let nTokens = 0;
  let nTitle = 0;
  docs.forEach((d, di) => {
    let s = -1;
    d.passages.forEach((p, pi) => {
      while (s + 1 < d.sections.length && d.sections[s + 1].first <= pi) s++;
      rowDoc.push(di);
      nTokens += p.terms.length;
      nTitle += (s >= 0 ? d.sections[s] : d).title.length;
    });
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
  const baseLen = new Uint32Array(nRows);
  const baseKeys = new Uint32Array(nRows);
  const titleKey = new Uint32Array(nRows);
  const prefixes = new Set<number>();
  const body = new Occurrences(nTokens);
  const title = new Occurrences(nTitle);
  const phrases = new Occurrences(2 * nRows);
  const section = new Uint32Array(nRows);
  let row = 0;
  for (const d of docs) {
    let t: { title: Uint32Array; baseLen: number } = d;
    let keys = titleKeys(t, prefixes);
    let s = -1;
    let sectionRow = 0;
    d.passages.forEach((p, pi) => {
      const at = s;
      while (s + 1 < d.sections.length && d.sections[s + 1].first <= pi) s++;
      if (s !== at) {
        t = d.sections[s];
        keys = titleKeys(t, prefixes);
        sectionRow = row + 1;
      }
      section[row] = sectionRow;
      rowStart[row] = p.start;
      rowEnd[row] = p.end;
      vec.set(p.vec, row * dim);
      vscale[row] = p.scale;
      blen[row] = p.terms.length;
      tlen[row] = t.title.length;
      baseLen[row] = keys.baseLen;
      baseKeys[row] = keys.base;
      titleKey[row] = keys.full;
      seq.set(p.terms, seqStart[row]);
      flags.set(p.flags, seqStart[row]);
      seqStart[row + 1] = seqStart[row] + p.terms.length;
      titleSeq.set(t.title, titleStart[row]);
      titleStart[row + 1] = titleStart[row] + t.title.length;
      for (const v of p.terms) body.push(v, row);
      for (const v of t.title) title.push(v, row);
      if (keys.full) phrases.push(keys.full, row);
      if (keys.base) phrases.push(keys.base, row);
      row++;
    });
  }
  const bodyDict = dictionary(body.keys, body.rows, body.n);
  const titleDict = dictionary(title.keys, title.rows, title.n);
  const phraseDict = dictionary(phrases.keys, phrases.rows, phrases.n);
  // a phrase posting's low byte says which title it came from: 1 full, 2 base (never both: base != full)
  for (let i = 0; i < phraseDict.keys.length; i++) {
    for (let j = phraseDict.start[i]; j < phraseDict.start[i + 1]; j++) {
      const row = phraseDict.postings[j] >>> 8;
      phraseDict.postings[j] = ((row << 8) | (phraseDict.keys[i] === baseKeys[row] ? 2 : 1)) >>> 0;
    }
  }

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
  sections[SEC.baseLen] = baseLen;
  const rowDocArr = Uint32Array.from(rowDoc);
  sections[SEC.rowDoc] = rowDocArr;
  sections[SEC.titleKey] = titleKey;
  sections[SEC.prefixKeys] = Uint32Array.from(prefixes).sort();
  sections[SEC.rowStart] = rowStart;
  sections[SEC.rowEnd] = rowEnd;
  sections[SEC.section] = section;

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
    new Uint8Array(image, offsets[s], sections[s].byteLength).set(
      new Uint8Array(sections[s].buffer, sections[s].byteOffset, sections[s].byteLength),
    );
  }
  return { image, rowDoc: rowDocArr, rowStart, rowEnd, blen, tlen };
}
