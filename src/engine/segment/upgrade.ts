// A segment image of the layout before a row's terms were coded ('SEG1': 25 sections, `seq` a u32
// term id per term) brought to today's layout (layout.ts), so that an index snapshot written by an
// earlier release opens without its index being built again from every document. The image is
// sized first (its terms' occurrences summed from its body postings, or counted from its
// sequences where a posting's tf was capped, and ranked as a build ranks them:
// rankByOccurrences), then written into the block `place` gives for that size. Invariants: the
// result is the same bytes as buildSegment writes from the same rows; every section but seq,
// seqAt and seqKeys is copied as it was; an image of another magic, or whose sections do not hold
// together, throws a SegmentUpgradeError (before `place` is called, but for a term missing from
// its dictionary, found while the codes are written: the block placed is then the caller's to
// free).
import { putCode } from './codes.js';
import { rankByOccurrences, slotOf } from './dictionary.js';
import { HEADER_WORDS, SEC, SECTION_COUNT, sectionOffsets, writeHeader } from './layout.js';

/** The earlier layout: its magic and sections (today's SEC 0 to 24, in the same order). */
const SEG1_MAGIC = 0x31474553; // 'SEG1'
const SEG1_SECTIONS = 25;
const SEG1_HEADER_WORDS = 4 + 2 * SEG1_SECTIONS;

export class SegmentUpgradeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SegmentUpgradeError';
  }
}

/**
 * The index of each key in `keys` (distinct u32s), -1 for a key not among them: an open-addressing
 * table at most half full, Fibonacci hashing, each slot the key's index + 1 (0: free).
 */
function keyIndex(keys: Uint32Array): (key: number) => number {
  let bits = 1;
  while (1 << bits < 2 * keys.length) bits++;
  const shift = 32 - bits;
  const mask = (1 << bits) - 1;
  const slots = new Int32Array(1 << bits);
  for (let k = 0; k < keys.length; k++) {
    let s = slotOf(keys[k], shift);
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = k + 1;
  }
  return (key) => {
    for (let s = slotOf(key, shift); ; s = (s + 1) & mask) {
      const k = slots[s];
      if (k === 0 || keys[k - 1] === key) return k - 1;
    }
  };
}

/**
 * Writes the image `old` (SEG1, aligned to 4 bytes) in today's layout into `place(size)`, a block
 * of at least `size` bytes; returns the size.
 */
export function upgradeImage(old: Uint8Array, place: (size: number) => Uint8Array): number {
  if (old.length < 4 * SEG1_HEADER_WORDS || old.byteOffset % 4)
    throw new SegmentUpgradeError('a segment image too short to hold its header');
  const h = new Uint32Array(old.buffer, old.byteOffset, SEG1_HEADER_WORDS);
  if (h[0] !== SEG1_MAGIC) throw new SegmentUpgradeError(`not an earlier segment image (magic ${h[0].toString(16)})`);
  const [, nRows, dim] = h;
  const sections = Array.from({ length: SEG1_SECTIONS }, (_, s) => {
    const [at, bytes] = [h[4 + 2 * s], h[5 + 2 * s]];
    if (at % 4 || at + bytes > old.length) throw new SegmentUpgradeError(`section ${s} lies past the image`);
    return old.subarray(at, at + bytes);
  });
  const u32 = (s: number) => new Uint32Array(old.buffer, sections[s].byteOffset, sections[s].length >>> 2);
  const seqStart = u32(SEC.seqStart);
  const ids = u32(SEC.seq);
  const keys = u32(SEC.termKeys);
  const termStart = u32(SEC.termStart);
  const postings = u32(SEC.postings);
  if (seqStart.length !== nRows + 1 || seqStart[nRows] !== ids.length || seqStart[0] !== 0)
    throw new SegmentUpgradeError('the row starts do not match the terms');
  for (let r = 0; r < nRows; r++) if (seqStart[r + 1] < seqStart[r]) throw new SegmentUpgradeError(`row ${r} ends before it starts`);
  if (termStart.length !== keys.length + 1 || termStart[keys.length] !== postings.length)
    throw new SegmentUpgradeError('the term starts do not match the postings');

  // each term's occurrences: its postings' tf summed, or, when one was capped, counted
  const indexOf = keyIndex(keys);
  const occ = new Uint32Array(keys.length);
  let capped = false;
  for (let k = 0; k < keys.length; k++) {
    let n = 0;
    for (let j = termStart[k]; j < termStart[k + 1]; j++) {
      const tf = postings[j] & 255;
      n += tf;
      capped ||= tf === 255;
    }
    occ[k] = n;
  }
  if (capped) {
    occ.fill(0);
    for (let i = 0; i < ids.length; i++) {
      const k = indexOf(ids[i]);
      if (k < 0) throw new SegmentUpgradeError(`term ${ids[i]} is not in the segment's dictionary`);
      occ[k]++;
    }
  }
  const { rankOf, byRank, bytes: codeBytes } = rankByOccurrences(occ, keys, keys.length);
  const terms = occ.reduce((n, o) => n + o, 0);
  if (terms !== ids.length) throw new SegmentUpgradeError(`the postings count ${terms} terms, the sequences ${ids.length}`);
  const bytes = Array.from({ length: SECTION_COUNT }, (_, s) => (s < SEG1_SECTIONS ? h[5 + 2 * s] : 0));
  bytes[SEC.seq] = codeBytes;
  bytes[SEC.seqAt] = 4 * (nRows + 1);
  bytes[SEC.seqKeys] = 4 * keys.length;
  const { offsets, size } = sectionOffsets(bytes);

  const target = place(size).subarray(0, size).fill(0);
  if (target.length < size || target.byteOffset % 4)
    throw new RangeError(`the block for an upgraded segment holds less than its ${size} B`);
  const image = target.buffer;
  const at = target.byteOffset;
  writeHeader(new Uint32Array(image, at, HEADER_WORDS), nRows, dim, offsets, bytes, size);
  for (let s = 0; s < SEG1_SECTIONS; s++) if (s !== SEC.seq) target.set(sections[s], offsets[s]);
  const codes = new Uint8Array(image, at + offsets[SEC.seq], codeBytes);
  const seqAt = new Uint32Array(image, at + offsets[SEC.seqAt], nRows + 1);
  let w = 0;
  for (let r = 0; r < nRows; r++) {
    for (let i = seqStart[r]; i < seqStart[r + 1]; i++) {
      const k = indexOf(ids[i]);
      if (k < 0) throw new SegmentUpgradeError(`term ${ids[i]} of row ${r} is not in the segment's dictionary`);
      w = putCode(codes, w, rankOf[k]);
    }
    seqAt[r + 1] = w;
  }
  if (w !== codeBytes) throw new SegmentUpgradeError("the sequences' terms occur otherwise than the postings say");
  new Uint32Array(image, at + offsets[SEC.seqKeys], keys.length).set(byRank);
  return size;
}
