// The byte layout of an index segment image (built by build.ts, read by view.ts).
// Header: HEADER_WORDS u32 words: magic, nRows, dim, total bytes, then (offset, byteLength) for each
// section in SEC order. The sections follow the header in SEC order, each padded with zeros to a
// multiple of 16 bytes (so each starts as far past a 16-byte boundary as the header ends).

export const MAGIC = 0x32474553; // 'SEG2'

export const SEC = {
  vec: 0, // i8[nRows*dim]
  vscale: 1, // f32[nRows]
  blen: 2, // f32[nRows]: body terms of the row
  tlen: 3, // f32[nRows]: title terms of the row (its document's, or its section's)
  seqStart: 4, // u32[nRows+1]: where each row's terms start, counted in terms (its flags' index)
  seq: 5, // u8[]: every row's terms, concatenated, each the LEB128 code of its rank in seqKeys (codes.ts)
  flags: 6, // u8[]: flags of every term of `seq`
  titleStart: 7, // u32[nRows+1]
  titleSeq: 8, // u32[]: title term ids of every row (its document's, or its section's)
  termKeys: 9, // u32[nTerms] sorted
  termStart: 10, // u32[nTerms+1]
  postings: 11, // u32[]: row << 8 | tf
  tTermKeys: 12,
  tTermStart: 13,
  tPostings: 14,
  phraseKeys: 15, // u32[nPhrases] sorted: phraseKey of full and base titles
  phraseStart: 16,
  phraseRows: 17, // u32[]: row << 8 | kind (1 full title, 2 base title)
  baseLen: 18, // u32[nRows]: leading title terms forming the base title (0: none, or the same as the full title)
  rowDoc: 19, // u32[nRows]: index of the row's document within the segment
  titleKey: 20, // u32[nRows]: phrase key of the row's full title (0: no title); rows sharing it share a title
  prefixKeys: 21, // u32[] sorted: phrase keys of every prefix of every full and base title (for matching)
  rowStart: 22, // u32[nRows]: passage offsets in the document text (passages of a document may overlap)
  rowEnd: 23, // u32[nRows]
  section: 24, // u32[nRows]: 0 when the row takes its document's title, else 1 + the row its section starts at
  seqAt: 25, // u32[nRows+1]: where each row's codes start in seq, in bytes
  seqKeys: 26, // u32[nKeys]: the body terms by rank, the most frequent first (a code's term)
} as const;

export const SECTION_COUNT = 27;
export const HEADER_WORDS = 4 + 2 * SECTION_COUNT;

/** Byte offsets of sections of `bytes` each (SEC order), each padded to a multiple of 16 bytes after the header, and the image's size. */
export function sectionOffsets(bytes: readonly number[]): { offsets: number[]; size: number } {
  let size = HEADER_WORDS * 4;
  const offsets: number[] = [];
  for (let s = 0; s < SECTION_COUNT; s++) {
    offsets.push(size);
    size += (bytes[s] + 15) & ~15;
  }
  return { offsets, size };
}

/** Writes the header of an image of nRows rows of `dim` dimensions, its sections at `offsets` taking `bytes` each. */
export function writeHeader(
  header: Uint32Array,
  nRows: number,
  dim: number,
  offsets: readonly number[],
  bytes: readonly number[],
  size: number,
): void {
  header[0] = MAGIC;
  header[1] = nRows;
  header[2] = dim;
  header[3] = size;
  for (let s = 0; s < SECTION_COUNT; s++) {
    header[4 + 2 * s] = offsets[s];
    header[5 + 2 * s] = bytes[s];
  }
}
