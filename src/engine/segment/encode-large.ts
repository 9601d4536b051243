// A document too large for one task, encoded by several workers: a `reading` op decides how the
// whole text is read (by its heading lines, by its entries, or neither: text/ sectionReading, as
// the `encode` op's analysis decides), off the main thread; `passages` ops cut one region of the
// text each into passages and find its headings (text/ passageRegions: the regions' passages and
// headings are the whole text's);
// `encodePiece` ops analyse, encode and serialise the passages of one piece each
// (WORKERS.pieceChars of text); the `assemble` op joins the pieces' parts of the document's
// encoding behind its head, with the title the main thread read and the sections (titled there,
// from where the main thread found they start), and builds the segment from that encoding as a
// store's load does.
// Invariant: the result is byte for byte what the `encode` op makes of the same document (a
// passage's analysis and vector depend on its own text alone), so a store cannot tell the two
// apart, and each task but the reading is short enough that a search waiting behind it waits
// little (the reading, one pass over the text, takes a few hundred milliseconds for 30 MB: the
// other workers serve searches meanwhile).

import type { ModelDescriptor } from '../model/index.js';
import type { OpContext } from '../runtime/index.js';
import { analyzePassages, regionHeadings, regionPassages, sectionReading, sectionsAt } from '../text/index.js';
import { buildSegment } from './build.js';
import { denseEncoder, denseOf, stopSet } from './encode-op.js';
import { encodeRecords, joinBlob } from './encoding.js';
import { segmentDocOf } from './ops.js';
import type {
  AssembleArgs,
  EncodeResult,
  PassagesArgs,
  PassagesResult,
  PieceArgs,
  PieceResult,
  ReadingArgs,
  ReadingResult,
} from './types.js';

export function readingOp(ctx: OpContext, a: ReadingArgs): ReadingResult {
  return { reading: sectionReading(a.text, stopSet(ctx.shared as ModelDescriptor), a.title) };
}

export function passagesOp(_ctx: OpContext, a: PassagesArgs): PassagesResult {
  const headings = regionHeadings(a.text, a.region);
  const { from, before } = a.region;
  return {
    spans: Uint32Array.from(regionPassages(a.text, a.region, undefined, headings).flat()),
    headings: headings.filter((h) => h.start + from < before).map((h) => ({ start: h.start + from, title: h.title })),
  };
}

export function encodePieceOp(ctx: OpContext, a: PieceArgs): PieceResult {
  const model = ctx.shared as ModelDescriptor;
  const dim = model.params.dense?.dim ?? 0;
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < a.spans.length; i += 2) pairs.push([a.spans[i], a.spans[i + 1]]);
  const { passages } = analyzePassages(a.text, pairs, stopSet(model), a.offset);
  const { vecs, scales } = denseOf(denseEncoder(ctx, a.scratch), passages, dim);
  return { nPassages: passages.length, records: encodeRecords(passages, dim, vecs, scales) };
}

/** The document's encoding, its pieces' records joined behind its head, and its segment built from that encoding as a store's load builds it. */
export function assembleOp(ctx: OpContext, a: AssembleArgs): EncodeResult {
  const model = ctx.shared as ModelDescriptor;
  const dim = model.params.dense?.dim ?? 0;
  const nPassages = a.pieces.reduce((s, p) => s + p.nPassages, 0);
  const blob = joinBlob(
    { title: a.title, baseLen: a.baseLen, sections: sectionsAt(a.sectionStarts, nPassages, a), nPassages },
    model.fingerprint,
    dim,
    a.pieces.map((p) => p.records),
  );
  const doc = segmentDocOf(blob, model.fingerprint);
  // a passage's tokens are its terms, one each (text/analyze.ts termSeq)
  const nTokens = doc.passages.reduce((n, p) => n + p.terms.length, 0);
  return {
    docs: [{ nTokens, passages: doc.passages.map((p) => [p.start, p.end]), blob }],
    built: buildSegment({ docs: [doc], dim }),
  };
}

/** A piece's buffer. */
export const pieceMoves = (r: PieceResult): ArrayBufferLike[] => [r.records.buffer];

/** A passages result's buffers. */
export const passagesMoves = (r: PassagesResult): ArrayBufferLike[] => [r.spans.buffer];
