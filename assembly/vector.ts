// Single-vector f32 kernels: normalisation, int8 quantisation, axpy.
// Invariants: operate in place or into caller buffers of exactly `dim`/`n`
// elements; never trap (float->int conversions saturate, NaN becomes 0).

// @ts-ignore: decorator
@inline function hsum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3);
}

// Scales v to unit L2 norm in place and returns the norm it had; a zero vector is left as is.
export function l2_normalize(v: usize, dim: i32): f32 {
  const n = <usize>dim << 2;
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0);
  let j: usize = 0;
  for (; j + 32 <= n; j += 32) {
    const x = v128.load(v + j), y = v128.load(v + j, 16);
    a0 = f32x4.add(a0, f32x4.mul(x, x));
    a1 = f32x4.add(a1, f32x4.mul(y, y));
  }
  let ss = hsum(f32x4.add(a0, a1));
  for (; j < n; j += 4) { const x = load<f32>(v + j); ss += x * x; }
  const norm = Mathf.sqrt(ss);
  if (norm == 0) return 0;
  const inv = <f32>1 / norm;
  const iv = f32x4.splat(inv);
  j = 0;
  for (; j + 16 <= n; j += 16) v128.store(v + j, f32x4.mul(v128.load(v + j), iv));
  for (; j < n; j += 4) store<f32>(v + j, load<f32>(v + j) * inv);
  return norm;
}

// dst[0..dim) = round(src / scale) in [-127, 127]; returns scale = max|src| / 127
// (0 for a zero vector, whose dst is all zeros), so that src ~= scale * dst.
export function quantize_i8(src: usize, dim: i32, dst: usize): f32 {
  const d = <usize>dim;
  let m = f32x4.splat(0);
  let j: usize = 0;
  for (; j + 4 <= d; j += 4) m = f32x4.max(m, f32x4.abs(v128.load(src + (j << 2))));
  let mx = Mathf.max(Mathf.max(f32x4.extract_lane(m, 0), f32x4.extract_lane(m, 1)),
    Mathf.max(f32x4.extract_lane(m, 2), f32x4.extract_lane(m, 3)));
  for (; j < d; j++) mx = Mathf.max(mx, Mathf.abs(load<f32>(src + (j << 2))));
  const inv: f32 = mx > 0 ? <f32>127 / mx : 0;
  const iv = f32x4.splat(inv);
  const lo = i32x4.splat(-127), hi = i32x4.splat(127);
  j = 0;
  for (; j + 16 <= d; j += 16) {
    const p = src + (j << 2);
    const q0 = i32x4.min_s(hi, i32x4.max_s(lo, i32x4.trunc_sat_f32x4_s(f32x4.nearest(f32x4.mul(v128.load(p), iv)))));
    const q1 = i32x4.min_s(hi, i32x4.max_s(lo, i32x4.trunc_sat_f32x4_s(f32x4.nearest(f32x4.mul(v128.load(p, 16), iv)))));
    const q2 = i32x4.min_s(hi, i32x4.max_s(lo, i32x4.trunc_sat_f32x4_s(f32x4.nearest(f32x4.mul(v128.load(p, 32), iv)))));
    const q3 = i32x4.min_s(hi, i32x4.max_s(lo, i32x4.trunc_sat_f32x4_s(f32x4.nearest(f32x4.mul(v128.load(p, 48), iv)))));
    v128.store(dst + j, i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(q0, q1), i16x8.narrow_i32x4_s(q2, q3)));
  }
  for (; j < d; j++) {
    const x = <i32>nearest<f32>(load<f32>(src + (j << 2)) * inv);
    store<i8>(dst + j, <i8>min(127, max(-127, x)));
  }
  return mx > 0 ? mx / 127 : 0;
}

// y[0..n) += a * x[0..n)
export function axpy_f32(n: i32, a: f32, x: usize, y: usize): void {
  const bytes = <usize>n << 2;
  const av = f32x4.splat(a);
  let j: usize = 0;
  for (; j + 16 <= bytes; j += 16) v128.store(y + j, f32x4.add(v128.load(y + j), f32x4.mul(v128.load(x + j), av)));
  for (; j < bytes; j += 4) store<f32>(y + j, load<f32>(y + j) + load<f32>(x + j) * a);
}

