// A document too large for one task, encoded by several workers: `passages` ops cut one region of
// the text each into passages (text/ passageRegions: the regions' passages are the whole text's);
// `encodePiece` ops analyse, encode and serialise the passages of one piece each
// (WORKERS.pieceChars of text); the `assemble` op joins the pieces' parts of the document's
// encoding behind its head and builds its segment, in order, with the title the main thread read.
// Invariant: the result is byte for byte what the `encode` op makes of the same document (a
// passage's analysis and vector depend on its own text alone), so a store cannot tell the two
// apart, and each task is short enough that a search waiting behind it waits little.

import type { ModelDescriptor } from '../model/index.js';
import type { OpContext } from '../runtime/index.js';
import { type AnalyzedPassage, analyzePassages, regionPassages } from '../text/index.js';
import { buildSegment } from './build.js';
import { denseEncoder, denseOf, encodedDoc, segmentDoc, stopSet } from './encode-op.js';
import { encodeRecords, joinBlob } from './encoding.js';
import { builtMoves } from './ops.js';
import type { AssembleArgs, EncodeResult, PassagesArgs, PassagesResult, PieceArgs, PieceResult } from './types.js';

export function passagesOp(_ctx: OpContext, a: PassagesArgs): PassagesResult {
  return { spans: Uint32Array.from(regionPassages(a.text, a.region).flat()) };
}

export function encodePieceOp(ctx: OpContext, a: PieceArgs): PieceResult {
  const model = ctx.shared as ModelDescriptor;
  const dim = model.params.dense?.dim ?? 0;
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < a.spans.length; i += 2) pairs.push([a.spans[i], a.spans[i + 1]]);
  const { passages, nTokens } = analyzePassages(a.text, pairs, stopSet(model), a.offset);
  const { vecs, scales } = denseOf(denseEncoder(ctx, a.scratch), passages, dim);
  const termEnds = new Uint32Array(passages.length);
  let total = 0;
  passages.forEach((p, i) => {
    total += p.terms.length;
    termEnds[i] = total;
  });
  const terms = new Uint32Array(total);
  const flags = new Uint8Array(total);
  passages.forEach((p, i) => {
    const from = i ? termEnds[i - 1] : 0;
    terms.set(p.terms, from);
    flags.set(p.flags, from);
  });
  const records = encodeRecords(passages, dim, vecs, scales);
  return { spans: Uint32Array.from(a.spans), termEnds, terms, flags, vecs, scales, nTokens, records };
}

export function assembleOp(ctx: OpContext, a: AssembleArgs): EncodeResult {
  const model = ctx.shared as ModelDescriptor;
  const dim = model.params.dense?.dim ?? 0;
  const n = a.pieces.reduce((s, p) => s + p.scales.length, 0);
  const passages: AnalyzedPassage[] = [];
  const vecs = new Int8Array(n * dim);
  const scales = new Float32Array(n);
  let nTokens = 0;
  for (const p of a.pieces) {
    vecs.set(p.vecs, passages.length * dim);
    scales.set(p.scales, passages.length);
    for (let i = 0; i < p.scales.length; i++) {
      const from = i ? p.termEnds[i - 1] : 0;
      const to = p.termEnds[i];
      passages.push({
        start: p.spans[2 * i],
        end: p.spans[2 * i + 1],
        terms: p.terms.subarray(from, to),
        flags: p.flags.subarray(from, to),
      });
    }
    nTokens += p.nTokens;
  }
  const analyzed = { passages, nTokens, title: a.title, baseLen: a.baseLen };
  const blob = joinBlob(
    { title: a.title, baseLen: a.baseLen, nPassages: n },
    model.fingerprint,
    dim,
    a.pieces.map((p) => p.records),
  );
  return { docs: [encodedDoc(analyzed, blob)], built: buildSegment({ docs: [segmentDoc(analyzed, { vecs, scales }, dim)], dim }) };
}

/** A piece's buffers, all its own. */
export const pieceMoves = (r: PieceResult): ArrayBufferLike[] =>
  [r.spans, r.termEnds, r.terms, r.flags, r.vecs, r.scales, r.records].map((x) => x.buffer);

/** A passages result's buffers. */
export const passagesMoves = (r: PassagesResult): ArrayBufferLike[] => [r.spans.buffer];

/** An assembled document's segment and encoding. */
export const assembleMoves = (r: EncodeResult): ArrayBufferLike[] => [...builtMoves(r.built), r.docs[0].blob.buffer];
