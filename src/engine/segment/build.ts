// Builds an immutable index segment image from encoded documents, on a buffer of its own or in a
// block of shared memory given (a merge's): per-row dense vectors and lengths, every row's term
// sequence (as codes, codes.ts: each term's rank among the body terms) and flags, its title terms
// (its document's, or in a long document its section's, with the row its section starts at), and
// three sorted dictionaries (dictionary.ts): body terms -> postings, title terms -> postings,
// title phrases -> rows. The image is sized first (the dictionaries counted and the body terms
// ranked) and every section then written into it in place. The documents are read
// twice, once per pass, and none is kept between them: a merge reads them from its sources as it
// goes, so no object per row of the whole segment exists at once. Pure TypeScript on plain
// buffers (runs in a worker or on the main thread); the layout is read by view.ts. Invariants: rows
// keep input order; postings are sorted by row, packed as `row << 8 | min(tf, 255)`; dictionary
// keys are sorted ascending and unique; an image built in place is the same bytes as on its own.
import { phraseKey } from '../text/index.js';
import { Dictionary } from './dictionary.js';
import { HEADER_WORDS, SEC, sectionOffsets, writeHeader } from './layout.js';
import type { BuiltSegment, EncodedPassage, PlacedSegment, SegmentDoc, SegmentDocReader, SegmentInput } from './types.js';

/**
 * A title's phrase keys (full, and base when it has one: 0 otherwise), the nonzero ones listed in
 * `keys` (a row's entries in the phrase dictionary), its prefixes added to `prefixes`.
 */
function titleKeys(
  t: { title: Uint32Array; baseLen: number },
  prefixes: Set<number>,
): { full: number; base: number; baseLen: number; keys: Uint32Array } {
  const bl = t.baseLen > 0 && t.baseLen < t.title.length ? t.baseLen : 0;
  for (let n = 1; n <= t.title.length; n++) prefixes.add(phraseKey(t.title, 0, n));
  const full = t.title.length ? phraseKey(t.title) : 0;
  const base = bl ? phraseKey(t.title, 0, bl) : 0;
  return { full, base, baseLen: bl, keys: Uint32Array.from([full, base].filter((k) => k !== 0)) };
}

type TitleOf = { title: Uint32Array; baseLen: number };

/**
 * Reads the documents once, in order: `doc` for each (passages or not), then `visit` for each of
 * its rows (passages) with the row's index, its document's, the title it takes (its document's, or
 * in a long document its section's) and whether a section starts at it. A RangeError when the
 * documents hold more or fewer rows than announced.
 */
function eachRow(
  input: SegmentDocReader,
  visit: (row: number, di: number, p: EncodedPassage, t: TitleOf, sectionStarts: boolean) => void,
  doc?: (d: SegmentDoc) => void,
): void {
  let row = 0;
  for (let di = 0; di < input.count; di++) {
    const d = input.read(di);
    doc?.(d);
    let t: TitleOf = d;
    let s = -1;
    for (let pi = 0; pi < d.passages.length; pi++) {
      const at = s;
      while (s + 1 < d.sections.length && d.sections[s + 1].first <= pi) s++;
      if (s !== at) t = d.sections[s];
      if (row === input.rows) throw new RangeError(`the documents hold more than the ${input.rows} rows announced`);
      visit(row++, di, d.passages[pi], t, s !== at);
    }
  }
  if (row !== input.rows) throw new RangeError(`the documents hold ${row} rows, not the ${input.rows} announced`);
}

