// The types of index segments: the documents a segment is built from, the built image with its
// per-row arrays, the persisted encoding of a document, and the arguments and results of the
// segment ops (encode, build, merge) that cross to the workers.
import type { Heading, PackedTitles, PassageRegion, Section, SectionReading } from '../text/index.js';

/**
 * One document's rows: its passages, its title terms, how many leading title terms form its base
 * title (the title without a trailing parenthetical, a prefix of the full title; 0: none), and its
 * sections (a long document's: each passage from a section's `first` on takes the section's title).
 */
export interface SegmentDoc {
  title: Uint32Array;
  baseLen: number;
  sections: Section[];
  passages: EncodedPassage[];
}

/** The head of a document's encoding: what precedes its passages' records. */
export interface EncodingHead {
  title: Uint32Array;
  baseLen: number;
  sections: Section[];
  nPassages: number;
}

/**
 * Documents a segment is built from, read on demand (a merge reads them from its sources): `read`
 * is called for each document in order, twice (build.ts), and must give the same content both
 * times; it may make fresh objects each time.
 */
export interface SegmentDocReader {
  count: number;
  /** the documents' passages, in all */
  rows: number;
  read(i: number): SegmentDoc;
}

export interface SegmentInput {
  docs: readonly SegmentDoc[] | SegmentDocReader;
  dim: number;
}

/** A segment's per-row arrays (the image aside). */
export interface SegmentTables {
  /** For each row, the index of its document in `docs` (non-decreasing). */
  rowDoc: Uint32Array;
  /** Passage offsets of each row in its document's text. */
  rowStart: Uint32Array;
  rowEnd: Uint32Array;
  /** Body and title lengths (terms) of each row, for live statistics. */
  blen: Float32Array;
  tlen: Float32Array;
}

/** A segment built on its own buffer (`image`), to be copied into shared memory. */
export interface BuiltSegment extends SegmentTables {
  image: ArrayBuffer;
}

/** A segment whose image was written in place, in a block of shared memory (a merge's: MergeArgs.into). */
export interface PlacedSegment extends SegmentTables {
  /** the image's size, from the block's start (the rest of the block is not part of it) */
  bytes: number;
}

export interface EncodedPassage {
  start: number;
  end: number;
  scale: number;
  vec: Int8Array;
  terms: Uint32Array;
  flags: Uint8Array;
}

export interface PostingRange {
  /** Absolute byte pointer of the first posting (u32 `row << 8 | tf`). */
  ptr: number;
  count: number;
}

export interface BuildArgs {
  blobs: Uint8Array[];
  fingerprint: number;
  dim: number;
}

export interface MergeArgs {
  sources: MergeSource[];
  dim: number;
  /** The block of shared memory the merged image is written in (its size bounds the image's). */
  into: { ptr: number; bytes: number };
}

export interface MergeResult {
  placed: PlacedSegment;
  /** For each merged row: source index << 24 | source row. */
  rowSource: Uint32Array;
}

export interface EncodeArgs {
  docs: Array<{ text: string; title?: unknown }>;
  scratch: number;
}

export interface EncodedDoc {
  nTokens: number;
  passages: Array<[number, number]>;
  blob: Uint8Array;
}

export interface EncodeResult {
  docs: EncodedDoc[];
  built: BuiltSegment;
}

/** The `reading` op of a document encoded in pieces (encode-large.ts): the whole text, and its title (text/ documentTitle, its metadata's first). */
export interface ReadingArgs {
  text: string;
  title: string;
}

export interface ReadingResult {
  reading: SectionReading;
}

/** One piece of a large document: a region of its text (text.slice(region.from, region.to)). */
export interface PieceArgs {
  text: string;
  region: PassageRegion;
  scratch: number;
}

/**
 * A piece's passages found, analysed and encoded: their offsets ([start, end) pairs in the
 * document's offsets, flat), their records of the document's encoding (encoding.ts
 * encodeRecords), and the region's headings (the document's offsets; none unless it is read by its
 * headings or entries) with their titles analysed.
 */
export interface PieceResult {
  nPassages: number;
  spans: Uint32Array;
  records: Uint8Array;
  headings: Heading[];
  titles: PackedTitles;
}

/** What the `assemble` op reads of a piece: its buffers move to the worker, and nothing else of it is sent. */
export type AssemblePiece = Pick<PieceResult, 'nPassages' | 'records' | 'titles'>;

/**
 * The pieces of one document, in order, with its title: the `assemble` op makes its encoding and
 * segment. Where its sections start (text/ sectionStarts, the headings' text left out) as two
 * arrays that move: section i starts at passage `sectionFirst[i]` and is titled by heading
 * `sectionHeading[i]` of the pieces' `titles`, numbered across the pieces.
 */
export interface AssembleArgs {
  pieces: AssemblePiece[];
  title: Uint32Array;
  baseLen: number;
  sectionFirst: Uint32Array;
  sectionHeading: Uint32Array;
}

/** A segment a merge reads: its image and dead flags in shared memory, and its per-row offsets and document slots. */
export interface MergeSource {
  base: number;
  dead: number;
  nRows: number;
  rowStart: Uint32Array;
  rowEnd: Uint32Array;
  rowSlot: Uint32Array;
}
