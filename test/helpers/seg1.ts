// The index snapshot format before a segment's terms were coded, written for tests from today's:
// a segment image in the SEG1 layout (25 sections, `seq` a u32 term id per term, the header of 54
// words; every other section as today's), and a persist stream of FORMAT 1 (today's stream with
// each image so written and its block's size in the JSON header). What the release before wrote,
// so that the upgrade (src/engine/segment/upgrade.ts) is checked against it byte for byte.
import { Buffer } from 'node:buffer';
import { decodeTerms, HEADER_WORDS, SEC } from '../../src/engine/segment/index.js';

const SEG1_MAGIC = 0x31474553;
const SEG1_SECTIONS = 25;
const SEG1_HEADER_BYTES = 4 * (4 + 2 * SEG1_SECTIONS);

/** Today's image `image` (4-byte aligned) in the SEG1 layout. */
export function seg1Image(image: Uint8Array): Uint8Array {
  const h = new Uint32Array(image.buffer, image.byteOffset, HEADER_WORDS);
  const [, nRows, dim] = h;
  const section = (s: number) => image.subarray(h[4 + 2 * s], h[4 + 2 * s] + h[5 + 2 * s]);
  const u32 = (s: number) => new Uint32Array(image.buffer, image.byteOffset + h[4 + 2 * s], h[5 + 2 * s] / 4);
  const seqStart = u32(SEC.seqStart);
  const seqAt = u32(SEC.seqAt);
  const keys = u32(SEC.seqKeys);
  const codes = section(SEC.seq);
  const ids = new Uint32Array(seqStart[nRows]);
  for (let r = 0; r < nRows; r++)
    decodeTerms(codes, seqAt[r], seqAt[r + 1], keys, 0, keys.length, ids.subarray(seqStart[r], seqStart[r + 1]));
  const sections = Array.from({ length: SEG1_SECTIONS }, (_, s) => (s === SEC.seq ? new Uint8Array(ids.buffer) : section(s)));
  const offsets: number[] = [];
  let size = SEG1_HEADER_BYTES;
  for (const b of sections) {
    offsets.push(size);
    size += (b.length + 15) & ~15;
  }
  const out = new Uint8Array(size);
  const head = new Uint32Array(out.buffer, 0, SEG1_HEADER_BYTES / 4);
  head.set([SEG1_MAGIC, nRows, dim, size]);
  sections.forEach((b, s) => {
    head[4 + 2 * s] = offsets[s];
    head[5 + 2 * s] = b.length;
    out.set(b, offsets[s]);
  });
  return out;
}

/** A persist stream of today's format (StoreIndex.persist) as FORMAT 1 wrote it. */
export function format1Stream(stream: Uint8Array): Buffer {
  let at = 0;
  const take = (n: number) => {
    at += n;
    return stream.subarray(at - n, at);
  };
  const head = new Uint32Array(Uint8Array.from(take(12)).buffer);
  const header = JSON.parse(Buffer.from(take(head[2])).toString('utf8')) as {
    segments: Array<{ nRows: number; block: number }>;
  };
  const body: Uint8Array[] = [];
  for (const seg of header.segments) {
    const old = seg1Image(Uint8Array.from(take(seg.block)));
    seg.block = old.length;
    body.push(old);
    // its dead flags (a byte a row, at least one) and six arrays of a u32 or f32 a row
    body.push(take(Math.max(seg.nRows, 1) + 6 * 4 * seg.nRows));
  }
  body.push(stream.subarray(at));
  const json = Buffer.from(JSON.stringify(header));
  return Buffer.concat([Buffer.from(new Uint32Array([head[0], 1, json.length]).buffer), json, ...body]);
}