/** Builds a segment on a buffer of its own. */
export function buildSegment(input: SegmentInput): BuiltSegment;
/** Builds a segment in place in `into` (zeroed first, up to the image's size): a RangeError when it does not fit. */
export function buildSegment(input: SegmentInput, into: Uint8Array): PlacedSegment;
export function buildSegment({ docs, dim }: SegmentInput, into?: Uint8Array): BuiltSegment | PlacedSegment {
  const input: SegmentDocReader =
    'read' in docs ? docs : { count: docs.length, rows: docs.reduce((n, d) => n + d.passages.length, 0), read: (i) => docs[i] };
  const nRows = input.rows;
  if (nRows >= 1 << 24) throw new RangeError(`a segment holds at most ${(1 << 24) - 1} rows`);
  // first pass: each row's spans, lengths and title keys (its document's title, or its section's),
  // and the dictionaries counted
  const rowDoc = new Uint32Array(nRows);
  const rowStart = new Uint32Array(nRows);
  const rowEnd = new Uint32Array(nRows);
  const blen = new Float32Array(nRows);
  const tlen = new Float32Array(nRows);
  const baseLen = new Uint32Array(nRows);
  const titleKey = new Uint32Array(nRows);
  const section = new Uint32Array(nRows);
  const baseKeys = new Uint32Array(nRows);
  const prefixes = new Set<number>();
  const bodyDict = new Dictionary();
  const titleDict = new Dictionary();
  const phraseDict = new Dictionary();
  let nTokens = 0;
  let nTitle = 0;
  // the current title's keys and section row: set by each document, then by each section in it
  let keys!: ReturnType<typeof titleKeys>;
  let sectionRow = 0;
  eachRow(
    input,
    (row, di, p, t, sectionStarts) => {
      if (sectionStarts) {
        keys = titleKeys(t, prefixes);
        sectionRow = row + 1;
      }
      bodyDict.count(row, p.terms);
      titleDict.count(row, t.title);
      phraseDict.count(row, keys.keys);
      baseKeys[row] = keys.base;
      rowDoc[row] = di;
      rowStart[row] = p.start;
      rowEnd[row] = p.end;
      blen[row] = p.terms.length;
      tlen[row] = t.title.length;
      baseLen[row] = keys.baseLen;
      titleKey[row] = keys.full;
      section[row] = sectionRow;
      nTokens += p.terms.length;
      nTitle += t.title.length;
    },
    (d) => {
      keys = titleKeys(d, prefixes);
      sectionRow = 0;
    },
  );
  const prefixKeys = Uint32Array.from(prefixes).sort();

  // the image sized first, every section then written in place
  const bytes: number[] = [];
  bytes[SEC.vec] = nRows * dim;
  for (const s of [SEC.vscale, SEC.blen, SEC.tlen, SEC.baseLen, SEC.rowDoc, SEC.titleKey, SEC.rowStart, SEC.rowEnd, SEC.section])
    bytes[s] = 4 * nRows;
  bytes[SEC.seqStart] = bytes[SEC.titleStart] = bytes[SEC.seqAt] = 4 * (nRows + 1);
  bytes[SEC.seq] = bodyDict.rankKeys();
  bytes[SEC.seqKeys] = 4 * bodyDict.nKeys;
  bytes[SEC.flags] = nTokens;
  bytes[SEC.titleSeq] = 4 * nTitle;
  for (const [d, keys, start, postings] of [
    [bodyDict, SEC.termKeys, SEC.termStart, SEC.postings],
    [titleDict, SEC.tTermKeys, SEC.tTermStart, SEC.tPostings],
    [phraseDict, SEC.phraseKeys, SEC.phraseStart, SEC.phraseRows],
  ] as const) {
    bytes[keys] = 4 * d.nKeys;
    bytes[start] = 4 * (d.nKeys + 1);
    bytes[postings] = 4 * d.nPostings;
  }
  bytes[SEC.prefixKeys] = 4 * prefixKeys.length;
  const { offsets, size } = sectionOffsets(bytes);
  if (into && into.length < size) throw new RangeError(`the segment's image takes ${size} B, more than the ${into.length} B given`);
  const target = into ? into.subarray(0, size).fill(0) : new Uint8Array(size);
  const image = target.buffer;
  const at = target.byteOffset;
  writeHeader(new Uint32Array(image, at, HEADER_WORDS), nRows, dim, offsets, bytes, size);
  const u32 = (s: number) => new Uint32Array(image, at + offsets[s], bytes[s] / 4);

  const vec = new Int8Array(image, at + offsets[SEC.vec], bytes[SEC.vec]);
  const vscale = new Float32Array(image, at + offsets[SEC.vscale], nRows);
  const seqStart = u32(SEC.seqStart);
  const seq = new Uint8Array(image, at + offsets[SEC.seq], bytes[SEC.seq]);
  const seqAt = u32(SEC.seqAt);
  u32(SEC.seqKeys).set(bodyDict.keysByRank());
  const flags = new Uint8Array(image, at + offsets[SEC.flags], nTokens);
  const titleStart = u32(SEC.titleStart);
  const titleSeq = u32(SEC.titleSeq);
  bodyDict.begin(u32(SEC.termKeys), u32(SEC.termStart), u32(SEC.postings));
  titleDict.begin(u32(SEC.tTermKeys), u32(SEC.tTermStart), u32(SEC.tPostings));
  const pKeys = u32(SEC.phraseKeys);
  const pStart = u32(SEC.phraseStart);
  const pRows = u32(SEC.phraseRows);
  phraseDict.begin(pKeys, pStart, pRows);
  // second pass: the documents read again, every row's vector, sequences and postings written
  const rowKeys = new Uint32Array(2);
  eachRow(input, (row, _di, p, { title }) => {
    if (p.terms.length !== blen[row] || title.length !== tlen[row])
      throw new RangeError('the documents read a second time differ from the first');
    vec.set(p.vec, row * dim);
    vscale[row] = p.scale;
    flags.set(p.flags, seqStart[row]);
    seqStart[row + 1] = seqStart[row] + p.terms.length;
    titleSeq.set(title, titleStart[row]);
    titleStart[row + 1] = titleStart[row] + title.length;
    seqAt[row + 1] = bodyDict.place(row, p.terms, p.terms.length, seq, seqAt[row]);
    titleDict.place(row, title);
    // the row's phrase keys, as titleKeys listed them: the full title's, then the base's, each when nonzero
    let n = 0;
    if (titleKey[row] !== 0) rowKeys[n++] = titleKey[row];
    if (baseKeys[row] !== 0) rowKeys[n++] = baseKeys[row];
    phraseDict.place(row, rowKeys, n);
  });
  // a phrase posting's low byte says which title it came from: 1 full, 2 base (never both: base != full)
  for (let i = 0; i < pKeys.length; i++) {
    for (let j = pStart[i]; j < pStart[i + 1]; j++) {
      const r = pRows[j] >>> 8;
      pRows[j] = ((r << 8) | (pKeys[i] === baseKeys[r] ? 2 : 1)) >>> 0;
    }
  }
  for (const [s, from] of [
    [SEC.blen, blen],
    [SEC.tlen, tlen],
    [SEC.baseLen, baseLen],
    [SEC.rowDoc, rowDoc],
    [SEC.titleKey, titleKey],
    [SEC.prefixKeys, prefixKeys],
    [SEC.rowStart, rowStart],
    [SEC.rowEnd, rowEnd],
    [SEC.section, section],
  ] as const)
    new Uint8Array(image, at + offsets[s], bytes[s]).set(new Uint8Array(from.buffer, from.byteOffset, from.byteLength));
  const tables = { rowDoc, rowStart, rowEnd, blen, tlen };
  return into ? { ...tables, bytes: size } : { ...tables, image: image as ArrayBuffer };
}
