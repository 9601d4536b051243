// Every kernel against a plain TypeScript reference on random inputs with odd,
// non-multiple-of-16 and empty sizes; plus the wrappers' bound checks.

import t from 'tap';
import { bm25 } from '../src/engine/ranking/index.js';
import { createEngineRuntime, KernelBoundsError } from '../src/engine/runtime/index.js';
import { putCode } from '../src/engine/segment/index.js';
import { Arena, near, randF32, randI8, rng, throwsTyped } from './helpers/engine.js';

const rt = await createEngineRuntime();
const K = rt.kernels;
const DIMS = [0, 1, 3, 7, 8, 9, 15, 16, 17, 24, 31, 33, 100, 255, 256, 257];
const ROWS = [0, 1, 3, 4, 5, 13];

const dotI8 = (a: Int8Array, ao: number, b: Int8Array, d: number): number => {
  let s = 0;
  for (let j = 0; j < d; j++) s += a[ao + j] * b[j];
  return s;
};

t.test('dot_i8_rows matches reference', async (t) => {
  const r = rng(1);
  for (const dim of DIMS)
    for (const n of ROWS) {
      const A = new Arena(rt);
      const rows = randI8(r, n * dim),
        q = randI8(r, dim),
        scales = randF32(r, n, 2),
        out0 = randF32(r, n);
      const alpha = 0.5 + r(),
        beta = n % 2 ? 0 : -0.75;
      const pOut = A.put(beta === 0 ? new Float32Array(n).fill(NaN) : out0);
      K.dotI8Rows(A.put(rows), n, dim, A.put(q), A.put(scales), alpha, beta, pOut);
      const want: number[] = [],
        scale: number[] = [];
      for (let i = 0; i < n; i++) {
        const v = alpha * scales[i] * dotI8(rows, i * dim, q, dim);
        want.push(v + (beta === 0 ? 0 : beta * out0[i]));
        scale.push(Math.abs(v) + Math.abs(beta * out0[i]));
      }
      near(t, A.f32(pOut, n), want, 2e-6, 1e-6, `dim ${dim} rows ${n} beta ${beta}`, scale);
      A.freeAll();
    }
});

t.test('count_above and max_f32 match reference (with -Infinity and NaN)', async (t) => {
  const r = rng(9);
  for (const n of [0, 1, 3, 4, 5, 15, 16, 17, 33, 1000]) {
    const A = new Arena(rt);
    const xs = randF32(r, n, 4);
    if (n > 3) {
      xs[1] = -Infinity;
      xs[2] = NaN;
    }
    const p = A.put(xs);
    for (const v of [-Infinity, -1, 0, 0.5, xs[0] ?? 0, Infinity]) {
      t.equal(K.countAbove(p, n, v), [...xs].filter((x) => x > v).length, `count n ${n} v ${v}`);
    }
    const finite = [...xs].filter((x) => !Number.isNaN(x));
    t.equal(K.maxF32(p, n), finite.length ? Math.max(...finite) : -Infinity, `max n ${n}`);
    A.freeAll();
  }
});

t.test('histogram_f32 and max_diff_f32 match reference', async (t) => {
  const r = rng(10);
  for (const n of [0, 1, 5, 17, 1000]) {
    const A = new Arena(rt);
    const xs = randF32(r, n, 4);
    const ys = randF32(r, n, 4);
    if (n > 2) xs[1] = NaN;
    const px = A.put(xs);
    const out = A.put(new Uint32Array(7));
    K.histogramF32(px, n, -1, 2, 7, out);
    const want = new Array(7).fill(0);
    for (const x of xs) if (x >= -1) want[Math.min(6, Math.floor(((x + 1) * 7) / 3))]++;
    t.same([...new Uint32Array(rt.memory.buffer, out, 7)], want, `histogram n ${n}`);
    const diffs = [...xs].map((x, i) => x - ys[i]).filter((d) => !Number.isNaN(d));
    t.equal(K.maxDiffF32(px, A.put(ys), n), diffs.length ? Math.fround(Math.max(...diffs)) : -Infinity, `max diff n ${n}`);
    A.freeAll();
  }
});

t.test('dot_i8_gather matches reference (repeated ids, scales by row)', async (t) => {
  const r = rng(2);
  for (const dim of DIMS)
    for (const nIds of [0, 1, 3, 4, 5, 11]) {
      const A = new Arena(rt);
      const nRows = 7;
      const rows = randI8(r, nRows * dim),
        q = randI8(r, dim),
        scales = randF32(r, nRows, 2),
        out0 = randF32(r, nIds);
      const ids = Uint32Array.from({ length: nIds }, () => Math.floor(r() * nRows));
      const pOut = A.put(out0);
      K.dotI8Gather(A.put(rows), nRows, dim, A.put(ids), nIds, A.put(q), A.put(scales), 1.5, 0.25, pOut);
      const want = [...ids].map((id, j) => 1.5 * scales[id] * dotI8(rows, id * dim, q, dim) + 0.25 * out0[j]);
      near(t, A.f32(pOut, nIds), want, 2e-6, 1e-5, `dim ${dim} ids ${nIds}`);
      A.freeAll();
    }
});

