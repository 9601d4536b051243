// The learners behind the model: L-BFGS reaches known minima; logistic regression, the softmax
// ranker and Platt scaling recover the generating parameters of synthetic data; the reader's sparse
// softmax fits as the dense one does; isotonic fits are monotone; stratified folds are balanced and
// seeded; ECE of a perfectly calibrated source is ~0.
import t from 'tap';
import { minimize } from '../src/train/lbfgs.js';
import {
  ece,
  fitIsotonic,
  fitLogistic,
  fitPlatt,
  fitSoftmax,
  type Group,
  mulberry32,
  predictIsotonic,
  predictLogistic,
  stratifiedFolds,
} from '../src/train/learners.js';
import { fitSparseSoftmax, SparseGroups } from '../src/train/reader-softmax.js';

t.test('L-BFGS: quadratic and Rosenbrock', async (t) => {
  const q = minimize(
    (w) => ({ f: (w[0] - 3) ** 2 + 10 * (w[1] + 1) ** 2, g: Float64Array.of(2 * (w[0] - 3), 20 * (w[1] + 1)) }),
    new Float64Array(2),
  );
  t.ok(Math.abs(q[0] - 3) < 1e-4 && Math.abs(q[1] + 1) < 1e-4, `quadratic minimum (${q[0]}, ${q[1]})`);
  const r = minimize(
    (w) => {
      const [x, y] = w;
      return { f: (1 - x) ** 2 + 100 * (y - x * x) ** 2, g: Float64Array.of(-2 * (1 - x) - 400 * x * (y - x * x), 200 * (y - x * x)) };
    },
    Float64Array.of(-1.2, 1),
    { maxIter: 2000, tol: 1e-12 },
  );
  t.ok(Math.abs(r[0] - 1) < 1e-3 && Math.abs(r[1] - 1) < 1e-3, `Rosenbrock minimum (${r[0]}, ${r[1]})`);
});

t.test('logistic regression and Platt recover the generating model', async (t) => {
  const rand = mulberry32(7);
  const xs: Float64Array[] = [];
  const ys: number[] = [];
  for (let i = 0; i < 4000; i++) {
    const x = Float64Array.of(rand() * 4 - 2, rand() * 4 - 2);
    xs.push(x);
    ys.push(rand() < 1 / (1 + Math.exp(-(2 * x[0] - x[1] + 0.5))) ? 1 : 0);
  }
  const w = fitLogistic(xs, ys, 0);
  t.ok(Math.abs(w[0] - 2) < 0.3 && Math.abs(w[1] + 1) < 0.2 && Math.abs(w[2] - 0.5) < 0.2, `weights ${[...w].map((v) => v.toFixed(2))}`);
  const conf = xs.map((x) => predictLogistic(w, x));
  t.ok(ece(conf, ys) < 0.03, `calibrated (ECE ${ece(conf, ys).toFixed(3)})`);
  const [a, b] = fitPlatt(
    xs.map((x) => 2 * x[0] - x[1]),
    ys,
  );
  t.ok(Math.abs(a - 1) < 0.15 && Math.abs(b - 0.5) < 0.2, `Platt (${a.toFixed(2)}, ${b.toFixed(2)})`);
});

t.test('softmax ranker puts positives first', async (t) => {
  const rand = mulberry32(3);
  const groups: Group[] = [];
  for (let q = 0; q < 300; q++) {
    const x = Array.from({ length: 8 }, () => Float64Array.of(rand(), rand(), rand()));
    const score = x.map((v) => 3 * v[0] - 2 * v[2]);
    const best = score.indexOf(Math.max(...score));
    groups.push({ x, pos: x.map((_, i) => i === best) });
  }
  const w = fitSoftmax(groups, 3, 1e-4);
  t.ok(w[0] > 0 && w[2] < 0 && Math.abs(w[1]) < Math.abs(w[0]) / 3, `direction ${[...w].map((v) => v.toFixed(2))}`);
  const top1 = groups.filter((g) => {
    const s = g.x.map((x) => w[0] * x[0] + w[1] * x[1] + w[2] * x[2]);
    return g.pos[s.indexOf(Math.max(...s))];
  }).length;
  t.ok(top1 / groups.length > 0.9, `top-1 ${top1}/${groups.length}`);
  t.same([...fitSoftmax([], 2)], [0, 0], 'no groups: zero weights');
});

t.test('sparse softmax: the dense softmax on sparse rows, past every initial capacity, dropped groups leaving nothing', async (t) => {
  const rand = mulberry32(5);
  const groups: Group[] = [];
  const sparse = new SparseGroups();
  for (let q = 0; q < 5000; q++) {
    if (q === 17) {
      // a group with no positive, larger than the initial candidate and feature room: dropped
      for (let c = 0; c < 70_000; c++) {
        for (let j = 0; j < 16; j++) sparse.f(j % 3, rand());
        sparse.endCandidate(false);
      }
      sparse.endGroup(false);
    }
    const x = Array.from({ length: 4 }, () => Float64Array.of(rand(), rand() < 0.5 ? 0 : rand(), rand()));
    const score = x.map((v) => 2 * v[0] + v[1] - 2 * v[2]);
    const best = score.indexOf(Math.max(...score));
    groups.push({ x, pos: x.map((_, i) => i === best) });
    x.forEach((v, i) => {
      v.forEach((value, j) => {
        if (value !== 0) sparse.f(j, value);
      });
      sparse.endCandidate(i === best);
    });
    sparse.endGroup(true);
  }
  t.equal(sparse.groups, 5000, 'every group with a positive kept, the one without dropped');
  t.equal(sparse.candidates, 20_000);
  t.equal(sparse.candStart[sparse.candidates], sparse.nnz, 'the last candidate ends at the last feature value');
  const dense = fitSoftmax(groups, 3, 1e-4);
  const fitted = fitSparseSoftmax(sparse, 3, 1e-4);
  t.ok(
    [0, 1, 2].every((j) => Math.abs(fitted[j] - dense[j]) < 1e-3),
    `sparse ${[...fitted].map((v) => v.toFixed(4))} against dense ${[...dense].map((v) => v.toFixed(4))}`,
  );
  t.same([...fitSparseSoftmax(sparse, 3, 1e-4)], [...fitted], 'deterministic');
});

t.test('isotonic, folds, ECE', async (t) => {
  const iso = fitIsotonic([1, 2, 3, 4, 5, 6], [0, 1, 0, 1, 1, 1]);
  for (let i = 1; i < iso.y.length; i++) t.ok(iso.y[i] >= iso.y[i - 1], 'non-decreasing');
  t.equal(predictIsotonic(iso, 0), iso.y[0]);
  t.equal(predictIsotonic(iso, 10), 1);
  const strata = [...Array(50).fill('a'), ...Array(20).fill('b')];
  const f1 = stratifiedFolds(strata, 5, 1);
  t.same(f1, stratifiedFolds(strata, 5, 1), 'seeded');
  for (let k = 0; k < 5; k++) {
    t.equal(f1.filter((f, i) => f === k && strata[i] === 'a').length, 10);
    t.equal(f1.filter((f, i) => f === k && strata[i] === 'b').length, 4);
  }
  t.equal(ece([0.5, 0.5], [0, 1]), 0);
  t.equal(ece([1, 1], [0, 0]), 1);
});
