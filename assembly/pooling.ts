// Weighted pooling of embedding-table rows (e.g. token embeddings -> one vector).
// Invariants: out[0..dim) is fully overwritten (it may alias nothing else);
// ids[i] < table rows is checked by the TypeScript wrapper; n == 0 yields zeros.

// @ts-ignore: decorator
@inline function zero_f32(out: usize, dim: usize): void {
  let j: usize = 0;
  const n = dim << 2;
  for (; j + 16 <= n; j += 16) v128.store(out + j, f32x4.splat(0));
  for (; j < n; j += 4) store<f32>(out + j, 0);
}

// out[0..dim) = sum_i weights[i] * table[ids[i]*dim ..]
export function pool_f32(table: usize, dim: i32, ids: usize, weights: usize, n: i32, out: usize): void {
  const bytes = <usize>dim << 2;
  zero_f32(out, <usize>dim);
  for (let i = 0; i < n; i++) {
    const w = load<f32>(weights + (<usize>i << 2));
    const row = table + <usize>load<u32>(ids + (<usize>i << 2)) * bytes;
    const wv = f32x4.splat(w);
    let j: usize = 0;
    for (; j + 16 <= bytes; j += 16) {
      v128.store(out + j, f32x4.add(v128.load(out + j), f32x4.mul(v128.load(row + j), wv)));
    }
    for (; j < bytes; j += 4) store<f32>(out + j, load<f32>(out + j) + load<f32>(row + j) * w);
  }
}

// Same over an int8 table whose row r dequantises as rowScales[r] * table[r*dim ..].
export function pool_i8(table: usize, rowScales: usize, dim: i32, ids: usize, weights: usize, n: i32, out: usize): void {
  const d = <usize>dim;
  zero_f32(out, d);
  for (let i = 0; i < n; i++) {
    const id = <usize>load<u32>(ids + (<usize>i << 2));
    const w = load<f32>(weights + (<usize>i << 2)) * load<f32>(rowScales + (id << 2));
    const row = table + id * d;
    const wv = f32x4.splat(w);
    let j: usize = 0;
    for (; j + 8 <= d; j += 8) {
      const h = v128.load8x8_s(row + j);
      const lo = f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(h));
      const hi = f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(h));
      const o = out + (j << 2);
      v128.store(o, f32x4.add(v128.load(o), f32x4.mul(lo, wv)));
      v128.store(o, f32x4.add(v128.load(o, 16), f32x4.mul(hi, wv)), 16);
    }
    for (; j < d; j++) {
      const o = out + (j << 2);
      store<f32>(o, load<f32>(o) + <f32>load<i8>(row + j) * w);
    }
  }
}