t.test('dot_f32_rows, gemv_f32 and axpy_f32 match reference', async (t) => {
  const r = rng(3);
  for (const dim of DIMS)
    for (const n of ROWS) {
      const A = new Arena(rt);
      const rows = randF32(r, n * dim),
        q = randF32(r, dim),
        out0 = randF32(r, n);
      const pOut = A.put(out0),
        pY = A.alloc(n * 4),
        pRows = A.put(rows),
        pQ = A.put(q);
      K.dotF32Rows(pRows, n, dim, pQ, 2, 0.5, pOut);
      K.gemvF32(pRows, n, dim, pQ, pY);
      const dots: number[] = [],
        mags: number[] = [];
      for (let i = 0; i < n; i++) {
        let s = 0,
          m = 0;
        for (let j = 0; j < dim; j++) {
          s += rows[i * dim + j] * q[j];
          m += Math.abs(rows[i * dim + j] * q[j]);
        }
        dots.push(s);
        mags.push(m);
      }
      near(
        t,
        A.f32(pOut, n),
        dots.map((d, i) => 2 * d + 0.5 * out0[i]),
        1e-5,
        1e-5,
        `dot_f32 dim ${dim} rows ${n}`,
        mags.map((m, i) => 2 * m + Math.abs(0.5 * out0[i])),
      );
      near(t, A.f32(pY, n), dots, 1e-5, 1e-6, `gemv ${n}x${dim}`, mags);
      A.freeAll();
    }
  for (const n of DIMS) {
    const A = new Arena(rt);
    const x = randF32(r, n),
      y = randF32(r, n),
      pY = A.put(y);
    K.axpyF32(n, -1.25, A.put(x), pY);
    near(
      t,
      A.f32(pY, n),
      [...y].map((v, i) => v - 1.25 * x[i]),
      1e-6,
      1e-6,
      `axpy ${n}`,
    );
    A.freeAll();
  }
});

function refTopk(s: ArrayLike<number>, k: number): { ids: number[]; scores: number[] } {
  const idx = [...Array(s.length).keys()].filter((i) => !Number.isNaN(s[i]) && s[i] !== -Infinity);
  idx.sort((a, b) => s[b] - s[a] || a - b);
  const top = idx.slice(0, k);
  return { ids: top, scores: top.map((i) => s[i]) };
}

function tieHeavyScores(r: () => number, n: number): Float32Array {
  const s = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const u = r();
    s[i] = u < 0.05 ? NaN : u < 0.1 ? -Infinity : u < 0.12 ? Infinity : Math.floor(r() * 20) - 10;
  }
  return s;
}

t.test('topk: best first, ties to lower index, NaN and -Infinity never selected', async (t) => {
  const r = rng(4);
  for (const n of [0, 1, 5, 15, 16, 17, 33, 100, 1000, 4099])
    for (const k of [0, 1, 3, 10, 16, 256, n, n + 5]) {
      const A = new Arena(rt);
      const s = tieHeavyScores(r, n);
      const m = Math.min(k, n),
        pIdx = A.alloc(m * 4),
        pSc = A.alloc(m * 4);
      const c = K.topk(A.put(s), n, k, pIdx, pSc);
      const want = refTopk(s, k);
      t.same([...A.u32(pIdx, c)], want.ids, `n ${n} k ${k} ids`);
      t.same([...A.f32(pSc, c)], want.scores, `n ${n} k ${k} scores`);
      A.freeAll();
    }
  const A = new Arena(rt);
  const all = new Float32Array([NaN, -Infinity, NaN]);
  t.equal(K.topk(A.put(all), 3, 3, A.alloc(12), A.alloc(12)), 0, 'only NaN / -Infinity: nothing selected');
  const big = randF32(r, 200_003);
  const pIdx = A.alloc(256 * 4),
    pSc = A.alloc(256 * 4);
  const c = K.topk(A.put(big), big.length, 256, pIdx, pSc);
  t.same([...A.u32(pIdx, c)], refTopk(big, 256).ids, 'n 200003 k 256');
  A.freeAll();
});

t.test('topk_keyed over keys in any order equals topk over a buffer indexed by key', async (t) => {
  const r = rng(41);
  for (const n of [0, 1, 5, 16, 17, 33, 100, 1000, 4099])
    for (const k of [0, 1, 3, 16, 256, n + 5]) {
      const A = new Arena(rt);
      const byKey = tieHeavyScores(r, n);
      const keys = Uint32Array.from(byKey.keys());
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [keys[i], keys[j]] = [keys[j], keys[i]];
      }
      const m = Math.min(k, n),
        pIdx = A.alloc(m * 4),
        pSc = A.alloc(m * 4);
      const c = K.topkKeyed(A.put(Float32Array.from(keys, (key) => byKey[key])), A.put(keys), n, k, pIdx, pSc);
      const want = refTopk(byKey, k);
      t.same([...A.u32(pIdx, c)], want.ids, `n ${n} k ${k} keys`);
      t.same([...A.f32(pSc, c)], want.scores, `n ${n} k ${k} scores`);
      A.freeAll();
    }
});

