// The `encode` worker op: analyses documents (passages, term sequences, titles), encodes every
// passage with the dense encoder, serialises each document's encoding (the bytes the store keeps)
// and builds the index segment of the whole chunk, so the main thread only has to copy it in.

import type { ModelDescriptor } from '../model/index.js';
import { DenseEncoder } from '../model/index.js';
import type { OpContext } from '../runtime/index.js';
import { type AnalyzedDoc, analyzeDocument } from '../text/index.js';
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

export function encodeOp(ctx: OpContext, a: EncodeArgs): EncodeResult {
  const model = ctx.shared as ModelDescriptor;
  const dense = model.params.dense;
  const dim = dense?.dim ?? 0;
  const encoder = dense && model.dense ? new DenseEncoder(ctx.kernels, model.dense, a.scratch) : undefined;
  const stop = stopSet(model);
  const out: EncodedDoc[] = [];
  const segDocs: SegmentDoc[] = [];
  for (const d of a.docs) {
    const analyzed: AnalyzedDoc = analyzeDocument(d.text, { title: d.title }, stop);
    const n = analyzed.passages.length;
    const vecs = new Int8Array(n * dim);
    const scales = new Float32Array(n);
    if (encoder) {
      analyzed.passages.forEach((p, i) => {
        scales[i] = encoder.encode(p.terms, vecs.subarray(i * dim, (i + 1) * dim));
      });
    }
    out.push({
      nTokens: analyzed.nTokens,
      passages: analyzed.passages.map((p) => [p.start, p.end]),
      blob: encodeBlob(analyzed, model.fingerprint, dim, vecs, scales),
    });
    segDocs.push({
      title: analyzed.title,
      baseLen: analyzed.baseLen,
      passages: analyzed.passages.map((p, i) => ({ ...p, scale: scales[i], vec: vecs.subarray(i * dim, (i + 1) * dim) })),
    });
  }
  return { docs: out, built: buildSegment({ docs: segDocs, dim }) };
}
