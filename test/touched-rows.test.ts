// TouchedRows (src/engine/touched-rows.ts) against the same kernels run over the whole score
// buffer: top-k, maximum, largest difference and histogram agree whether the touched rows are few
// (listed in any order and gathered) or many (whole-buffer kernels), with untouched rows at 0 and
// masked rows; and scores handed in as known (a later hop's rows start with hop 1's) count as gathered.
import t from 'tap';
import { TouchedRows } from '../src/engine/ranking/index.js';
import { createEngineRuntime } from '../src/engine/runtime/index.js';
import { Arena, rng } from './helpers/engine.js';

const rt = await createEngineRuntime();
const K = rt.kernels;

t.test('reductions over touched rows equal the whole-buffer kernels', async (t) => {
  const r = rng(31);
  for (const n of [1, 17, 100, 1029, 5000])
    for (const share of [0, 0.01, 0.05, 0.5, 1]) {
      const A = new Arena(rt);
      const marks = Uint8Array.from({ length: n }, () => (r() < share ? 1 : 0));
      // scores: touched rows random (some masked, a few tied), untouched 0; b = a minus a random share
      const a = Float32Array.from(marks, (m) => (m ? (r() < 0.1 ? -Infinity : r() < 0.1 ? 0.5 : r() * 3) : 0));
      const b = Float32Array.from(a, (v) => (v > 0 ? v * r() : v));
      const pa = A.put(a),
        pb = A.put(b);
      const count = marks.reduce((x, m) => x + m, 0);
      // listed as a scan lists them: in the order met, here from the last row down
      const listed = Uint32Array.from([...marks.keys()].filter((i) => marks[i]).reverse());
      const rows = new TouchedRows(K, n, { idx: A.put(listed), g: A.alloc(4 * n), g2: A.alloc(4 * n) }, count);
      const label = `n ${n} share ${share}`;
      const k = 37;
      const ti = A.alloc(4 * k),
        ts = A.alloc(4 * k);
      const got = rows.top(pa, k, ti, ts);
      const m = K.topk(pa, n, k, ti, ts);
      const idx = A.u32(ti, m),
        sc = A.f32(ts, m);
      const want = [...idx].map((row, i): [number, number] => [row, sc[i]]).filter(([, v]) => v > 0);
      t.same(
        got.filter(([, v]) => v > 0),
        want,
        `${label}: top`,
      );
      t.equal(rows.max(pa), K.maxF32(pa, n), `${label}: max`);
      const d = rows.maxDiff(pa, pb);
      const dw = K.maxDiffF32(pa, pb, n);
      t.ok(d === dw || (Number.isNaN(d) && Number.isNaN(dw)), `${label}: max difference`);
      const hi = Math.max(K.maxF32(pa, n), 1e-6);
      const h1 = A.alloc(4 * 64),
        h2 = A.alloc(4 * 64);
      rows.histogram(pa, hi, 64, h1);
      K.histogramF32(pa, n, 0, hi, 64, h2);
      t.same([...A.u32(h1, 64)], [...A.u32(h2, 64)], `${label}: histogram`);
      A.freeAll();
    }
});

/** About 5% of `n` rows touched, listed from the last row down (in the order met, as a scan lists them), with scores `a`: a tenth of them masked, untouched rows 0. */
function touchedScores(r: () => number, n: number): { a: Float32Array; listed: Uint32Array } {
  const marks = Uint8Array.from({ length: n }, () => (r() < 0.05 ? 1 : 0));
  const a = Float32Array.from(marks, (m) => (m ? (r() < 0.1 ? -Infinity : r() * 3) : 0));
  return { a, listed: Uint32Array.from([...marks.keys()].filter((i) => marks[i]).reverse()) };
}

t.test('scores known at the first listed rows give what a gather gives', async (t) => {
  const r = rng(7);
  const n = 4000;
  const A = new Arena(rt);
  const { a, listed } = touchedScores(r, n);
  const b = Float32Array.from(a, (v) => (v > 0 ? v * r() : v));
  const pa = A.put(a),
    pb = A.put(b);
  const buf = { idx: A.put(listed), g: A.alloc(4 * n), g2: A.alloc(4 * n) };
  for (const first of [0, 1, Math.floor(listed.length / 2), listed.length]) {
    let asked = 0;
    const values = () => {
      asked++;
      return Float32Array.from(listed.subarray(0, first), (row) => b[row]);
    };
    const plain = new TouchedRows(K, n, buf, listed.length);
    const known = new TouchedRows(K, n, buf, listed.length, { ptr: pb, count: first, values, zeroAfter: false });
    const d = plain.maxDiff(pa, pb);
    t.equal(known.maxDiff(pa, pb), d, `${first} known: max difference`);
    t.equal(known.max(pb), plain.max(pb), `${first} known: max of the known buffer`);
    t.ok(asked >= (first > 0 ? 1 : 0), `${first} known: the known scores were read`);
    if (first > 0) {
      // the known values are the ones read: told the first rows of b score -1000, a - b is past 1000 there
      const told = new TouchedRows(K, n, buf, listed.length, {
        ptr: pb,
        count: first,
        values: () => new Float32Array(first).fill(-1000),
        zeroAfter: false,
      });
      const finite = [...listed.subarray(0, first)].some((row) => a[row] > -Infinity);
      t.equal(told.maxDiff(pa, pb) >= 1000, finite, `${first} known: the values handed in are the ones read`);
    }
    // known scores of another buffer, or of more rows than are listed, are not used
    const other = new TouchedRows(K, n, buf, first, {
      ptr: pb,
      count: listed.length + 1,
      values: () => new Float32Array(0),
      zeroAfter: false,
    });
    t.equal(other.maxDiff(pa, pb), new TouchedRows(K, n, buf, first).maxDiff(pa, pb), `${first} known: too many rows, gathered`);
  }
  A.freeAll();
});

t.test('a clean scratch: rows listed after the known ones read 0, not gathered', async (t) => {
  const r = rng(11);
  const n = 4000;
  const A = new Arena(rt);
  const { a, listed } = touchedScores(r, n);
  const first = Math.floor(listed.length / 2);
  // b as a clean scratch holds it: hop 1's rows scored, every other row 0
  const b = new Float32Array(n);
  for (const row of listed.subarray(0, first)) b[row] = r() * 2;
  // the same with the later rows written: a zeroAfter that gathered them would read these
  const written = Float32Array.from(b);
  for (const row of listed.subarray(first)) written[row] = -1000;
  const pa = A.put(a),
    pb = A.put(b),
    pw = A.put(written);
  const buf = { idx: A.put(listed), g: A.alloc(4 * n), g2: A.alloc(4 * n) };
  const values = () => Float32Array.from(listed.subarray(0, first), (row) => b[row]);
  const plain = new TouchedRows(K, n, buf, listed.length).maxDiff(pa, pb);
  t.equal(
    new TouchedRows(K, n, buf, listed.length, { ptr: pb, count: first, values, zeroAfter: true }).maxDiff(pa, pb),
    plain,
    'what a gather gives',
  );
  const later = [...listed.subarray(first)].some((row) => a[row] > -Infinity);
  t.equal(
    new TouchedRows(K, n, buf, listed.length, { ptr: pw, count: first, values, zeroAfter: false }).maxDiff(pa, pw) >= 1000,
    later,
    'gathered: the written rows are read',
  );
  t.equal(
    new TouchedRows(K, n, buf, listed.length, { ptr: pw, count: first, values, zeroAfter: true }).maxDiff(pa, pw),
    plain,
    'not gathered: they read 0',
  );
  A.freeAll();
});