t.test('copy_rows_f32 and copy_rows_u8 copy the listed rows below the limit, nothing else', async (t) => {
  const r = rng(43);
  for (const n of [0, 1, 17, 1029])
    for (const listed of [0, 1, 5, 300]) {
      const A = new Arena(rt);
      const rows = Uint32Array.from({ length: listed }, () => Math.floor(r() * (n + 8)));
      const src = randF32(r, n),
        dst = randF32(r, n);
      const src8 = Uint8Array.from({ length: n }, () => Math.floor(r() * 256)),
        dst8 = Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
      const pDst = A.put(dst),
        pDst8 = A.put(dst8),
        pRows = A.put(rows);
      K.copyRowsF32(pDst, A.put(src), pRows, listed, n);
      K.copyRowsU8(pDst8, A.put(src8), pRows, listed, n);
      const want = Array.from(dst),
        want8 = Array.from(dst8);
      for (const row of rows)
        if (row < n) {
          want[row] = src[row];
          want8[row] = src8[row];
        }
      t.same([...A.f32(pDst, n)], want, `n ${n}, ${listed} rows: f32`);
      t.same([...A.u8(pDst8, n)], want8, `n ${n}, ${listed} rows: u8`);
      A.freeAll();
    }
});

t.test('put_back_rows restores the kept rows that differ and zeroes the others listed, nothing else', async (t) => {
  const r = rng(46);
  for (const n of [0, 1, 17, 1029])
    for (const [listed, kept] of [
      [0, 0],
      [1, 0],
      [1, 1],
      [5, 2],
      [300, 120],
    ]) {
      const A = new Arena(rt);
      const rows = Uint32Array.from({ length: listed }, () => Math.floor(r() * (n + 8)));
      const scores = randF32(r, n),
        marks = Uint8Array.from({ length: n }, () => 1 + Math.floor(r() * 255));
      // now: what the rows read; was: the same but for about a third of them (a -0 against a 0 counts as different)
      const now = Float32Array.from(rows.slice(0, kept), (row) => (row < n ? scores[row] : Number.NaN));
      const was = Float32Array.from(now, (v, i) => (i % 3 === 0 ? (v === 0 ? -0 : v - 1) : v));
      if (kept > 0) now[0] = 0;
      if (kept > 0) was[0] = -0;
      const pScores = A.put(scores),
        pMarks = A.put(marks);
      K.putBackRows(pScores, pMarks, A.put(rows), A.put(now), A.put(was), kept, listed, n);
      const want = Array.from(scores),
        want8 = Array.from(marks);
      const bits = (v: number) => new Uint32Array(Float32Array.of(v).buffer)[0];
      rows.forEach((row, i) => {
        if (row >= n) return;
        if (i < kept) {
          if (bits(now[i]) !== bits(was[i])) want[row] = was[i];
        } else {
          want[row] = 0;
          want8[row] = 0;
        }
      });
      t.same([...A.f32(pScores, n)].map(bits), want.map(bits), `n ${n}, ${listed} rows, ${kept} kept: scores`);
      t.same([...A.u8(pMarks, n)], want8, `n ${n}, ${listed} rows, ${kept} kept: marks`);
      A.freeAll();
    }
});

t.test('sum_rows_f32, mask_rows and zero_rows touch the listed rows in range, nothing else', async (t) => {
  const r = rng(44);
  for (const n of [0, 1, 17, 1029])
    for (const listed of [0, 1, 5, 300]) {
      const A = new Arena(rt);
      const rows = Uint32Array.from({ length: listed }, () => Math.floor(r() * (n + 8)));
      const a = randF32(r, n),
        b = randF32(r, n),
        dst = randF32(r, n),
        dst8 = Uint8Array.from({ length: n }, () => 1 + Math.floor(r() * 255));
      const lo = Math.floor(n / 3),
        hi = Math.max(lo, n - 2);
      const flags = Uint8Array.from({ length: hi - lo }, () => (r() < 0.4 ? 1 : 0));
      const pRows = A.put(rows),
        pDst = A.put(dst),
        pDst8 = A.put(dst8);
      K.sumRowsF32(pDst, A.put(a), A.put(b), 0.5, pRows, listed, n);
      const want = Array.from(dst);
      for (const row of rows) if (row < n) want[row] = Math.fround(a[row] + Math.fround(0.5 * b[row]));
      t.same([...A.f32(pDst, n)], want, `n ${n}, ${listed} rows: sum`);
      K.maskRows(pDst, pRows, listed, lo, hi, A.put(flags));
      for (const row of rows) if (row >= lo && row < hi && flags[row - lo]) want[row] = -Infinity;
      t.same([...A.f32(pDst, n)], want, `n ${n}, ${listed} rows: mask`);
      K.zeroRows(pDst, pRows, listed, n, 4);
      K.zeroRows(pDst8, pRows, listed, n, 1);
      const want8 = Array.from(dst8);
      for (const row of rows)
        if (row < n) {
          want[row] = 0;
          want8[row] = 0;
        }
      t.same([...A.f32(pDst, n)], want, `n ${n}, ${listed} rows: zero f32`);
      t.same([...A.u8(pDst8, n)], want8, `n ${n}, ${listed} rows: zero u8`);
      A.freeAll();
    }
});

