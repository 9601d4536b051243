// Top-k selection over f32 score arrays.
// Invariants: the heap lives in caller memory as two parallel arrays
// (heapIdx: u32[k], heapScores: f32[k]) and is a min-heap on "goodness": its
// root is the worst kept entry, where a is worse than b when a.score < b.score
// or (a.score == b.score and a.index > b.index). NaN and -Infinity are never
// kept. Scores are only read, the heap arrays only written within [0, k).

// @ts-ignore: decorator
@inline function worse(sa: f32, ia: u32, sb: f32, ib: u32): bool {
  return sa < sb || (sa == sb && ia > ib);
}

function sift_down(hIdx: usize, hScores: usize, pos: i32, size: i32): void {
  const s = load<f32>(hScores + (<usize>pos << 2));
  const id = load<u32>(hIdx + (<usize>pos << 2));
  while (true) {
    let c = 2 * pos + 1;
    if (c >= size) break;
    let cs = load<f32>(hScores + (<usize>c << 2));
    let ci = load<u32>(hIdx + (<usize>c << 2));
    if (c + 1 < size) {
      const rs = load<f32>(hScores + (<usize>(c + 1) << 2));
      const ri = load<u32>(hIdx + (<usize>(c + 1) << 2));
      if (worse(rs, ri, cs, ci)) { c++; cs = rs; ci = ri; }
    }
    if (!worse(cs, ci, s, id)) break;
    store<f32>(hScores + (<usize>pos << 2), cs);
    store<u32>(hIdx + (<usize>pos << 2), ci);
    pos = c;
  }
  store<f32>(hScores + (<usize>pos << 2), s);
  store<u32>(hIdx + (<usize>pos << 2), id);
}

function sift_up(hIdx: usize, hScores: usize, pos: i32): void {
  const s = load<f32>(hScores + (<usize>pos << 2));
  const id = load<u32>(hIdx + (<usize>pos << 2));
  while (pos > 0) {
    const p = (pos - 1) >> 1;
    const ps = load<f32>(hScores + (<usize>p << 2));
    const pi = load<u32>(hIdx + (<usize>p << 2));
    if (!worse(s, id, ps, pi)) break;
    store<f32>(hScores + (<usize>pos << 2), ps);
    store<u32>(hIdx + (<usize>pos << 2), pi);
    pos = p;
  }
  store<f32>(hScores + (<usize>pos << 2), s);
  store<u32>(hIdx + (<usize>pos << 2), id);
}

// Offers scores[0..n) to a heap holding `count` entries (capacity k); returns the new count. Entry i
// is known by keys[i] when `keyed`, else by base + i. Pushing chunks in any order gives the same set
// as one call over the concatenation.
function push(scores: usize, n: i32, keyed: bool, keys: usize, base: u32, k: i32, hIdx: usize, hScores: usize, count: i32): i32 {
  if (k <= 0) return 0;
  let i = 0;
  for (; i < n && count < k; i++) {
    const s = load<f32>(scores + (<usize>i << 2));
    if (s > -Infinity) {
      store<f32>(hScores + (<usize>count << 2), s);
      store<u32>(hIdx + (<usize>count << 2), keyed ? load<u32>(keys + (<usize>i << 2)) : base + <u32>i);
      sift_up(hIdx, hScores, count);
      count++;
    }
  }
  if (count < k) return count;
  let rs = load<f32>(hScores);
  let ri = load<u32>(hIdx);
  for (; i < n; i++) {
    // Skip 16 scores at a time while none can enter the heap. A score equal to the root can only
    // win with a lower index, which needs the >= test (always, with keys in any order).
    if ((i & 15) == 0 && i + 16 <= n) {
      const p = scores + (<usize>i << 2);
      const t = f32x4.splat(rs);
      let m: v128;
      if (!keyed && base + <u32>i > ri) {
        m = v128.or(v128.or(f32x4.gt(v128.load(p), t), f32x4.gt(v128.load(p, 16), t)),
          v128.or(f32x4.gt(v128.load(p, 32), t), f32x4.gt(v128.load(p, 48), t)));
      } else {
        m = v128.or(v128.or(f32x4.ge(v128.load(p), t), f32x4.ge(v128.load(p, 16), t)),
          v128.or(f32x4.ge(v128.load(p, 32), t), f32x4.ge(v128.load(p, 48), t)));
      }
      if (!v128.any_true(m)) { i += 15; continue; }
    }
    const s = load<f32>(scores + (<usize>i << 2));
    const id = keyed ? load<u32>(keys + (<usize>i << 2)) : base + <u32>i;
    if (worse(rs, ri, s, id)) {
      store<f32>(hScores, s);
      store<u32>(hIdx, id);
      sift_down(hIdx, hScores, 0, k);
      rs = load<f32>(hScores);
      ri = load<u32>(hIdx);
    }
  }
  return count;
}

// push with indices base+i.
export function topk_push(scores: usize, n: i32, base: u32, k: i32, hIdx: usize, hScores: usize, count: i32): i32 {
  return push(scores, n, false, 0, base, k, hIdx, hScores, count);
}

// Sorts a heap built by topk_push in place, best first.
export function topk_sort(hIdx: usize, hScores: usize, count: i32): void {
  for (let end = count - 1; end > 0; end--) {
    const s = load<f32>(hScores), id = load<u32>(hIdx);
    store<f32>(hScores, load<f32>(hScores + (<usize>end << 2)));
    store<u32>(hIdx, load<u32>(hIdx + (<usize>end << 2)));
    store<f32>(hScores + (<usize>end << 2), s);
    store<u32>(hIdx + (<usize>end << 2), id);
    sift_down(hIdx, hScores, 0, end);
  }
}

// Best k of scores[0..n) into outIdx/outScores, best first; returns the count.
export function topk(scores: usize, n: i32, k: i32, outIdx: usize, outScores: usize): i32 {
  const c = topk_push(scores, n, 0, k, outIdx, outScores, 0);
  topk_sort(outIdx, outScores, c);
  return c;
}

// Best k of scores[0..n) where entry i stands for keys[i] (a row): into outIdx (the keys) and
// outScores, best first, ties to the lower key; returns the count. The same selection as topk over
// a buffer indexed by key, whatever order the keys come in.
export function topk_keyed(scores: usize, keys: usize, n: i32, k: i32, outIdx: usize, outScores: usize): i32 {
  const c = push(scores, n, true, keys, 0, k, outIdx, outScores, 0);
  topk_sort(outIdx, outScores, c);
  return c;
}