// Number of scores[0..n) strictly greater than v (NaN never counts): the 0-based rank of a score
// equal to v among them.
export function count_above(scores: usize, n: i32, v: f32): i32 {
  const bytes = <usize>n << 2;
  const vv = f32x4.splat(v);
  let acc = i32x4.splat(0);
  let j: usize = 0;
  for (; j + 16 <= bytes; j += 16) acc = i32x4.sub(acc, f32x4.gt(v128.load(scores + j), vv));
  let c = i32x4.extract_lane(acc, 0) + i32x4.extract_lane(acc, 1) + i32x4.extract_lane(acc, 2) + i32x4.extract_lane(acc, 3);
  for (; j < bytes; j += 4) if (load<f32>(scores + j) > v) c++;
  return c;
}

// Largest of scores[0..n) (-Infinity for n == 0; NaN entries are ignored).
export function max_f32(scores: usize, n: i32): f32 {
  const bytes = <usize>n << 2;
  let m = f32x4.splat(-Infinity);
  let j: usize = 0;
  for (; j + 16 <= bytes; j += 16) {
    const x = v128.load(scores + j);
    m = v128.bitselect(x, m, f32x4.gt(x, m));
  }
  let r = Mathf.max(Mathf.max(f32x4.extract_lane(m, 0), f32x4.extract_lane(m, 1)), Mathf.max(f32x4.extract_lane(m, 2), f32x4.extract_lane(m, 3)));
  for (; j < bytes; j += 4) {
    const x = load<f32>(scores + j);
    if (x > r) r = x;
  }
  return r;
}

// Histogram of scores[0..n) over `bins` equal-width bins spanning [lo, hi): out[b] counts the
// scores in bin b; scores below lo (and NaN) are not counted, scores >= hi go to the last bin.
export function histogram_f32(scores: usize, n: i32, lo: f32, hi: f32, bins: i32, out: usize): void {
  for (let b = 0; b < bins; b++) store<u32>(out + (<usize>b << 2), 0);
  if (bins <= 0 || !(hi > lo)) return;
  const scale: f32 = <f32>bins / (hi - lo);
  const vlo = f32x4.splat(lo), vscale = f32x4.splat(scale);
  const vmax = i32x4.splat(bins - 1), none = i32x4.splat(-1);
  const bytes = <usize>n << 2;
  let j: usize = 0;
  for (; j + 16 <= bytes; j += 16) {
    const x = v128.load(scores + j);
    // bin index, or -1 below lo (NaN compares false, so it is dropped too)
    const b = v128.bitselect(i32x4.min_s(vmax, i32x4.trunc_sat_f32x4_s(f32x4.mul(f32x4.sub(x, vlo), vscale))), none, f32x4.ge(x, vlo));
    if (!v128.any_true(i32x4.ne(b, none))) continue;
    const b0 = i32x4.extract_lane(b, 0), b1 = i32x4.extract_lane(b, 1), b2 = i32x4.extract_lane(b, 2), b3 = i32x4.extract_lane(b, 3);
    if (b0 >= 0) { const p = out + (<usize>b0 << 2); store<u32>(p, load<u32>(p) + 1); }
    if (b1 >= 0) { const p = out + (<usize>b1 << 2); store<u32>(p, load<u32>(p) + 1); }
    if (b2 >= 0) { const p = out + (<usize>b2 << 2); store<u32>(p, load<u32>(p) + 1); }
    if (b3 >= 0) { const p = out + (<usize>b3 << 2); store<u32>(p, load<u32>(p) + 1); }
  }
  for (; j < bytes; j += 4) {
    const x = load<f32>(scores + j);
    if (!(x >= lo)) continue;
    let b = <i32>((x - lo) * scale);
    if (b >= bins) b = bins - 1;
    const p = out + (<usize>b << 2);
    store<u32>(p, load<u32>(p) + 1);
  }
}

// Largest of a[i] - b[i] over i in [0, n) (-Infinity for n == 0; NaN differences ignored).
export function max_diff_f32(a: usize, b: usize, n: i32): f32 {
  let r: f32 = -Infinity;
  for (let i = 0; i < n; i++) {
    const d = load<f32>(a + (<usize>i << 2)) - load<f32>(b + (<usize>i << 2));
    if (d > r) r = d;
  }
  return r;
}

// dst[0..n) = value (bytes): one bulk-memory fill, far faster than a typed array's fill over
// shared memory, which stores byte by byte.
export function fill_bytes(dst: usize, value: u8, n: usize): void {
  memory.fill(dst, value, n);
}

// dst[0..n) = src[0..n) (bytes; the ranges may overlap): one bulk-memory copy.
export function copy_bytes(dst: usize, src: usize, n: usize): void {
  memory.copy(dst, src, n);
}
