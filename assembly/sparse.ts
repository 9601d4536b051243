// Sparse scoring kernels: BM25 posting accumulation (all rows, marking and listing touched rows, or
// marked rows only), gathers, copies of listed rows and dead-row masking.
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

// bm25_accumulate that also marks every row it touches (mark[row] = 1) and lists the rows it
// newly marks, as rowBase + row, in list[0..cap) (in the order met; none past cap, and the entry
// after the last may be overwritten); returns how many rows it newly marked.
export function bm25_accumulate_touch(postings: usize, n: i32, rowLimit: u32, docLen: usize, avgLen: f32, k1: f32, b: f32, weight: f32,
  scores: usize, mark: usize, list: usize, cap: u32, rowBase: u32): i32 {
  let added: u32 = 0;
  const c0 = k1 * (<f32>1 - b), c1 = k1 * b / avgLen, num = weight * (k1 + 1);
  for (let i = 0; i < n; i++) {
    const p = load<u32>(postings + (<usize>i << 2));
    const row = p >>> 8;
    if (row >= rowLimit) break;
    // branch-free: the row is written at the list's end and kept only when it was not marked
    if (added < cap) store<u32>(list + (<usize>added << 2), rowBase + row);
    added += 1 - <u32>load<u8>(mark + row);
    store<u8>(mark + row, 1);
    bm25_add(scores, docLen, row, <f32>(p & 0xff), c0, c1, num);
  }
  return <i32>added;
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

// dst[i] = src[idx[i]] for i in [0, n), NaN where idx[i] >= srcLength (never reads past src).
export function gather_f32(src: usize, srcLength: u32, idx: usize, n: i32, dst: usize): void {
  for (let i = 0; i < n; i++) {
    const j = load<u32>(idx + (<usize>i << 2));
    store<f32>(dst + (<usize>i << 2), j < srcLength ? load<f32>(src + (<usize>j << 2)) : NaN);
  }
}

// dst[r] = src[r] for every r = rows[i], i in [0, n), with r < limit (the others are skipped): puts
// back the rows a scan changed. f32 elements.
export function copy_rows_f32(dst: usize, src: usize, rows: usize, n: i32, limit: u32): void {
  for (let i = 0; i < n; i++) {
    const r = load<u32>(rows + (<usize>i << 2));
    if (r < limit) store<f32>(dst + (<usize>r << 2), load<f32>(src + (<usize>r << 2)));
  }
}

// The same over u8 elements.
export function copy_rows_u8(dst: usize, src: usize, rows: usize, n: i32, limit: u32): void {
  for (let i = 0; i < n; i++) {
    const r = load<u32>(rows + (<usize>i << 2));
    if (r < limit) store<u8>(dst + <usize>r, load<u8>(src + <usize>r));
  }
}
