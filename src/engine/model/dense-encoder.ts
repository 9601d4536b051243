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

/**
 * A thread's lookups for a model's vocabulary. `keys`/`rows`: the vocabulary's term ids in an
 * open-addressing table (at most VOCAB_FILL full) giving each one's row, so a term's row costs a
 * probe or two instead of a binary search of the sorted vocabulary (one per token of every text
 * encoded).
 * `place`: per row, its place in an encode's term list, else -1; an encode sets the places of the
 * rows it meets and resets them before it returns, and encodes never interleave on a thread, so
 * every encoder of the same tables can share them (a search makes an encoder for its question).
 */
interface VocabLookup {
  keys: Uint32Array;
  /** row + 1 per slot; 0: an empty slot */
  rows: Int32Array;
  shift: number;
  place: Int32Array;
}

const lookups = new WeakMap<DenseTables, VocabLookup>();

/** The vocabulary table is at most this full (8 bytes a slot, per thread). */
const VOCAB_FILL = 0.6;

/** The slot a term id's probe starts at (Fibonacci hashing: the top bits of the product). */
const slotOf = (term: number, shift: number) => Math.imul(term, 0x9e3779b1) >>> shift;

function lookupOf(kernels: WasmKernels, tables: DenseTables): VocabLookup {
  let lookup = lookups.get(tables);
  if (lookup) return lookup;
  const vocab = kernels.views.u32At(tables.vocab, tables.size);
  const bits = Math.max(4, Math.ceil(Math.log2(Math.max(tables.size, 1) / VOCAB_FILL)));
  const keys = new Uint32Array(1 << bits);
  const rows = new Int32Array(1 << bits);
  const shift = 32 - bits;
  const mask = (1 << bits) - 1;
  for (let r = 0; r < vocab.length; r++) {
    let s = slotOf(vocab[r], shift);
    while (rows[s] !== 0) s = (s + 1) & mask;
    keys[s] = vocab[r];
    rows[s] = r + 1;
  }
  lookup = { keys, rows, shift, place: new Int32Array(tables.size).fill(-1) };
  lookups.set(tables, lookup);
  return lookup;
}

export class DenseEncoder {
  private readonly ids = new Uint32Array(MAX_TERMS);
  private readonly ws = new Float32Array(MAX_TERMS);
  private readonly lookup: VocabLookup;
  readonly dim: number;

  constructor(
    private readonly kernels: WasmKernels,
    private readonly tables: DenseTables,
    private readonly scratch: number,
  ) {
    this.dim = tables.dim;
    this.lookup = lookupOf(kernels, tables);
  }

  /** Row of a term in the vocabulary, or -1. */
  private row(term: number): number {
    const { keys, rows, shift } = this.lookup;
    const mask = rows.length - 1;
    for (let s = slotOf(term, shift); rows[s] !== 0; s = (s + 1) & mask) if (keys[s] === term) return rows[s] - 1;
    return -1;
  }

  /** Encodes a text's term ids into `out` (int8, dim bytes); returns its scale (0: no known term). */
  encode(terms: ArrayLike<number>, out: Int8Array): number {
    const { dim, size } = this.tables;
    const k = this.kernels;
    const weights = k.views.f32At(this.tables.weights, size);
    const place = this.lookup.place;
    let n = 0;
    for (let i = 0; i < terms.length && i < MAX_TERMS; i++) {
      const r = this.row(terms[i]);
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