t.test('bm25_accumulate_rows gives bit for bit what bm25_accumulate_marked gives over each term in turn', async (t) => {
  const r = rng(45);
  for (const [nRows, k] of [
    [1, 1],
    [40, 3],
    [700, 7],
    [300, 40],
  ]) {
    const A = new Arena(rt);
    const vocab = 12;
    // each row a sequence of terms 0..vocab-1 (term 3 repeated past 255 in row 0, as a posting caps it)
    const seqs = Array.from({ length: nRows }, (_, row) =>
      row === 0 ? new Array<number>(300).fill(3) : Array.from({ length: Math.floor(r() * 30) }, () => Math.floor(r() * vocab)),
    );
    const starts = new Uint32Array(nRows + 1);
    seqs.forEach((q, i) => {
      starts[i + 1] = starts[i] + q.length;
    });
    const seq = Uint32Array.from(seqs.flat());
    const docLen = Float32Array.from(seqs, (q) => q.length);
    const avg = Math.max(1, seq.length / nRows);
    const terms = Array.from({ length: k }, (_, j) => (j * 5) % vocab);
    const weights = Float32Array.from(terms, () => 0.2 + r() * 2);
    const lo = 1000;
    const listed = [...Array(nRows).keys()].filter(() => r() < 0.6).map((row) => row + lo);
    listed.push(lo + nRows + 3, lo - 1);
    const marks = new Uint8Array(nRows);
    for (const g of listed) if (g >= lo && g < lo + nRows) marks[g - lo] = 1;
    const s0 = randF32(r, nRows);
    const pL = A.put(docLen),
      pMark = A.put(marks),
      pWant = A.put(s0),
      pGot = A.put(s0);
    for (let j = 0; j < k; j++) {
      const postings = Uint32Array.from(
        seqs.flatMap((q, row) => {
          const tf = q.filter((x) => x === terms[j]).length;
          return tf ? [((row << 8) | Math.min(tf, 255)) >>> 0] : [];
        }),
      );
      K.bm25AccumulateMarked(A.put(postings), postings.length, nRows, pL, avg, 1.2, 0.75, weights[j], pWant, pMark);
    }
    const pTerms = A.put(Uint32Array.from(terms)),
      pW = A.put(weights);
    const counts = A.alloc(4 * k);
    K.bm25AccumulateRows(
      A.put(Uint32Array.from(listed)),
      listed.length,
      lo,
      lo + nRows,
      A.put(starts),
      A.put(seq),
      seq.length,
      pTerms,
      pW,
      k,
      counts,
      pL,
      avg,
      1.2,
      0.75,
      pGot,
    );
    t.same([...A.f32(pGot, nRows)], [...A.f32(pWant, nRows)], `${nRows} rows, ${k} terms`);
    // the same sequences coded (segment/codes.ts): each term at a rank whose code takes 1 to 3 bytes,
    // among keys that are no term of the vocabulary
    const ranks = [0, 1, 127, 128, 300, 16383, 16384, 19999, 5, 77, 2000, 9000];
    const keys = Uint32Array.from({ length: 20_000 }, (_, i) => 1_000_000 + i);
    ranks.forEach((rank, term) => {
      keys[rank] = term;
    });
    const codes = new Uint8Array(3 * seq.length);
    const at = new Uint32Array(nRows + 1);
    seqs.forEach((q, i) => {
      at[i + 1] = q.reduce((to, term) => putCode(codes, to, ranks[term]), at[i]);
    });
    const pCoded = A.put(s0);
    const coded = { at: A.put(at), codes: A.put(codes), bytes: at[nRows], keys: A.put(keys), nKeys: keys.length };
    K.bm25AccumulateRowsCoded(
      A.put(Uint32Array.from(listed)),
      listed.length,
      lo,
      lo + nRows,
      coded,
      pTerms,
      pW,
      k,
      counts,
      pL,
      avg,
      1.2,
      0.75,
      pCoded,
    );
    t.same([...A.f32(pCoded, nRows)], [...A.f32(pWant, nRows)], `${nRows} rows, ${k} terms, coded`);
    A.freeAll();
  }
  const A = new Arena(rt);
  const pGot = A.put(new Float32Array(1));
  // a sequence start past the sequences is read no further than their length
  K.bm25AccumulateRows(
    A.put(Uint32Array.of(0)),
    1,
    0,
    1,
    A.put(Uint32Array.of(0, 1e6)),
    A.put(Uint32Array.of(2)),
    1,
    A.put(Uint32Array.of(2)),
    A.put(Float32Array.of(1)),
    1,
    A.alloc(4),
    A.put(Float32Array.of(1)),
    1,
    1.2,
    0.75,
    pGot,
  );
  t.ok(A.f32(pGot, 1)[0] > 0, 'a row whose sequence runs past the end counts the terms within it');
  A.freeAll();
});

