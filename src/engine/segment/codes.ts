// A segment's term sequences as codes: each term of a row written as the LEB128 code of its rank
// among the segment's body terms (the most frequent first, layout.ts SEC.seqKeys), so that the
// common terms take one or two bytes rather than a u32 each. The kernels read the same codes
// (assembly/sparse.ts bm25_accumulate_rows_coded).
// Invariants: a code is 1 to 5 bytes, 7 bits each, low bits first, the high bit set on every byte
// but the last; decoding never reads outside [from, to) of the bytes given, and a rank past the
// keys decodes to term 0.

/** Bytes of the code of `rank`. */
export function codeLength(rank: number): number {
  return rank < 1 << 7 ? 1 : rank < 1 << 14 ? 2 : rank < 1 << 21 ? 3 : rank < 1 << 28 ? 4 : 5;
}

/** Writes the code of `rank` at `at`; returns where the next code goes. */
export function putCode(bytes: Uint8Array, at: number, rank: number): number {
  let v = rank >>> 0;
  while (v >= 0x80) {
    bytes[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  bytes[at++] = v;
  return at;
}

/**
 * Decodes the terms coded in bytes[from, to) into `out`, at most `max` of them: keys[keysAt + rank]
 * for each code (the term ids by rank, nKeys of them). Returns how many it wrote.
 */
export function decodeTerms(
  bytes: Uint8Array,
  from: number,
  to: number,
  keys: Uint32Array,
  keysAt: number,
  nKeys: number,
  out: Uint32Array,
  max = out.length,
): number {
  let n = 0;
  let at = from;
  while (at < to && n < max) {
    let b = bytes[at++];
    let rank = b & 0x7f;
    for (let scale = 0x80; b & 0x80 && at < to; scale *= 0x80) {
      b = bytes[at++];
      rank += (b & 0x7f) * scale;
    }
    out[n++] = rank < nKeys ? keys[keysAt + rank] : 0;
  }
  return n;
}
