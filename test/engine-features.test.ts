// The learned scorers' feature tables (src/engine/ranking): names unique, chain vectors laid out as
// their names say, the shipped model's recorded names equal to the code's, and a model whose names
// or weight lengths differ refused with the first difference named (modelFitProblem, namesDiffer).
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import { type LoopParams, loadModelFolder } from '../src/engine/index.js';
import {
  CHAIN2_NAMES,
  CHAIN3_NAMES,
  chain2Vector,
  chain3Vector,
  computeFeatures,
  type Feature,
  featureNames,
  H1_NAMES,
  H2_NAMES,
  modelFitProblem,
  namesDiffer,
  namesOf,
  SUFFICIENCY_NAMES,
} from '../src/engine/ranking/index.js';

t.test('every table has distinct names, and the chain tables are built from the passage and hop tables', async (t) => {
  for (const [name, names] of Object.entries({ H1_NAMES, H2_NAMES, SUFFICIENCY_NAMES, CHAIN2_NAMES, CHAIN3_NAMES })) {
    t.equal(new Set(names).size, names.length, `${name}: no name twice`);
  }
  t.same([H1_NAMES.length, H2_NAMES.length, SUFFICIENCY_NAMES.length], [23, 17, 29 + 23]);
  t.same(
    SUFFICIENCY_NAMES.slice(-H1_NAMES.length),
    H1_NAMES.map((n) => `first.${n}`),
    "the top chain's first passage's hop-1 features close the table",
  );
  t.equal(CHAIN2_NAMES.length, 2 * H1_NAMES.length + H2_NAMES.length + 2);
  t.equal(CHAIN3_NAMES.length, CHAIN2_NAMES.length + H1_NAMES.length + H2_NAMES.length + 1);
  t.same(CHAIN2_NAMES.slice(0, 3), ['p.s', 'p.s_body', 'p.s_title']);
  t.equal(CHAIN2_NAMES[H1_NAMES.length], 'c.s');
  t.equal(CHAIN2_NAMES[2 * H1_NAMES.length], 'c|p.e');
  t.same(CHAIN2_NAMES.slice(-2), ['p_beam_rank', 'p_h1_gap']);
  t.same(CHAIN3_NAMES.slice(-1), ['is3']);
  t.same(featureNames(), { W1: H1_NAMES, W2: CHAIN2_NAMES, W3: CHAIN3_NAMES, conf: SUFFICIENCY_NAMES });
});

t.test('computeFeatures follows the table order', async (t) => {
  const table: Feature<{ a: number; b: number }>[] = [
    { name: 'sum', compute: (x) => x.a + x.b },
    { name: 'a', compute: (x) => x.a },
    { name: 'half_b', compute: (x) => x.b / 2 },
  ];
  t.same([...computeFeatures(table, { a: 3, b: 5 })], [8, 3, 2.5]);
  t.same([...computeFeatures([...table].reverse(), { a: 3, b: 5 })], [2.5, 3, 8], 'another order, another vector');
  t.same(namesOf(table), ['sum', 'a', 'half_b']);
  t.same([...computeFeatures([], { a: 1, b: 1 })], []);
});

t.test('chain vectors put each block where its names say', async (t) => {
  const block = (n: number, base: number) => Float64Array.from({ length: n }, (_, i) => base + i);
  const p = block(H1_NAMES.length, 100);
  const c = block(H1_NAMES.length, 200);
  const h2 = block(H2_NAMES.length, 300);
  const x2 = chain2Vector(p, c, h2, { beamRank: 2, h1: 1.5, h1Top: 2 });
  const at = (names: readonly string[], x: Float64Array, name: string) => x[names.indexOf(name)];
  t.equal(x2.length, CHAIN2_NAMES.length);
  t.equal(at(CHAIN2_NAMES, x2, 'p.qcov'), p[H1_NAMES.indexOf('qcov')]);
  t.equal(at(CHAIN2_NAMES, x2, 'c.dense'), c[H1_NAMES.indexOf('dense')]);
  t.equal(at(CHAIN2_NAMES, x2, 'c|p.lk_prev'), h2[H2_NAMES.indexOf('lk_prev')]);
  t.equal(at(CHAIN2_NAMES, x2, 'p_beam_rank'), Math.log1p(2));
  t.equal(at(CHAIN2_NAMES, x2, 'p_h1_gap'), -0.5);
  const pad = chain3Vector(x2);
  t.same([...pad.subarray(0, x2.length)], [...x2], 'a 2-chain among 3-chains keeps its vector');
  t.ok(
    pad.subarray(x2.length).every((v) => v === 0),
    'padded with zeros, is3 included',
  );
  const d = block(H1_NAMES.length, 400);
  const h2d = block(H2_NAMES.length, 500);
  const x3 = chain3Vector(x2, { h1: d, h2: h2d });
  t.equal(at(CHAIN3_NAMES, x3, 'd.s'), 400);
  t.equal(at(CHAIN3_NAMES, x3, 'd|c.e'), 500);
  t.equal(at(CHAIN3_NAMES, x3, 'is3'), 1);
});

t.test('the shipped model records the names of the features this engine computes', async (t) => {
  const { manifest } = loadModelFolder(defaultModelUri());
  const search = manifest.params.search as LoopParams;
  t.same(search.features, featureNames());
  t.equal(modelFitProblem(search), undefined);
});

t.test('a model whose feature names or weights differ is refused, naming the first difference', async (t) => {
  const { manifest } = loadModelFolder(defaultModelUri());
  const shipped = manifest.params.search as LoopParams;
  const withNames = (key: keyof LoopParams['features'], names: string[]): LoopParams => ({
    ...shipped,
    features: { ...shipped.features, [key]: names },
  });
  const h1 = [...H1_NAMES];
  [h1[4], h1[5]] = [h1[5], h1[4]];
  t.equal(modelFitProblem(withNames('W1', h1)), "W1 (hop 1): feature 5 is 'hit_len' in the model and 'hit' in this engine");
  t.equal(
    modelFitProblem(withNames('W2', [...CHAIN2_NAMES, 'extra'])),
    `W2 (2-chains): feature ${CHAIN2_NAMES.length + 1} is 'extra' in the model and nothing in this engine`,
  );
  t.equal(
    modelFitProblem(withNames('conf', SUFFICIENCY_NAMES.slice(0, -1))),
    "conf (sufficiency): feature 52 is nothing in the model and 'first.sentcov' in this engine",
  );
  t.equal(
    modelFitProblem({ ...shipped, W2: shipped.W2.slice(1) }),
    `W2 (2-chains) has ${CHAIN2_NAMES.length - 1} weights; this engine computes ${CHAIN2_NAMES.length} features`,
  );
  t.equal(namesDiffer(['a', 'b'], ['a', 'b']), undefined);
  t.equal(namesDiffer([], []), undefined);
  t.equal(namesDiffer(['a'], ['b']), "feature 1 is 'a' in the model and 'b' in this engine");
});
