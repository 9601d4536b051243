// The engine's segment room: the byte layout of an immutable index segment, building one from
// encoded documents (its term sequences coded: codes.ts), reading one in shared memory
// (SegmentView), the persisted encoding of a document, when to merge segments, and the worker ops
// that encode documents and build and merge segments; an image of the layout before, upgraded.
export { buildSegment } from './build.js';
export { codeLength, decodeTerms, putCode } from './codes.js';
export { Dictionary } from './dictionary.js';
export { assembleMoves, assembleOp, encodePieceOp, pieceMoves, readingOp } from './encode-large.js';
export { encodeOp, stopSet } from './encode-op.js';
export { decodeBlob, EncodingFormatError, encodeBlob, encodedSize, packBlobs } from './encoding.js';
export { HEADER_WORDS, MAGIC, SEC, SECTION_COUNT } from './layout.js';
export { mergePlan } from './merge-policy.js';
export { buildOp, builtMoves, encodeMoves, mergeMoves, mergeOp } from './ops.js';
export type * from './types.js';
export { SegmentUpgradeError, upgradeImage } from './upgrade.js';
export { SegmentView } from './view.js';
