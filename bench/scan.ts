// Raw dense scan benchmark: N passages x D dims int8 + top-k on one core, WASM
// SIMD kernels vs the same scan in plain TypeScript, plus a sequential-read
// bandwidth reference. Usage: npx tsx bench/scan.ts [rows=1000000] [dim=256] [k=10]
// Invariants: both implementations scan the same bytes in the shared memory and
// must return the same ids; times are medians after warm-up runs.

import { randomFillSync } from 'node:crypto';
import { createEngineRuntime, scanRange, scanScratchBytes } from '../src/engine/runtime/index.js';

const [rows, dim, k] = [1_000_000, 256, 10].map((d, i) => Number(process.argv[2 + i] ?? d));
const bytes = rows * dim;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function time(runs: number, warm: number, fn: () => void): number {
  for (let i = 0; i < warm; i++) fn();
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    ts.push(performance.now() - t0);
  }
  return median(ts);
}

/** Plain TypeScript scan: per-row int dot (4-way unrolled) and a sorted top-k array. */
function scanTs(m: Int8Array, q: Int8Array, scales: Float32Array, n: number, d: number, kk: number): number[] {
  const topS: number[] = [],
    topI: number[] = [];
  let worst = -Infinity;
  for (let i = 0; i < n; i++) {
    const o = i * d;
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0,
      j = 0;
    for (; j + 4 <= d; j += 4) {
      s0 += m[o + j] * q[j];
      s1 += m[o + j + 1] * q[j + 1];
      s2 += m[o + j + 2] * q[j + 2];
      s3 += m[o + j + 3] * q[j + 3];
    }
    for (; j < d; j++) s0 += m[o + j] * q[j];
    const s = Math.fround((s0 + s1 + s2 + s3) * scales[i]);
    if (topS.length === kk && s <= worst) continue;
    let p = topS.length;
    while (p > 0 && topS[p - 1] < s) p--;
    topS.splice(p, 0, s);
    topI.splice(p, 0, i);
    if (topS.length > kk) {
      topS.pop();
      topI.pop();
    }
    worst = topS.length === kk ? topS[kk - 1] : -Infinity;
  }
  return topI;
}

const rt = await createEngineRuntime({ initialBytes: bytes + rows * 4 + (4 << 20) });
const heap = rt.heap;
const mRows = heap.alloc(bytes),
  mScales = heap.alloc(rows * 4),
  mQ = heap.alloc(dim);
const mScratch = heap.alloc(scanScratchBytes(k)),
  mScores = heap.alloc(rows * 4),
  mIdx = heap.alloc(k * 4),
  mTop = heap.alloc(k * 4);
for (let off = 0; off < bytes; off += 1 << 26) randomFillSync(heap.views.u8At(mRows + off, Math.min(1 << 26, bytes - off)));
randomFillSync(heap.views.u8At(mQ, dim));
const scaleView = heap.views.f32At(mScales, rows);
for (let i = 0; i < rows; i++) scaleView[i] = 0.5 + (i % 97) / 97;

const args = { rows: mRows, dim, rowStart: 0, rowEnd: rows, scales: mScales, q: mQ, k, scratch: mScratch };
let wasmIds: number[] = [];
const tTiled = time(11, 3, () => {
  wasmIds = [...scanRange(rt.kernels, args).ids];
});
const tTwoPass = time(11, 3, () => {
  rt.kernels.dotI8Rows(mRows, rows, dim, mQ, mScales, 1, 0, mScores);
  rt.kernels.topk(mScores, rows, k, mIdx, mTop);
});
let tsIds: number[] = [];
const m = heap.views.i8At(mRows, bytes),
  q = heap.views.i8At(mQ, dim),
  sc = heap.views.f32At(mScales, rows);
const tTs = time(5, 1, () => {
  tsIds = scanTs(m, q, sc, rows, dim, k);
});
const plain = Buffer.alloc(bytes, 7);
const tRead = time(11, 2, () => plain.indexOf(1));
const gbs = (ms: number): string => (bytes / ms / 1e6).toFixed(1);

console.log(`dense int8 scan: ${rows} rows x ${dim} dims (${(bytes / 2 ** 20).toFixed(0)} MiB) + top-${k}, one core, median`);
console.log(`  wasm simd, tiled scan op   ${tTiled.toFixed(1).padStart(8)} ms  ${gbs(tTiled).padStart(5)} GB/s`);
console.log(`  wasm simd, scores + topk   ${tTwoPass.toFixed(1).padStart(8)} ms  ${gbs(tTwoPass).padStart(5)} GB/s`);
console.log(`  plain typescript           ${tTs.toFixed(1).padStart(8)} ms  ${gbs(tTs).padStart(5)} GB/s`);
console.log(`  speed-up (ts / wasm tiled) ${(tTs / tTiled).toFixed(1).padStart(8)} x`);
console.log(`  sequential read (memchr)   ${tRead.toFixed(1).padStart(8)} ms  ${gbs(tRead).padStart(5)} GB/s  (bandwidth reference)`);
console.log(`  same top-${k} ids: ${JSON.stringify(wasmIds) === JSON.stringify(tsIds)}`);
