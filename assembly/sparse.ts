// Sparse scoring kernels: BM25 posting accumulation (all rows, recording touched rows, or marked rows only), gathers and dead-row masking.
// Invariants: a posting packs (row << 8) | tf with tf in 1..255 and postings
// sorted by row; only rows < rowLimit are touched, so docLen and scores need
// rowLimit entries. Float results only: nothing traps on any input.

// scores[row] += num * tf / (tf + c0 + c1 * docLen[row]): one posting's BM25 term, with
// c0 = k1 * (1 - b), c1 = k1 * b / avgLen and num = weight * (k1 + 1).
// @ts-ignore: decorator
@inline function bm25_add(scores: usize, docLen: usize, row: u32, tf: f32, c0: f32, c1: f32, num: f32): void {
  const off = <usize>row << 2;
  store<f32>(scores + off, load<f32>(scores + off) + num * tf / (tf + c0 + c1 * load<f32>(docLen + off)));
}

// scores[row] += weight * tf*(k1+1) / (tf + k1*(1 - b + b*docLen[row]/avgLen))
export function bm25_accumulate(postings: usize, n: i32, rowLimit: u32, docLen: usize, avgLen: f32, k1: f32, b: f32, weight: f32, scores: usize): void {
  const c0 = k1 * (<f32>1 - b), c1 = k1 * b / avgLen, num = weight * (k1 + 1);
  for (let i = 0; i < n; i++) {
    const p = load<u32>(postings + (<usize>i << 2));
    const row = p >>> 8;
    if (row >= rowLimit) break;
    bm25_add(scores, docLen, row, <f32>(p & 0xff), c0, c1, num);
  }
}

// scores[i] = -Infinity wherever flags[i] != 0.
export function mask_dead(scores: usize, n: i32, flags: usize): void {
  const z = i8x16.splat(0);
  const ninf = f32x4.splat(-Infinity);
  const cnt = <usize>n;
  let i: usize = 0;
  for (; i + 16 <= cnt; i += 16) {
    const m8 = i8x16.ne(v128.load(flags + i), z);
    if (!v128.any_true(m8)) continue;
    const lo = i16x8.extend_low_i8x16_s(m8), hi = i16x8.extend_high_i8x16_s(m8);
    const p = scores + (i << 2);
    v128.store(p, v128.bitselect(ninf, v128.load(p), i32x4.extend_low_i16x8_s(lo)));
    v128.store(p, v128.bitselect(ninf, v128.load(p, 16), i32x4.extend_high_i16x8_s(lo)), 16);
    v128.store(p, v128.bitselect(ninf, v128.load(p, 32), i32x4.extend_low_i16x8_s(hi)), 32);
    v128.store(p, v128.bitselect(ninf, v128.load(p, 48), i32x4.extend_high_i16x8_s(hi)), 48);
  }
  for (; i < cnt; i++) {
    if (load<u8>(flags + i) != 0) store<f32>(scores + (i << 2), -Infinity);
  }
}

// bm25_accumulate that also marks every row it touches (mark[row] = 1); returns how many rows it
// marked that were not marked before.
export function bm25_accumulate_touch(postings: usize, n: i32, rowLimit: u32, docLen: usize, avgLen: f32, k1: f32, b: f32, weight: f32,
  scores: usize, mark: usize): i32 {
  let added: i32 = 0;
  const c0 = k1 * (<f32>1 - b), c1 = k1 * b / avgLen, num = weight * (k1 + 1);
  for (let i = 0; i < n; i++) {
    const p = load<u32>(postings + (<usize>i << 2));
    const row = p >>> 8;
    if (row >= rowLimit) break;
    added += 1 - <i32>load<u8>(mark + row);
    store<u8>(mark + row, 1);
    bm25_add(scores, docLen, row, <f32>(p & 0xff), c0, c1, num);
  }
  return added;
}

// bm25_accumulate restricted to rows with mark[row] != 0 (the others are left as they are).
export function bm25_accumulate_marked(postings: usize, n: i32, rowLimit: u32, docLen: usize, avgLen: f32, k1: f32, b: f32, weight: f32,
  scores: usize, mark: usize): void {
  const c0 = k1 * (<f32>1 - b), c1 = k1 * b / avgLen, num = weight * (k1 + 1);
  for (let i = 0; i < n; i++) {
    const p = load<u32>(postings + (<usize>i << 2));
    const row = p >>> 8;
    if (row >= rowLimit) break;
    if (load<u8>(mark + row) == 0) continue;
    bm25_add(scores, docLen, row, <f32>(p & 0xff), c0, c1, num);
  }
}

// Writes the indices i < n with mark[i] != 0 to out, ascending; returns their count. Sixteen marks
// at a time: a lane mask of the non-zero ones, then one store per set bit.
export function marked_indices(mark: usize, n: i32, out: usize): i32 {
  const z = i8x16.splat(0);
  const cnt = <usize>n;
  let count: i32 = 0;
  let i: usize = 0;
  for (; i + 16 <= cnt; i += 16) {
    let bits = i8x16.bitmask(i8x16.ne(v128.load(mark + i), z));
    while (bits != 0) {
      store<u32>(out + (<usize>count << 2), <u32>(i + <usize>ctz(bits)));
      count++;
      bits &= bits - 1;
    }
  }
  for (; i < cnt; i++) {
    if (load<u8>(mark + i) != 0) {
      store<u32>(out + (<usize>count << 2), <u32>i);
      count++;
    }
  }
  return count;
}

// dst[i] = src[idx[i]] for i in [0, n), NaN where idx[i] >= srcLength (never reads past src).
export function gather_f32(src: usize, srcLength: u32, idx: usize, n: i32, dst: usize): void {
  for (let i = 0; i < n; i++) {
    const j = load<u32>(idx + (<usize>i << 2));
    store<f32>(dst + (<usize>i << 2), j < srcLength ? load<f32>(src + (<usize>j << 2)) : NaN);
  }
}
