// The persisted encoding of one document: everything the index needs to rebuild the document's
// rows without re-reading its text. Little-endian, 4-byte aligned:
//   u32 magic 'SVE2' | u32 model fingerprint | u32 dim | u32 nPassages
//   u32 nTitle | u32 title[nTitle] | u32 baseLen (leading title terms of the base title)
//   u32 nSections | per section: u32 first passage | u32 baseLen | u32 nTitle | u32 title[nTitle]
//   per passage: u32 start | u32 end | f32 scale | i8 vec[dim] (padded to 4)
//                u32 nTerms | u32 terms[nTerms] | u8 flags[nTerms] (padded to 4)
// A blob of another model (fingerprint) or format is refused, never misread; one of the format
// before sections ('SVE1': no section table) is read as a document without sections.
import type { AnalyzedDoc, AnalyzedPassage, Section } from '../text/index.js';
import type { EncodedPassage, EncodingHead, SegmentDoc } from './types.js';

const MAGIC = 0x32455653; // 'SVE2'
const MAGIC_NO_SECTIONS = 0x31455653; // 'SVE1'

export class EncodingFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncodingFormatError';
  }
}

const pad4 = (n: number) => (n + 3) & ~3;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

const headSize = (title: Uint32Array, sections: readonly Section[]) =>
  4 * 4 + 4 + 4 * title.length + 4 + 4 + sections.reduce((n, s) => n + 12 + 4 * s.title.length, 0);
const recordSize = (p: AnalyzedPassage, dim: number) => 12 + pad4(dim) + 4 + 4 * p.terms.length + pad4(p.terms.length);

export function encodedSize(doc: AnalyzedDoc, dim: number): number {
  let n = headSize(doc.title, doc.sections);
  for (const p of doc.passages) n += recordSize(p, dim);
  return n;
}

/** Writes the head of an encoding at the start of `bytes`; returns where the passages' records begin. */
function writeHead(bytes: Uint8Array, h: EncodingHead, fingerprint: number, dim: number): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 0;
  const put = (v: number) => {
    dv.setUint32(o, v, true);
    o += 4;
  };
  const putAll = (vs: Uint32Array) => {
    put(vs.length);
    for (const v of vs) put(v);
  };
  put(MAGIC);
  put(fingerprint >>> 0);
  put(dim);
  put(h.nPassages);
  putAll(h.title);
  put(h.baseLen);
  put(h.sections.length);
  for (const s of h.sections) {
    put(s.first);
    put(s.baseLen);
    putAll(s.title);
  }
  return o;
}

/** Writes the passages' records at `o` of `bytes` (each passage's vector and scale from `vecs` and `scales`, in order). */
function writeRecords(
  bytes: Uint8Array,
  o: number,
  passages: ReadonlyArray<AnalyzedPassage>,
  dim: number,
  vecs: Int8Array,
  scales: Float32Array,
): void {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  passages.forEach((p, i) => {
    dv.setUint32(o, p.start, true);
    dv.setUint32(o + 4, p.end, true);
    dv.setFloat32(o + 8, scales[i], true);
    o += 12;
    bytes.set(new Uint8Array(vecs.buffer, vecs.byteOffset + i * dim, dim), o);
    o += pad4(dim);
    dv.setUint32(o, p.terms.length, true);
    o += 4;
    for (const v of p.terms) {
      dv.setUint32(o, v, true);
      o += 4;
    }
    bytes.set(p.flags, o);
    o += pad4(p.flags.length);
  });
}

/** Serialises an analysed document with its passage vectors (int8 + scale per passage). */
export function encodeBlob(doc: AnalyzedDoc, fingerprint: number, dim: number, vecs: Int8Array, scales: Float32Array): Uint8Array {
  const bytes = new Uint8Array(encodedSize(doc, dim));
  const head = { title: doc.title, baseLen: doc.baseLen, sections: doc.sections, nPassages: doc.passages.length };
  writeRecords(bytes, writeHead(bytes, head, fingerprint, dim), doc.passages, dim, vecs, scales);
  return bytes;
}

