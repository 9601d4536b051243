// A document too large for one task, encoded by several workers: a `reading` op decides how the
// whole text is read (by its heading lines, by its entries, or neither: text/ sectionReading, as
// the `encode` op's analysis decides), off the main thread; `encodePiece` ops each cut one region
// of the text (about WORKERS.pieceChars of it) into passages, analyse, encode and serialise them,
// and find the region's headings and analyse their titles (text/ passageRegions: the regions'
// passages and headings are the whole text's); the `assemble` op joins the pieces' parts of the
// document's encoding behind its head, with the title the main thread read and the sections
// (where the main thread found they start, titled by the pieces' analyses), and builds the
// segment from that encoding as a store's load does.
// Invariant: the result is byte for byte what the `encode` op makes of the same document (a
// passage's analysis and vector depend on its own text alone), so a store cannot tell the two
// apart, and each task but the reading is short enough that a search waiting behind it waits
// little (the reading, one pass over the text, takes a few hundred milliseconds for 30 MB: the
// other workers serve searches meanwhile).

import type { ModelDescriptor } from '../model/index.js';
import type { OpContext } from '../runtime/index.js';
import { analyzePassages, packTitles, regionHeadings, regionPassages, sectionReading, sectionsPacked } from '../text/index.js';
import { buildSegment } from './build.js';
import { denseEncoder, denseOf, stopSet } from './encode-op.js';
import { encodeRecords, joinBlob } from './encoding.js';
import { segmentDocOf } from './ops.js';
import type { AssembleArgs, AssemblePiece, EncodeResult, PieceArgs, PieceResult, ReadingArgs, ReadingResult } from './types.js';

export function readingOp(ctx: OpContext, a: ReadingArgs): ReadingResult {
  return { reading: sectionReading(a.text, stopSet(ctx.shared as ModelDescriptor), a.title) };
}

export function encodePieceOp(ctx: OpContext, a: PieceArgs): PieceResult {
  const model = ctx.shared as ModelDescriptor;
  const dim = model.params.dense?.dim ?? 0;
  const { from, before } = a.region;
  const found = regionHeadings(a.text, a.region);
  const spans = regionPassages(a.text, a.region, undefined, found);
  const { passages } = analyzePassages(a.text, spans, stopSet(model), from);
  const { vecs, scales } = denseOf(denseEncoder(ctx, a.scratch), passages, dim);
  const headings = found.filter((h) => h.start + from < before).map((h) => ({ start: h.start + from, title: h.title }));
  return {
    nPassages: passages.length,
    spans: Uint32Array.from(spans.flat()),
    records: encodeRecords(passages, dim, vecs, scales),
    headings,
    titles: packTitles(headings.map((h) => h.title)),
  };
}

/** The document's encoding, its pieces' records joined behind its head, and its segment built from that encoding as a store's load builds it. */
export function assembleOp(ctx: OpContext, a: AssembleArgs): EncodeResult {
  const model = ctx.shared as ModelDescriptor;
  const dim = model.params.dense?.dim ?? 0;
  const nPassages = a.pieces.reduce((s, p) => s + p.nPassages, 0);
  const blob = joinBlob(
    {
      title: a.title,
      baseLen: a.baseLen,
      sections: sectionsPacked(
        Array.from(a.sectionFirst, (first, i) => ({ first, index: a.sectionHeading[i] })),
        nPassages,
        a,
        a.pieces.map((p) => p.titles),
      ),
      nPassages,
    },
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

/** A piece's buffers. */
export const pieceMoves = (r: PieceResult): ArrayBufferLike[] => [r.spans.buffer, ...assembleMoves(r)];

/** The buffers of a piece that go on to the `assemble` op. */
export const assembleMoves = (r: AssemblePiece): ArrayBufferLike[] => [
  r.records.buffer,
  r.titles.terms.buffer,
  r.titles.ends.buffer,
  r.titles.baseLens.buffer,
];
