// TouchedRows (src/engine/touched-rows.ts) against the same kernels run over the whole score
// buffer: top-k, maximum, largest difference and histogram agree whether the touched rows are few
// (listed in any order and gathered) or many (whole-buffer kernels), with untouched rows at 0 and
// masked rows.
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