t.test('topk_push over chunks in any order equals topk over the whole', async (t) => {
  const r = rng(5);
  for (const [n, k] of [
    [0, 4],
    [37, 5],
    [1000, 10],
    [5000, 64],
    [3001, 3001],
  ]) {
    const A = new Arena(rt);
    const s = tieHeavyScores(r, n),
      pS = A.put(s);
    const chunks: [number, number][] = [];
    for (let at = 0; at < n; ) {
      const len = 1 + Math.floor(r() * 300);
      chunks.push([at, Math.min(len, n - at)]);
      at += len;
    }
    for (let i = chunks.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [chunks[i], chunks[j]] = [chunks[j], chunks[i]];
    }
    const hIdx = A.alloc(k * 4),
      hSc = A.alloc(k * 4);
    let count = 0;
    for (const [at, len] of chunks) count = K.topkPush(pS + at * 4, len, at, k, hIdx, hSc, count);
    K.topkSort(hIdx, hSc, count);
    const want = refTopk(s, k);
    t.same([...A.u32(hIdx, count)], want.ids, `n ${n} k ${k} shuffled chunks`);
    A.freeAll();
  }
});

t.test('pool_f32 and pool_i8 match reference', async (t) => {
  const r = rng(6);
  for (const dim of DIMS)
    for (const n of [0, 1, 5, 9]) {
      const A = new Arena(rt);
      const nRows = 7;
      const tf = randF32(r, nRows * dim),
        ti = randI8(r, nRows * dim),
        rs = randF32(r, nRows, 0.1);
      const ids = Uint32Array.from({ length: n }, () => Math.floor(r() * nRows)),
        w = randF32(r, n);
      const pIds = A.put(ids),
        pW = A.put(w),
        outF = A.put(new Float32Array(dim).fill(NaN)),
        outI = A.put(new Float32Array(dim).fill(7));
      K.poolF32(A.put(tf), nRows, dim, pIds, pW, n, outF);
      K.poolI8(A.put(ti), A.put(rs), nRows, dim, pIds, pW, n, outI);
      const wf = new Array<number>(dim).fill(0),
        wi = new Array<number>(dim).fill(0),
        mf = [...wf],
        mi = [...wf];
      for (let i = 0; i < n; i++)
        for (let j = 0; j < dim; j++) {
          const a = w[i] * tf[ids[i] * dim + j],
            b = w[i] * rs[ids[i]] * ti[ids[i] * dim + j];
          wf[j] += a;
          mf[j] += Math.abs(a);
          wi[j] += b;
          mi[j] += Math.abs(b);
        }
      near(t, A.f32(outF, dim), wf, 1e-5, 1e-6, `pool_f32 dim ${dim} n ${n}`, mf);
      near(t, A.f32(outI, dim), wi, 1e-5, 1e-6, `pool_i8 dim ${dim} n ${n}`, mi);
      A.freeAll();
    }
});

t.test('l2_normalize and quantize_i8', async (t) => {
  const r = rng(7);
  for (const dim of DIMS) {
    const A = new Arena(rt);
    const v = randF32(r, dim, 3),
      pV = A.put(v);
    const norm = K.l2Normalize(pV, dim);
    const want = Math.hypot(...v);
    t.ok(Math.abs(norm - want) <= 1e-5 * want, `norm dim ${dim}`);
    if (dim > 0)
      near(
        t,
        A.f32(pV, dim),
        [...v].map((x) => x / want),
        1e-5,
        1e-6,
        `unit dim ${dim}`,
      );
    const src = randF32(r, dim, 5),
      pD = A.put(new Int8Array(dim).fill(99));
    const scale = K.quantizeI8(A.put(src), dim, pD);
    const maxAbs = Math.max(0, ...[...src].map(Math.abs));
    t.ok(Math.abs(scale - maxAbs / 127) <= 1e-6 * maxAbs, `scale dim ${dim}`);
    const dst = A.i8(pD, dim);
    t.ok(
      dst.every((x, i) => Math.abs(x) <= 127 && Math.abs(x * scale - src[i]) <= scale * 0.5001 + 1e-7),
      `round-trip dim ${dim}`,
    );
    A.freeAll();
  }
  const A = new Arena(rt);
  const z = A.put(new Float32Array(19)),
    zd = A.put(new Int8Array(19).fill(5));
  t.equal(K.l2Normalize(z, 19), 0, 'zero vector: norm 0');
  t.same([...A.f32(z, 19)], new Array(19).fill(0), 'zero vector left as is');
  t.equal(K.quantizeI8(z, 19, zd), 0, 'zero vector: scale 0');
  t.same([...A.i8(zd, 19)], new Array(19).fill(0), 'zero vector: zeros');
  const nan = A.put(new Float32Array([1, NaN, -2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]));
  t.doesNotThrow(() => K.quantizeI8(nan, 17, A.alloc(17)), 'NaN input does not trap');
  A.freeAll();
});

