// The dense encoder: a text becomes the weighted sum of the embedding rows of its terms (a learned
// weight per vocabulary term, times the term's count), L2-normalised and quantised to int8 with a
// scale, so the dot product of two encodings (times both scales) is their cosine. Terms outside the
// vocabulary contribute nothing. Runs wherever kernels are; needs a scratch block of
// denseScratchBytes(dim) bytes for one text at a time.

import type { WasmKernels } from '../runtime/index.js';
import type { DenseTables } from './types.js';

/** Terms of one text taken into account (longer texts keep their first MAX_TERMS). */
export const MAX_TERMS = 4096;

export function denseScratchBytes(dim: number): number {
  return MAX_TERMS * 8 + dim * 4 + ((dim + 15) & ~15);
}

const places = new WeakMap<DenseTables, Int32Array>();

/**
 * The thread's array of places for a model's vocabulary: an encode sets the places of the rows it
 * meets and resets them before it returns, and encodes never interleave on a thread, so every
 * encoder of the same tables can share one (a search makes an encoder for its question).
 */
function placeOf(tables: DenseTables): Int32Array {
  let place = places.get(tables);
  if (!place) {
    place = new Int32Array(tables.size).fill(-1);
    places.set(tables, place);
  }
  return place;
}

export class DenseEncoder {
  private readonly ids = new Uint32Array(MAX_TERMS);
  private readonly ws = new Float32Array(MAX_TERMS);
  /** Per vocabulary row, its place in `ids` during an encode, else -1 (placeOf: shared by the thread's encoders of the same tables). */
  private readonly place: Int32Array;
  readonly dim: number;

  constructor(
    private readonly kernels: WasmKernels,
    private readonly tables: DenseTables,
    private readonly scratch: number,
  ) {
    this.dim = tables.dim;
    this.place = placeOf(tables);
  }

  /** Row of a term in the vocabulary (sorted term ids), or -1. */
  private row(vocab: Uint32Array, term: number): number {
    let lo = 0;
    let hi = vocab.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = vocab[mid];
      if (v === term) return mid;
      if (v < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Encodes a text's term ids into `out` (int8, dim bytes); returns its scale (0: no known term). */
  encode(terms: ArrayLike<number>, out: Int8Array): number {
    const { dim, size } = this.tables;
    const k = this.kernels;
    const weights = k.views.f32At(this.tables.weights, size);
    const vocab = k.views.u32At(this.tables.vocab, size);
    const place = this.place;
    let n = 0;
    for (let i = 0; i < terms.length && i < MAX_TERMS; i++) {
      const r = this.row(vocab, terms[i]);
      if (r < 0) continue;
      const j = place[r];
      if (j >= 0) {
        this.ws[j] += weights[r];
        continue;
      }
      place[r] = n;
      this.ids[n] = r;
      this.ws[n++] = weights[r];
    }
    for (let j = 0; j < n; j++) place[this.ids[j]] = -1;
    if (n === 0) {
      out.fill(0);
      return 0;
    }
    const idsPtr = this.scratch;
    const wsPtr = idsPtr + MAX_TERMS * 4;
    const vecPtr = wsPtr + MAX_TERMS * 4;
    const qPtr = vecPtr + dim * 4;
    k.views.write(idsPtr, this.ids.subarray(0, n));
    k.views.write(wsPtr, this.ws.subarray(0, n));
    k.poolI8(this.tables.table, this.tables.scales, size, dim, idsPtr, wsPtr, n, vecPtr);
    if (k.l2Normalize(vecPtr, dim) === 0) {
      out.fill(0);
      return 0;
    }
    const scale = k.quantizeI8(vecPtr, dim, qPtr);
    out.set(k.views.i8At(qPtr, dim));
    return scale;
  }
}

/** Cosine of two int8 encodings with their scales. */
export function cosineI8(a: Int8Array, sa: number, b: Int8Array, sb: number): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i] * b[i];
  return d * sa * sb;
}
