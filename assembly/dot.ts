// Dense dot-product kernels over int8 and f32 row matrices.
// Invariants: every pointer is a byte offset into the shared memory and every
// range [ptr, ptr + len) has been bounds-checked by the TypeScript wrapper;
// loads never read past the last byte of a row or of the query (tails use 8-byte
// and scalar steps); nothing is allocated, nothing traps. When beta == 0 the
// output is written without being read (BLAS convention), so it may hold garbage.

// Sums the i32 lanes of four accumulators into one vector [sum a0, sum a1, sum a2, sum a3].
// @ts-ignore: decorator
@inline function reduce4(a0: v128, a1: v128, a2: v128, a3: v128): v128 {
  const u0 = i32x4.add(i32x4.shuffle(a0, a1, 0, 4, 1, 5), i32x4.shuffle(a0, a1, 2, 6, 3, 7));
  const u1 = i32x4.add(i32x4.shuffle(a2, a3, 0, 4, 1, 5), i32x4.shuffle(a2, a3, 2, 6, 3, 7));
  return i32x4.add(i32x4.shuffle(u0, u1, 0, 1, 4, 5), i32x4.shuffle(u0, u1, 2, 3, 6, 7));
}

// Four int8 dot products against the same query; returns the four i32 sums.
// @ts-ignore: decorator
@inline function dot_i8_x4(r0: usize, r1: usize, r2: usize, r3: usize, q: usize, dim: usize): v128 {
  let a0 = i32x4.splat(0), a1 = i32x4.splat(0), a2 = i32x4.splat(0), a3 = i32x4.splat(0);
  let j: usize = 0;
  for (; j + 16 <= dim; j += 16) {
    const ql = v128.load8x8_s(q + j), qh = v128.load8x8_s(q + j, 8);
    a0 = i32x4.add(a0, i32x4.add(i32x4.dot_i16x8_s(v128.load8x8_s(r0 + j), ql), i32x4.dot_i16x8_s(v128.load8x8_s(r0 + j, 8), qh)));
    a1 = i32x4.add(a1, i32x4.add(i32x4.dot_i16x8_s(v128.load8x8_s(r1 + j), ql), i32x4.dot_i16x8_s(v128.load8x8_s(r1 + j, 8), qh)));
    a2 = i32x4.add(a2, i32x4.add(i32x4.dot_i16x8_s(v128.load8x8_s(r2 + j), ql), i32x4.dot_i16x8_s(v128.load8x8_s(r2 + j, 8), qh)));
    a3 = i32x4.add(a3, i32x4.add(i32x4.dot_i16x8_s(v128.load8x8_s(r3 + j), ql), i32x4.dot_i16x8_s(v128.load8x8_s(r3 + j, 8), qh)));
  }
  if (j + 8 <= dim) {
    const ql = v128.load8x8_s(q + j);
    a0 = i32x4.add(a0, i32x4.dot_i16x8_s(v128.load8x8_s(r0 + j), ql));
    a1 = i32x4.add(a1, i32x4.dot_i16x8_s(v128.load8x8_s(r1 + j), ql));
    a2 = i32x4.add(a2, i32x4.dot_i16x8_s(v128.load8x8_s(r2 + j), ql));
    a3 = i32x4.add(a3, i32x4.dot_i16x8_s(v128.load8x8_s(r3 + j), ql));
    j += 8;
  }
  let s = reduce4(a0, a1, a2, a3);
  if (j < dim) {
    let t0: i32 = 0, t1: i32 = 0, t2: i32 = 0, t3: i32 = 0;
    for (; j < dim; j++) {
      const qv = <i32>load<i8>(q + j);
      t0 += <i32>load<i8>(r0 + j) * qv;
      t1 += <i32>load<i8>(r1 + j) * qv;
      t2 += <i32>load<i8>(r2 + j) * qv;
      t3 += <i32>load<i8>(r3 + j) * qv;
    }
    s = i32x4.add(s, i32x4.replace_lane(i32x4.replace_lane(i32x4.replace_lane(i32x4.splat(t0), 1, t1), 2, t2), 3, t3));
  }
  return s;
}

// One int8 dot product (used for the last nRows % 4 rows).
// @ts-ignore: decorator
@inline function dot_i8_x1(r: usize, q: usize, dim: usize): i32 {
  let a = i32x4.splat(0);
  let j: usize = 0;
  for (; j + 8 <= dim; j += 8) {
    a = i32x4.add(a, i32x4.dot_i16x8_s(v128.load8x8_s(r + j), v128.load8x8_s(q + j)));
  }
  let s = i32x4.extract_lane(a, 0) + i32x4.extract_lane(a, 1) + i32x4.extract_lane(a, 2) + i32x4.extract_lane(a, 3);
  for (; j < dim; j++) s += <i32>load<i8>(r + j) * <i32>load<i8>(q + j);
  return s;
}