t.test('bm25_accumulate matches the TypeScript bm25 the features use, and stops at rowLimit', async (t) => {
  const r = rng(8);
  const nRows = 50,
    k1 = 1.2,
    b = 0.75,
    avg = 40,
    weight = 2.5;
  for (const rowLimit of [0, 10, 37, 50]) {
    const A = new Arena(rt);
    const docLen = Float32Array.from({ length: nRows }, () => 1 + Math.floor(r() * 100));
    const rowsUsed = [...Array(nRows).keys()].filter(() => r() < 0.4);
    const tfs = rowsUsed.map(() => 1 + Math.floor(r() * 255));
    const postings = Uint32Array.from(rowsUsed, (row, i) => (row << 8) | tfs[i]);
    const s0 = randF32(r, nRows),
      pS = A.put(s0);
    K.bm25Accumulate(A.put(postings), postings.length, rowLimit, A.put(docLen), avg, k1, b, weight, pS);
    const want = [...s0];
    rowsUsed.forEach((row, i) => {
      if (row < rowLimit) want[row] += weight * bm25(tfs[i], docLen[row], avg, k1, b);
    });
    near(t, A.f32(pS, nRows), want, 1e-5, 1e-6, `rowLimit ${rowLimit}`);
    A.freeAll();
  }
  const A = new Arena(rt);
  const pS = A.put(new Float32Array(30)),
    pL = A.put(new Float32Array(30).fill(10));
  K.bm25Accumulate(A.put(Uint32Array.from([(5 << 8) | 1, (20 << 8) | 1, (3 << 8) | 1])), 3, 10, pL, 10, 1.2, 0.75, 1, pS);
  const s = A.f32(pS, 30);
  t.ok(s[5] > 0 && s[3] === 0 && s[20] === 0, 'stops at the first posting with row >= rowLimit');
  A.freeAll();
});

t.test('bm25_accumulate_touch and _marked match bm25_accumulate on their rows; the touched rows listed; gather_f32', async (t) => {
  const r = rng(12);
  const k1 = 1.2,
    b = 0.75,
    avg = 40,
    weight = 1.5;
  for (const nRows of [0, 1, 15, 16, 17, 33, 1029]) {
    const A = new Arena(rt);
    const docLen = Float32Array.from({ length: nRows }, () => 1 + Math.floor(r() * 100));
    const post = (p: number) => {
      const rows = [...Array(nRows).keys()].filter(() => r() < p);
      return Uint32Array.from(rows, (row) => (row << 8) | (1 + Math.floor(r() * 255)));
    };
    const rare = post(0.1),
      common = post(0.6);
    const pL = A.put(docLen),
      pRare = A.put(rare),
      pCommon = A.put(common);
    const s0 = randF32(r, nRows);
    const marks0 = Uint8Array.from({ length: nRows }, () => (r() < 0.05 ? 1 : 0));
    const pFull = A.put(s0),
      pTouch = A.put(s0),
      pMark = A.put(marks0);
    K.bm25Accumulate(pRare, rare.length, nRows, pL, avg, k1, b, weight, pFull);
    const base = 1000;
    const pList = A.put(new Uint32Array(nRows + 1).fill(0xdeadbeef));
    const added = K.bm25AccumulateTouch(pRare, rare.length, nRows, pL, avg, k1, b, weight, pTouch, pMark, pList, nRows, base);
    t.same([...A.f32(pTouch, nRows)], [...A.f32(pFull, nRows)], `n ${nRows}: touch scores as bm25_accumulate`);
    const marks = A.u8(pMark, nRows);
    const rareRows = new Set(Array.from(rare, (p) => p >>> 8));
    t.same(
      [...marks],
      [...marks0].map((m, i) => (m || rareRows.has(i) ? 1 : 0)),
      `n ${nRows}: marks`,
    );
    const fresh = [...rareRows].filter((row) => !marks0[row]);
    t.equal(added, fresh.length, `n ${nRows}: newly marked count`);
    t.same(
      [...A.u32(pList, added)],
      fresh.map((row) => row + base),
      `n ${nRows}: the newly marked rows listed, from the row base`,
    );
    t.equal(A.u32(pList, nRows + 1)[nRows], 0xdeadbeef, `n ${nRows}: nothing written past the capacity`);
    if (rareRows.size >= 2) {
      const pCapped = A.put(Uint32Array.of(7, 7));
      const all = K.bm25AccumulateTouch(
        pRare,
        rare.length,
        nRows,
        pL,
        avg,
        k1,
        b,
        weight,
        A.put(s0),
        A.put(new Uint8Array(nRows)),
        pCapped,
        1,
        0,
      );
      t.equal(all, rareRows.size, `n ${nRows}: a full list still counts every row it marks`);
      t.same([...A.u32(pCapped, 2)], [Math.min(...rareRows), 7], `n ${nRows}: and lists none past its capacity`);
    }
    const before = [...A.f32(pTouch, nRows)];
    K.bm25AccumulateMarked(pCommon, common.length, nRows, pL, avg, k1, b, weight, pTouch, pMark);
    const want = [...before];
    for (const p of common) {
      const row = p >>> 8,
        tf = p & 255;
      if (marks[row]) want[row] = Math.fround(want[row] + (weight * (k1 + 1) * tf) / (tf + k1 * (1 - b) + ((k1 * b) / avg) * docLen[row]));
    }
    near(t, A.f32(pTouch, nRows), want, 1e-6, 1e-7, `n ${nRows}: marked adds to marked rows only`);
    const listed = [...marks.keys()].filter((i) => marks[i]).reverse();
    const count = listed.length;
    const pIdx = A.put(Uint32Array.from(listed));
    const pOut = A.alloc(4 * count);
    K.gatherF32(pTouch, nRows, pIdx, count, pOut);
    t.same(
      [...A.f32(pOut, count)],
      listed.map((i) => A.f32(pTouch, nRows)[i]),
      `n ${nRows}: gather`,
    );
    A.freeAll();
  }
  const A = new Arena(rt);
  const pOut = A.alloc(8);
  K.gatherF32(A.put(Float32Array.from([1, 2, 3])), 3, A.put(Uint32Array.from([2, 7])), 2, pOut);
  t.same([...A.f32(pOut, 2)].map(String), ['3', 'NaN'], 'gather: an index past the source reads NaN, never past it');
  A.freeAll();
});