/** The passages' records of an encoding alone (the part after its head), for a document encoded in pieces (joinBlob). */
export function encodeRecords(passages: ReadonlyArray<AnalyzedPassage>, dim: number, vecs: Int8Array, scales: Float32Array): Uint8Array {
  const bytes = new Uint8Array(passages.reduce((n, p) => n + recordSize(p, dim), 0));
  writeRecords(bytes, 0, passages, dim, vecs, scales);
  return bytes;
}

/** The encoding of a document from its head's fields and its passages' records in parts, in order: encodeBlob's bytes. */
export function joinBlob(head: EncodingHead, fingerprint: number, dim: number, records: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(headSize(head.title, head.sections) + records.reduce((n, r) => n + r.length, 0));
  let o = writeHead(bytes, head, fingerprint, dim);
  for (const r of records) {
    bytes.set(r, o);
    o += r.length;
  }
  return bytes;
}

/**
 * Blobs copied, each at a 4-byte boundary, into one buffer: views into it, and the buffer. Sent to
 * a worker with the buffer moved, a store's load makes one allocation per chunk instead of one per
 * document on each side, and `decodeBlob` reads every blob in place.
 */
export function packBlobs(blobs: readonly Uint8Array[]): { blobs: Uint8Array[]; buffer: ArrayBuffer } {
  let total = 0;
  for (const b of blobs) total += pad4(b.byteLength);
  const buffer = new ArrayBuffer(total);
  const out: Uint8Array[] = [];
  let o = 0;
  for (const b of blobs) {
    const view = new Uint8Array(buffer, o, b.byteLength);
    view.set(b);
    out.push(view);
    o += pad4(b.byteLength);
  }
  return { blobs: out, buffer };
}

/**
 * The document a blob encodes. Its arrays are views into the blob where the platform's byte order
 * and the blob's alignment allow (copies otherwise): what holds them holds the blob, and the blob
 * must not change while they are read. Building a segment from thousands of blobs (a store's load)
 * then makes no small allocation per passage.
 */
export function decodeBlob(blob: Uint8Array, fingerprint: number): SegmentDoc {
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  let o = 0;
  const u32 = () => {
    if (o + 4 > blob.byteLength) throw new EncodingFormatError('encoding is truncated');
    const v = dv.getUint32(o, true);
    o += 4;
    return v;
  };
  const u32s = () => {
    const n = u32();
    if (o + 4 * n > blob.byteLength) throw new EncodingFormatError('encoding is truncated');
    let a: Uint32Array;
    if (LITTLE_ENDIAN && (blob.byteOffset + o) % 4 === 0) a = new Uint32Array(blob.buffer, blob.byteOffset + o, n);
    else {
      a = new Uint32Array(n);
      for (let i = 0; i < n; i++) a[i] = dv.getUint32(o + 4 * i, true);
    }
    o += 4 * n;
    return a;
  };
  const magic = u32();
  if (magic !== MAGIC && magic !== MAGIC_NO_SECTIONS) throw new EncodingFormatError('not an svc document encoding');
  const fp = u32();
  if (fp !== fingerprint >>> 0) throw new EncodingFormatError(`encoding made by another model (fingerprint ${fp.toString(16)})`);
  const dim = u32();
  const n = u32();
  const title = u32s();
  const baseLen = u32();
  const sections: Section[] = [];
  const nSections = magic === MAGIC ? u32() : 0;
  for (let i = 0; i < nSections; i++) {
    const first = u32();
    const sectionBase = u32();
    sections.push({ first, baseLen: sectionBase, title: u32s() });
  }
  const passages: EncodedPassage[] = [];
  for (let i = 0; i < n; i++) {
    const start = u32();
    const end = u32();
    const scale = dv.getFloat32(o, true);
    o += 4;
    if (o + pad4(dim) > blob.byteLength) throw new EncodingFormatError('encoding is truncated');
    const vec = new Int8Array(blob.buffer, blob.byteOffset + o, dim);
    o += pad4(dim);
    const terms = u32s();
    if (o + terms.length > blob.byteLength) throw new EncodingFormatError('encoding is truncated');
    const flags = blob.subarray(o, o + terms.length);
    o += pad4(terms.length);
    passages.push({ start, end, scale, vec, terms, flags });
  }
  return { title, baseLen, sections, passages };
}
