// Stand-in passage vectors for the ANN comparison while svc's model has no dense part: a sparse
// random projection of hashed TF-IDF (each term adds ±idf·(1+ln tf) on 8 of the dimensions its hash
// picks), L2-normalised and quantised to int8 the way svc stores dense encodings (per-row scale).
// They have the structure of text (similar passages get similar vectors, queries land near their
// passages), unlike uniform random vectors, which are the worst case for any ANN index; those are
// offered too, and low-rank vectors (intrinsic dimension 32) as the kind learned encoders tend to
// produce. Invariants: deterministic; every vector has `dim` dimensions; int8 values are in
// [-127, 127] with scale = max|x| / 127 (0 vector: scale 0).

import { STOP_WORDS } from './peer-text.js';
import { hashString, rng } from './synth-corpus.js';

const STOP = new Set(STOP_WORDS);
const NNZ = 8;

export class TextProjector {
  private readonly df = new Map<string, number>();
  private readonly nDocs: number;

  /** `sample`: texts to estimate document frequencies from. */
  constructor(
    readonly dim: number,
    sample: string[],
  ) {
    for (const t of sample) for (const w of new Set(terms(t))) this.df.set(w, (this.df.get(w) ?? 0) + 1);
    this.nDocs = sample.length;
  }

  vector(text: string): Float32Array {
    const tf = new Map<string, number>();
    for (const w of terms(text)) tf.set(w, (tf.get(w) ?? 0) + 1);
    const v = new Float32Array(this.dim);
    for (const [w, n] of tf) {
      const idf = Math.log(1 + this.nDocs / ((this.df.get(w) ?? 0) + 1));
      const weight = idf * (1 + Math.log(n));
      let h = hashString(w);
      for (let j = 0; j < NNZ; j++) {
        h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
        v[h % this.dim] += h & 0x80000000 ? weight : -weight;
      }
    }
    return normalize(v);
  }
}

function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w));
}

export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return v;
}

/** A unit vector with independent Gaussian components. */
export function randomVector(dim: number, next: () => number): Float32Array {
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - next())),
      a = 2 * Math.PI * next();
    v[i] = r * Math.cos(a);
    if (i + 1 < dim) v[i + 1] = r * Math.sin(a);
  }
  return normalize(v);
}

export { rng };

/**
 * Vectors with a low intrinsic dimension, as learned encoders tend to produce: a fixed random
 * dim x rank map of a Gaussian point, plus 10% isotropic noise, normalised.
 */
export class LowRankVectors {
  private readonly map: Float32Array;

  constructor(
    readonly dim: number,
    readonly rank: number,
    seed = 7,
  ) {
    const next = rng(seed);
    this.map = new Float32Array(dim * rank);
    for (let i = 0; i < this.map.length; i++) this.map[i] = next() * 2 - 1;
  }

  vector(next: () => number): Float32Array {
    const z = randomVector(this.rank, next);
    const noise = randomVector(this.dim, next);
    const v = new Float32Array(this.dim);
    for (let i = 0; i < this.dim; i++) {
      let s = 0;
      for (let j = 0; j < this.rank; j++) s += this.map[i * this.rank + j] * z[j];
      v[i] = s / Math.sqrt(this.rank) + 0.1 * noise[i];
    }
    return normalize(v);
  }
}

/** int8 quantisation into `out` at `offset`; returns the scale (max|x| / 127). */
export function quantize(v: Float32Array, out: Int8Array, offset: number): number {
  let m = 0;
  for (const x of v) m = Math.max(m, Math.abs(x));
  if (m === 0) return 0;
  const k = 127 / m;
  for (let i = 0; i < v.length; i++) out[offset + i] = Math.round(v[i] * k);
  return m / 127;
}
