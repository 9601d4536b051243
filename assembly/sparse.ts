// Sparse scoring kernels: BM25 posting accumulation (all rows, marking and listing touched rows, or
// marked rows only, from the postings or from the listed rows' sequences, term ids or codes),
// gathers, and copies, sums, masks and zeroing of listed rows, and dead-row masking.
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

// dst[r] = a[r] + w * b[r] for every r = rows[i], i in [0, n), with r < limit (the others are
// skipped): a sum of fields over the rows a scan listed. f32 elements.
export function sum_rows_f32(dst: usize, a: usize, b: usize, w: f32, rows: usize, n: i32, limit: u32): void {
  for (let i = 0; i < n; i++) {
    const r = load<u32>(rows + (<usize>i << 2));
    if (r < limit) store<f32>(dst + (<usize>r << 2), load<f32>(a + (<usize>r << 2)) + w * load<f32>(b + (<usize>r << 2)));
  }
}

// scores[r] = -Infinity for every r = rows[i], i in [0, n), with lo <= r < hi and flags[r - lo] != 0:
// mask_dead over the rows a scan listed, for one segment's flags (lo its first global row).
export function mask_rows(scores: usize, rows: usize, n: i32, lo: u32, hi: u32, flags: usize): void {
  for (let i = 0; i < n; i++) {
    const r = load<u32>(rows + (<usize>i << 2));
    if (r >= lo && r < hi && load<u8>(flags + <usize>(r - lo)) != 0) store<f32>(scores + (<usize>r << 2), -Infinity);
  }
}

// Puts a later scan's rows back (r = rows[i], r < limit; the others skipped): for i in [0, kept),
// scores[r] = was[i] where now[i] differs from it bit for bit (now: the scores gathered at
// rows[0..kept), was: what they were before the scan), the others left unwritten; for i in [kept, n), scores[r] = 0
// and marks[r] = 0. Reads its lists in order and writes only the rows the scan changed.
export function put_back_rows(scores: usize, marks: usize, rows: usize, now: usize, was: usize, kept: i32, n: i32, limit: u32): void {
  for (let i = 0; i < kept; i++) {
    const o = <usize>i << 2;
    const w = load<u32>(was + o);
    if (load<u32>(now + o) == w) continue;
    const r = load<u32>(rows + o);
    if (r < limit) store<u32>(scores + (<usize>r << 2), w);
  }
  for (let i = kept; i < n; i++) {
    const r = load<u32>(rows + (<usize>i << 2));
    if (r >= limit) continue;
    store<f32>(scores + (<usize>r << 2), 0);
    store<u8>(marks + <usize>r, 0);
  }
}

// dst[r] = 0 for every r = rows[i], i in [0, n), with r < limit; elements of `width` bytes (1 or 4):
// hands a scan's rows back clean.
export function zero_rows(dst: usize, rows: usize, n: i32, limit: u32, width: u32): void {
  for (let i = 0; i < n; i++) {
    const r = load<u32>(rows + (<usize>i << 2));
    if (r >= limit) continue;
    if (width == 4) store<f32>(dst + (<usize>r << 2), 0);
    else store<u8>(dst + <usize>r, 0);
  }
}

