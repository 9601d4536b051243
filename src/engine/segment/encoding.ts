// The persisted encoding of one document: everything the index needs to rebuild the document's
// rows without re-reading its text. Little-endian, 4-byte aligned:
//   u32 magic 'SVE1' | u32 model fingerprint | u32 dim | u32 nPassages
//   u32 nTitle | u32 title[nTitle] | u32 baseLen (leading title terms of the base title)
//   per passage: u32 start | u32 end | f32 scale | i8 vec[dim] (padded to 4)
//                u32 nTerms | u32 terms[nTerms] | u8 flags[nTerms] (padded to 4)
// A blob of another model (fingerprint) or format is refused, never misread.
import type { AnalyzedDoc } from '../text/index.js';
import type { DecodedDoc, EncodedPassage } from './types.js';

const MAGIC = 0x31455653; // 'SVE1'

export class EncodingFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncodingFormatError';
  }
}

const pad4 = (n: number) => (n + 3) & ~3;

export function encodedSize(doc: AnalyzedDoc, dim: number): number {
  let n = 4 * 4 + 4 + 4 * doc.title.length + 4;
  for (const p of doc.passages) n += 12 + pad4(dim) + 4 + 4 * p.terms.length + pad4(p.terms.length);
  return n;
}

/** Serialises an analysed document with its passage vectors (int8 + scale per passage). */
export function encodeBlob(doc: AnalyzedDoc, fingerprint: number, dim: number, vecs: Int8Array, scales: Float32Array): Uint8Array {
  const buf = new ArrayBuffer(encodedSize(doc, dim));
  const dv = new DataView(buf);
  const bytes = new Uint8Array(buf);
  let o = 0;
  const u32 = (v: number) => {
    dv.setUint32(o, v, true);
    o += 4;
  };
  const u32s = (a: Uint32Array) => {
    u32(a.length);
    for (const v of a) u32(v);
  };
  u32(MAGIC);
  u32(fingerprint >>> 0);
  u32(dim);
  u32(doc.passages.length);
  u32s(doc.title);
  u32(doc.baseLen);
  doc.passages.forEach((p, i) => {
    u32(p.start);
    u32(p.end);
    dv.setFloat32(o, scales[i], true);
    o += 4;
    bytes.set(new Uint8Array(vecs.buffer, vecs.byteOffset + i * dim, dim), o);
    o += pad4(dim);
    u32s(p.terms);
    bytes.set(p.flags, o);
    o += pad4(p.flags.length);
  });
  return bytes;
}

export function decodeBlob(blob: Uint8Array, fingerprint: number): DecodedDoc {
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
    const a = new Uint32Array(n);
    for (let i = 0; i < n; i++) a[i] = dv.getUint32(o + 4 * i, true);
    o += 4 * n;
    return a;
  };
  if (u32() !== MAGIC) throw new EncodingFormatError('not an svc document encoding');
  const fp = u32();
  if (fp !== fingerprint >>> 0) throw new EncodingFormatError(`encoding made by another model (fingerprint ${fp.toString(16)})`);
  const dim = u32();
  const n = u32();
  const title = u32s();
  const baseLen = u32();
  const passages: EncodedPassage[] = [];
  for (let i = 0; i < n; i++) {
    const start = u32();
    const end = u32();
    const scale = dv.getFloat32(o, true);
    o += 4;
    if (o + pad4(dim) > blob.byteLength) throw new EncodingFormatError('encoding is truncated');
    const vec = new Int8Array(blob.buffer.slice(blob.byteOffset + o, blob.byteOffset + o + dim));
    o += pad4(dim);
    const terms = u32s();
    if (o + terms.length > blob.byteLength) throw new EncodingFormatError('encoding is truncated');
    const flags = blob.slice(o, o + terms.length);
    o += pad4(terms.length);
    passages.push({ start, end, scale, vec, terms, flags });
  }
  return { title, baseLen, passages };
}