t.test('mask_dead', async (t) => {
  const r = rng(9);
  for (const n of [0, 1, 15, 16, 17, 31, 32, 100, 1029]) {
    const A = new Arena(rt);
    const s = randF32(r, n),
      flags = Uint8Array.from({ length: n }, () => (r() < 0.3 ? 1 + Math.floor(r() * 255) : 0));
    const pS = A.put(s);
    K.maskDead(pS, n, A.put(flags));
    t.same(
      [...A.f32(pS, n)],
      [...s].map((v, i) => (flags[i] ? -Infinity : v)),
      `n ${n}`,
    );
    A.freeAll();
  }
});

t.test("fill_bytes, copy_bytes and the views' fill match reference at any offset and length", async (t) => {
  const r = rng(11);
  for (const n of [0, 1, 3, 4, 5, 15, 16, 17, 100, 1029]) {
    for (const off of [0, 1, 2, 3, 5]) {
      const A = new Arena(rt);
      const base = Uint8Array.from({ length: n + 16 }, () => Math.floor(r() * 256));
      const value = Math.floor(r() * 256);
      const want = base.slice();
      want.fill(value, off, off + n);
      const pF = A.put(base);
      K.fillBytes(pF + off, n, value);
      t.same([...A.u8(pF, n + 16)], [...want], `fill_bytes n ${n} at +${off}`);
      const pV = A.put(base);
      rt.heap.views.fill(pV + off, n, value);
      t.same([...A.u8(pV, n + 16)], [...want], `views.fill n ${n} at +${off}`);
      const src = Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
      const pS = A.put(src);
      const pC = A.put(base);
      K.copyBytes(pC + off, pS, n);
      const copied = base.slice();
      copied.set(src, off);
      t.same([...A.u8(pC, n + 16)], [...copied], `copy_bytes n ${n} at +${off}`);
      // overlapping ranges copy as memmove does
      const pO = A.put(base);
      K.copyBytes(pO + off, pO, Math.min(n, 16));
      const moved = base.slice();
      moved.set(base.slice(0, Math.min(n, 16)), off);
      t.same([...A.u8(pO, n + 16)], [...moved], `overlapping copy_bytes n ${n} at +${off}`);
      A.freeAll();
    }
  }
});

