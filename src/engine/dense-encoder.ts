// The dense encoder: a passage or query becomes the weighted sum of the embedding-table rows of its
// features (each word form, and its character n-grams, hashed into `buckets` rows), L2-normalised
// and quantised to int8 with a scale. Runs wherever kernels are (workers); needs a scratch block of
// denseScratchBytes(dim) bytes for the features of one text at a time.
import type { DenseParams, DenseTables } from './model.js';
import { hash32 } from './tokenize.js';
import type { WasmKernels } from './wasm-kernels.js';

export const MAX_FEATURES = 16384;

export function denseScratchBytes(dim: number): number {
  return MAX_FEATURES * 8 + dim * 4 + ((dim + 15) & ~15);
}

/** Bucket ids and weights of the features of `forms` (word rows weigh 1, n-gram rows `ngramWeight`). */
export function denseFeatures(forms: readonly string[], p: DenseParams, ids: Uint32Array, ws: Float32Array): number {
  let n = 0;
  for (const f of forms) {
    if (n >= MAX_FEATURES) break;
    ids[n] = hash32(f, 0x9e3779b9) % p.buckets;
    ws[n++] = 1;
    if (p.ngrams.length === 0) continue;
    const w = `<${f}>`;
    for (const g of p.ngrams) {
      for (let i = 0; i + g <= w.length && n < MAX_FEATURES; i++) {
        ids[n] = hash32(w.slice(i, i + g), 0x85ebca6b) % p.buckets;
        ws[n++] = p.ngramWeight;
      }
    }
  }
  return n;
}

export class DenseEncoder {
  private readonly ids: Uint32Array;
  private readonly ws: Float32Array;

  constructor(
    private readonly kernels: WasmKernels,
    private readonly params: DenseParams,
    private readonly tables: DenseTables,
    private readonly scratch: number,
  ) {
    this.ids = new Uint32Array(MAX_FEATURES);
    this.ws = new Float32Array(MAX_FEATURES);
  }

  /** Encodes one text's word forms into `out` (int8, dim bytes); returns its scale (0 for no features). */
  encode(forms: readonly string[], out: Int8Array): number {
    const { dim, buckets } = this.params;
    const k = this.kernels;
    const n = denseFeatures(forms, this.params, this.ids, this.ws);
    const idsPtr = this.scratch;
    const wsPtr = idsPtr + MAX_FEATURES * 4;
    const vecPtr = wsPtr + MAX_FEATURES * 4;
    const qPtr = vecPtr + dim * 4;
    // term weights scale each feature
    const tw = k.views.f32At(this.tables.weights, buckets);
    for (let i = 0; i < n; i++) this.ws[i] *= tw[this.ids[i]];
    k.views.write(idsPtr, this.ids.subarray(0, n));
    k.views.write(wsPtr, this.ws.subarray(0, n));
    k.poolI8(this.tables.table, this.tables.scales, buckets, dim, idsPtr, wsPtr, n, vecPtr);
    if (k.l2Normalize(vecPtr, dim) === 0) {
      out.fill(0);
      return 0;
    }
    const scale = k.quantizeI8(vecPtr, dim, qPtr);
    out.set(k.views.i8At(qPtr, dim));
    return scale;
  }
}