// Writes out[0..4) = beta*out + alpha*scales*dots (out not read when beta == 0).
// @ts-ignore: decorator
@inline function finish4(dots: v128, sc: v128, alpha: f32, beta: f32, out: usize): void {
  let r = f32x4.mul(f32x4.mul(f32x4.convert_i32x4_s(dots), sc), f32x4.splat(alpha));
  if (beta != 0) r = f32x4.add(r, f32x4.mul(v128.load(out), f32x4.splat(beta)));
  v128.store(out, r);
}

// @ts-ignore: decorator
@inline function finish1(dot: f32, sc: f32, alpha: f32, beta: f32, out: usize): void {
  let r = dot * sc * alpha;
  if (beta != 0) r += load<f32>(out) * beta;
  store<f32>(out, r);
}

export function dot_i8_rows(rows: usize, nRows: i32, dim: i32, q: usize, scales: usize, alpha: f32, beta: f32, out: usize): void {
  const d = <usize>dim;
  let i = 0;
  for (; i + 4 <= nRows; i += 4) {
    const r0 = rows + <usize>i * d;
    const dots = dot_i8_x4(r0, r0 + d, r0 + 2 * d, r0 + 3 * d, q, d);
    finish4(dots, v128.load(scales + (<usize>i << 2)), alpha, beta, out + (<usize>i << 2));
  }
  for (; i < nRows; i++) {
    const dot = <f32>dot_i8_x1(rows + <usize>i * d, q, d);
    finish1(dot, load<f32>(scales + (<usize>i << 2)), alpha, beta, out + (<usize>i << 2));
  }
}

export function dot_i8_gather(rows: usize, dim: i32, ids: usize, nIds: i32, q: usize, scales: usize, alpha: f32, beta: f32, out: usize): void {
  const d = <usize>dim;
  let j = 0;
  for (; j + 4 <= nIds; j += 4) {
    const p = ids + (<usize>j << 2);
    const i0 = <usize>load<u32>(p), i1 = <usize>load<u32>(p, 4), i2 = <usize>load<u32>(p, 8), i3 = <usize>load<u32>(p, 12);
    const dots = dot_i8_x4(rows + i0 * d, rows + i1 * d, rows + i2 * d, rows + i3 * d, q, d);
    let sc = f32x4.splat(load<f32>(scales + (i0 << 2)));
    sc = f32x4.replace_lane(sc, 1, load<f32>(scales + (i1 << 2)));
    sc = f32x4.replace_lane(sc, 2, load<f32>(scales + (i2 << 2)));
    sc = f32x4.replace_lane(sc, 3, load<f32>(scales + (i3 << 2)));
    finish4(dots, sc, alpha, beta, out + (<usize>j << 2));
  }
  for (; j < nIds; j++) {
    const id = <usize>load<u32>(ids + (<usize>j << 2));
    const dot = <f32>dot_i8_x1(rows + id * d, q, d);
    finish1(dot, load<f32>(scales + (id << 2)), alpha, beta, out + (<usize>j << 2));
  }
}

// One f32 dot product with two independent accumulators.
// @ts-ignore: decorator
@inline function dot_f32_x1(r: usize, q: usize, dim: usize): f32 {
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0);
  let j: usize = 0;
  const n = dim << 2;
  for (; j + 32 <= n; j += 32) {
    a0 = f32x4.add(a0, f32x4.mul(v128.load(r + j), v128.load(q + j)));
    a1 = f32x4.add(a1, f32x4.mul(v128.load(r + j, 16), v128.load(q + j, 16)));
  }
  if (j + 16 <= n) {
    a0 = f32x4.add(a0, f32x4.mul(v128.load(r + j), v128.load(q + j)));
    j += 16;
  }
  const a = f32x4.add(a0, a1);
  let s = f32x4.extract_lane(a, 0) + f32x4.extract_lane(a, 1) + f32x4.extract_lane(a, 2) + f32x4.extract_lane(a, 3);
  for (; j < n; j += 4) s += load<f32>(r + j) * load<f32>(q + j);
  return s;
}

export function dot_f32_rows(rows: usize, nRows: i32, dim: i32, q: usize, alpha: f32, beta: f32, out: usize): void {
  const stride = <usize>dim << 2;
  for (let i = 0; i < nRows; i++) {
    const o = out + (<usize>i << 2);
    let r = alpha * dot_f32_x1(rows + <usize>i * stride, q, <usize>dim);
    if (beta != 0) r += beta * load<f32>(o);
    store<f32>(o, r);
  }
}

// y[0..rows) = W · x with W row-major (rows x cols).
export function gemv_f32(W: usize, rows: i32, cols: i32, x: usize, y: usize): void {
  const stride = <usize>cols << 2;
  for (let i = 0; i < rows; i++) {
    store<f32>(y + (<usize>i << 2), dot_f32_x1(W + <usize>i * stride, x, <usize>cols));
  }
}