// bm25_accumulate_marked for k terms at once, read from the listed rows' term sequences instead of
// the terms' postings: for every r = rows[i], i in [0, n), with lo <= r < hi (one segment, local row
// r - lo), counts each of terms[0..k) in seq[seqStart[r - lo] .. seqStart[r - lo + 1]) (never past
// seqLength; capped at 255, as a posting packs tf; counts: u32[k] of scratch), then adds each
// counted term's BM25 (weights[j]) in term order. Where the listed rows are the marked ones, the
// same sums as bm25_accumulate_marked over each term in turn; it reads the rows' lengths, not the
// postings.
export function bm25_accumulate_rows(rows: usize, n: i32, lo: u32, hi: u32, seqStart: usize, seq: usize, seqLength: u32, terms: usize, weights: usize,
  k: i32, counts: usize, docLen: usize, avgLen: f32, k1: f32, b: f32, scores: usize): void {
  const c0 = k1 * (<f32>1 - b), c1 = k1 * b / avgLen, kp1 = k1 + 1;
  const kk = <usize>k;
  for (let i = 0; i < n; i++) {
    const r = load<u32>(rows + (<usize>i << 2));
    if (r < lo || r >= hi) continue;
    const local = r - lo;
    for (let j: usize = 0; j < kk; j++) store<u32>(counts + (j << 2), 0);
    const to = <usize>min<u32>(load<u32>(seqStart + ((<usize>local + 1) << 2)), seqLength);
    const from = <usize>min<u32>(load<u32>(seqStart + (<usize>local << 2)), <u32>to);
    for (let p = from; p < to; p++) {
      count_term(terms, kk, counts, load<u32>(seq + (p << 2)));
    }
    add_counted(counts, weights, kk, local, docLen, c0, c1, kp1, scores);
  }
}

// counts[j] += 1 for every j < kk with terms[j] == t.
// @ts-ignore: decorator
@inline function count_term(terms: usize, kk: usize, counts: usize, t: u32): void {
  for (let j: usize = 0; j < kk; j++) {
    if (load<u32>(terms + (j << 2)) == t) {
      const at = counts + (j << 2);
      store<u32>(at, load<u32>(at) + 1);
    }
  }
}

// Adds each counted term's BM25 (counts[j] occurrences, weights[j]) to the row's score, in term
// order (the caller zeroes counts before each row).
// @ts-ignore: decorator
@inline function add_counted(counts: usize, weights: usize, kk: usize, row: u32, docLen: usize, c0: f32, c1: f32, kp1: f32, scores: usize): void {
  for (let j: usize = 0; j < kk; j++) {
    const tf = load<u32>(counts + (j << 2));
    if (tf == 0) continue;
    const num = load<f32>(weights + (j << 2)) * kp1;
    bm25_add(scores, docLen, row, <f32>min<u32>(tf, 255), c0, c1, num);
  }
}

// bm25_accumulate_rows over a segment's coded sequences (src/engine/segment/codes.ts): row r - lo's
// terms are the LEB128 codes in codes[seqAt[r - lo] .. seqAt[r - lo + 1]) (never past codesLength),
// each the rank of its term in keys[0..nKeys) (a rank past them is no term). The same sums as
// bm25_accumulate_rows over the decoded sequences.
export function bm25_accumulate_rows_coded(rows: usize, n: i32, lo: u32, hi: u32, seqAt: usize, codes: usize, codesLength: u32, keys: usize,
  nKeys: u32, terms: usize, weights: usize, k: i32, counts: usize, docLen: usize, avgLen: f32, k1: f32, b: f32, scores: usize): void {
  const c0 = k1 * (<f32>1 - b), c1 = k1 * b / avgLen, kp1 = k1 + 1;
  const kk = <usize>k;
  for (let i = 0; i < n; i++) {
    const r = load<u32>(rows + (<usize>i << 2));
    if (r < lo || r >= hi) continue;
    const local = r - lo;
    for (let j: usize = 0; j < kk; j++) store<u32>(counts + (j << 2), 0);
    const to = <usize>min<u32>(load<u32>(seqAt + ((<usize>local + 1) << 2)), codesLength);
    let p = <usize>min<u32>(load<u32>(seqAt + (<usize>local << 2)), <u32>to);
    while (p < to) {
      let byte = <u32>load<u8>(codes + p++);
      let rank = byte & 0x7f;
      for (let shift: u32 = 7; (byte & 0x80) != 0 && p < to && shift < 32; shift += 7) {
        byte = <u32>load<u8>(codes + p++);
        rank |= (byte & 0x7f) << shift;
      }
      if (rank < nKeys) count_term(terms, kk, counts, load<u32>(keys + (<usize>rank << 2)));
    }
    add_counted(counts, weights, kk, local, docLen, c0, c1, kp1, scores);
  }
}
