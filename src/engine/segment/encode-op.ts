// The `encode` worker op: analyses documents (passages, term sequences, titles), encodes every
// passage with the dense encoder, serialises each document's encoding (the bytes the store keeps)
// and builds the index segment of the whole chunk, so the main thread only has to copy it in.
// A document too large for one task is encoded in pieces instead (encode-large.ts), with the same
// denseOf and the encoding's records written as encodeBlob writes them, so both give the same bytes.

import type { ModelDescriptor } from '../model/index.js';
import { DenseEncoder } from '../model/index.js';
import type { OpContext } from '../runtime/index.js';
import { type AnalyzedPassage, analyzeDocument } from '../text/index.js';
import { buildSegment } from './build.js';
import { encodeBlob } from './encoding.js';
import type { EncodeArgs, EncodedDoc, EncodeResult, SegmentDoc } from './types.js';

const stopSets = new WeakMap<ModelDescriptor, Set<string>>();

export function stopSet(model: ModelDescriptor): Set<string> {
  let s = stopSets.get(model);
  if (!s) {
    s = new Set(model.params.stop);
    stopSets.set(model, s);
  }
  return s;
}

/** The model's dense encoder over a task's scratch block; none when the model has no dense part. */
export function denseEncoder(ctx: OpContext, scratch: number): DenseEncoder | undefined {
  const model = ctx.shared as ModelDescriptor;
  return model.params.dense && model.dense ? new DenseEncoder(ctx.kernels, model.dense, scratch) : undefined;
}

/** The dense vectors (n x dim int8) and scales of passages; zeros without an encoder. */
export function denseOf(
  encoder: DenseEncoder | undefined,
  passages: ReadonlyArray<Pick<AnalyzedPassage, 'terms'>>,
  dim: number,
): { vecs: Int8Array; scales: Float32Array } {
  const vecs = new Int8Array(passages.length * dim);
  const scales = new Float32Array(passages.length);
  if (encoder)
    for (let i = 0; i < passages.length; i++) scales[i] = encoder.encode(passages[i].terms, vecs.subarray(i * dim, (i + 1) * dim));
  return { vecs, scales };
}

export function encodeOp(ctx: OpContext, a: EncodeArgs): EncodeResult {
  const model = ctx.shared as ModelDescriptor;
  const dim = model.params.dense?.dim ?? 0;
  const encoder = denseEncoder(ctx, a.scratch);
  const stop = stopSet(model);
  const out: EncodedDoc[] = [];
  const segDocs: SegmentDoc[] = [];
  for (const d of a.docs) {
    const analyzed = analyzeDocument(d.text, { title: d.title }, stop);
    const { vecs, scales } = denseOf(encoder, analyzed.passages, dim);
    out.push({
      nTokens: analyzed.nTokens,
      passages: analyzed.passages.map((p) => [p.start, p.end]),
      blob: encodeBlob(analyzed, model.fingerprint, dim, vecs, scales),
    });
    segDocs.push({
      title: analyzed.title,
      baseLen: analyzed.baseLen,
      sections: analyzed.sections,
      passages: analyzed.passages.map((p, i) => ({ ...p, scale: scales[i], vec: vecs.subarray(i * dim, (i + 1) * dim) })),
    });
  }
  return { docs: out, built: buildSegment({ docs: segDocs, dim }) };
}