t.test('wrappers reject out-of-bounds and malformed arguments', async (t) => {
  const A = new Arena(rt);
  const end = rt.heap.views.byteLength;
  const rows = A.alloc(64),
    f = A.alloc(64),
    ids = A.put(Uint32Array.from([0, 1, 9]));
  const cases: [string, () => unknown][] = [
    ['rows past the end of memory', () => K.dotI8Rows(end - 8, 1, 16, rows, f, 1, 0, f)],
    ['negative dim', () => K.dotI8Rows(rows, 1, -1, rows, f, 1, 0, f)],
    ['dim above MAX_I8_DIM', () => K.dotI8Rows(rows, 0, 70000, rows, f, 1, 0, f)],
    ['fractional row count', () => K.dotI8Rows(rows, 1.5, 4, rows, f, 1, 0, f)],
    ['unaligned f32 pointer', () => K.dotF32Rows(f + 2, 1, 4, f, 1, 0, f)],
    ['negative pointer', () => K.axpyF32(4, 1, -16, f)],
    ['non-finite alpha', () => K.dotI8Rows(rows, 1, 4, rows, f, NaN, 0, f)],
    ['gather id beyond the table', () => K.dotI8Gather(rows, 4, 4, ids, 3, rows, f, 1, 0, f)],
    ['pool id beyond the table', () => K.poolF32(f, 2, 4, ids, f, 3, f)],
    ['negative k', () => K.topk(f, 4, -1, f, f)],
    ['heap count above k', () => K.topkPush(f, 4, 0, 2, f, f, 3)],
    ['topk base overflowing u32', () => K.topkPush(f, 4, 2 ** 32 - 2, 2, f, f, 0)],
    ['bm25 b outside [0, 1]', () => K.bm25Accumulate(f, 0, 0, f, 10, 1.2, 1.5, 1, f)],
    ['bm25 avgLen zero', () => K.bm25Accumulate(f, 0, 0, f, 0, 1.2, 0.75, 1, f)],
    ['mask flags past the end', () => K.maskDead(f, 4, end - 2)],
    ['touch marks past the end', () => K.bm25AccumulateTouch(f, 0, 4, f, 10, 1.2, 0.75, 1, f, end - 2, f, 0, 0)],
    ['touch list past the end', () => K.bm25AccumulateTouch(f, 0, 4, f, 10, 1.2, 0.75, 1, f, f, end - 8, 4, 0)],
    ['touch row base overflowing u32', () => K.bm25AccumulateTouch(f, 0, 4, f, 10, 1.2, 0.75, 1, f, f, f, 0, 2 ** 32 - 2)],
    ['topk keys past the end', () => K.topkKeyed(f, end - 8, 4, 2, f, f)],
    ['row copy rows past the end', () => K.copyRowsF32(f, f, end - 8, 4, 4)],
    ['row copy destination past the end', () => K.copyRowsF32(end - 8, f, f, 0, 4)],
    ['u8 row copy source past the end', () => K.copyRowsU8(f, end - 2, f, 0, 4)],
    ['gather source past the end', () => K.gatherF32(end - 8, 4, f, 1, f)],
    ['row sum source past the end', () => K.sumRowsF32(f, end - 8, f, 1, f, 0, 4)],
    ['row sum weight not finite', () => K.sumRowsF32(f, f, f, NaN, f, 0, 4)],
    ['row mask flags past the end', () => K.maskRows(f, f, 0, 0, 4, end - 2)],
    ['row mask lo above hi', () => K.maskRows(f, f, 0, 5, 4, f)],
    ['row zero width 2', () => K.zeroRows(f, f, 0, 4, 2 as 4)],
    ['row zero destination past the end', () => K.zeroRows(end - 8, f, 0, 4, 4)],
    ['row scan sequences past the end', () => K.bm25AccumulateRows(f, 0, 0, 1, f, end - 8, 4, f, f, 1, f, f, 10, 1.2, 0.75, f)],
    ['row scan counts past the end', () => K.bm25AccumulateRows(f, 0, 0, 1, f, f, 0, f, f, 2, end - 4, f, 10, 1.2, 0.75, f)],
    ['row scan b outside [0, 1]', () => K.bm25AccumulateRows(f, 0, 0, 1, f, f, 0, f, f, 1, f, f, 10, 1.2, 2, f)],
    [
      'coded row scan codes past the end',
      () => K.bm25AccumulateRowsCoded(f, 0, 0, 1, { at: f, codes: end - 2, bytes: 4, keys: f, nKeys: 0 }, f, f, 1, f, f, 10, 1.2, 0.75, f),
    ],
    [
      'coded row scan keys past the end',
      () => K.bm25AccumulateRowsCoded(f, 0, 0, 1, { at: f, codes: f, bytes: 0, keys: end - 4, nKeys: 2 }, f, f, 1, f, f, 10, 1.2, 0.75, f),
    ],
    [
      'coded row scan starts past the end',
      () => K.bm25AccumulateRowsCoded(f, 0, 0, 1, { at: end - 4, codes: f, bytes: 0, keys: f, nKeys: 0 }, f, f, 1, f, f, 10, 1.2, 0.75, f),
    ],
    ['fill past the end', () => K.fillBytes(end - 2, 4)],
    ['fill value above a byte', () => K.fillBytes(f, 4, 256)],
    ['copy source past the end', () => K.copyBytes(f, end - 2, 4)],
    ['copy destination past the end', () => K.copyBytes(end - 2, f, 4)],
  ];
  for (const [name, fn] of cases) throwsTyped(t, fn, KernelBoundsError, 'ERR_KERNEL_BOUNDS', name);
  t.ok(new KernelBoundsError('x') instanceof RangeError, 'KernelBoundsError is a RangeError');
  t.doesNotThrow(() => K.dotI8Rows(end, 0, 0, end, end, 1, 0, end), 'empty spans at the end of memory are fine');
  A.freeAll();
});
