// The calibration of the confidence a search returns: an increasing map σ(a·logit(c) + b) of the
// chosen stage's confidence, fitted on held-out searches (asked as is, and with the question's
// documents hidden), refused in a model folder when it would reorder confidences, and applied by
// the loop to every search; and the AUROC of found against hidden runs the training log prints.
import t from 'tap';
import { type LoopParams, modelFitProblem } from '../src/engine/index.js';
import { returnedConfidence } from '../src/engine/ranking/index.js';
import { foundHiddenAuroc, type QueryResult } from '../src/train/evaluate.js';
import { crossCalibrated, fitCalibrations, fitReturned } from '../src/train/fit-returned.js';
import { mulberry32 } from '../src/train/learners.js';
import { DEVOTION, openShippedStore } from './helpers/shipped-store.js';

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const logit = (p: number) => Math.log(p / (1 - p));

/** n held-out results whose evidence is found with probability σ(a·logit(conf) + b); hidden runs get confHidden. */
function results(n: number, a: number, b: number, seed: number, confHidden: () => number): QueryResult[] {
  const rand = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => {
    const conf = 0.02 + 0.96 * rand();
    const found = rand() < sigmoid(a * logit(conf) + b);
    return {
      query: { id: `q${i}`, suite: 's', text: '', gold: [], type: '' },
      found: { 10: found },
      conf,
      hops: 1,
      confHidden: confHidden(),
    };
  });
}

t.test('the map is the identity without a calibration, and increasing with one', async (t) => {
  t.equal(returnedConfidence(undefined, 0.37), 0.37);
  const p = { a: 1.3, b: -0.4 };
  t.ok(Math.abs(returnedConfidence(p, 0.8) - sigmoid(1.3 * logit(0.8) - 0.4)) < 1e-12);
  const grid = Array.from({ length: 99 }, (_, i) => returnedConfidence(p, (i + 1) / 100));
  t.ok(
    grid.every((v, i) => i === 0 || v > grid[i - 1]),
    'a higher stage confidence never returns a lower one',
  );
  t.ok(returnedConfidence(p, 0) > 0 && returnedConfidence(p, 1) < 1, 'confidences of 0 and 1 stay finite');
});

t.test('a model folder whose calibration would reorder confidences is refused', async (t) => {
  const store = await openShippedStore([{ id: 'd', text: 'Title\nSome text.', metadata: {} }]);
  t.teardown(() => store.close());
  const shipped = store.model.params.search as LoopParams;
  t.ok(shipped.returned && shipped.returned.a > 0, 'the shipped model calibrates its returned confidence');
  t.equal(modelFitProblem(shipped), undefined);
  t.equal(modelFitProblem({ ...shipped, returned: undefined }), undefined, 'a model without one (before 1.10.0) still loads');
  t.match(modelFitProblem({ ...shipped, returned: { a: 0, b: 0 } }), /order of confidences/);
  t.match(modelFitProblem({ ...shipped, returned: { a: -1, b: 0 } }), /order of confidences/);
  t.match(modelFitProblem({ ...shipped, returned: { a: Number.NaN, b: 0 } }), /order of confidences/);
});

t.test('fitting recovers the rate at which returned confidences were right', async (t) => {
  const rs = results(4000, 2, -0.5, 1, () => 0.5);
  const p = fitReturned(rs, { noAnswer: 0 });
  t.ok(Math.abs(p.a - 2) < 0.25 && Math.abs(p.b + 0.5) < 0.2, `a ${p.a.toFixed(3)} b ${p.b.toFixed(3)}`);
  const weighted = fitReturned(rs, { noAnswer: 0.2 });
  t.ok(returnedConfidence(weighted, 0.5) < returnedConfidence(p, 0.5), 'hidden runs (label 0) weigh the confidence down where they lie');
  const allFound = results(50, 2, 0, 2, () => 0.5).map((r) => ({ ...r, found: { 10: true } }));
  t.same(fitReturned(allFound, { noAnswer: 0 }), { a: 1, b: 0 }, 'one label only (no hidden runs weighed): nothing to fit, the identity');
  t.same(fitReturned([], { noAnswer: 0.05 }), { a: 1, b: 0 }, 'no results: the identity');
  const inverted = results(400, -1, 0, 5, () => 0.5);
  t.same(
    fitReturned(inverted, { noAnswer: 0 }),
    { a: 1, b: 0 },
    'confidences that ran against the outcome: kept as they are, never inverted',
  );
});

t.test('cross-calibration maps each fold with a fit on the other folds only', async (t) => {
  const rs = [...results(300, 1, 1, 3, () => 0.3), ...results(300, 3, -2, 4, () => 0.3)];
  const folds = rs.map((_, i) => (i < 300 ? 0 : 1));
  const out = crossCalibrated(rs, folds, { noAnswer: 0.05 });
  const from1 = fitReturned(rs.slice(300), { noAnswer: 0.05 });
  const from0 = fitReturned(rs.slice(0, 300), { noAnswer: 0.05 });
  t.equal(out[5].conf, returnedConfidence(from1, rs[5].conf), "fold 0 by fold 1's fit");
  t.equal(out[5].confHidden, returnedConfidence(from1, rs[5].confHidden));
  t.equal(out[305].conf, returnedConfidence(from0, rs[305].conf), "fold 1 by fold 0's fit");
  t.same(out[5].found, rs[5].found, 'labels untouched');
});

t.test('a search held by one document is calibrated apart, its hidden run by its own kind', async (t) => {
  // two kinds of search whose confidences are right at different rates
  const other = results(1500, 1, 1, 6, () => 0.3);
  const held = results(1500, 2, 1.5, 7, () => 0.3).map((r, i) => ({ ...r, oneDocument: true, oneDocumentHidden: i % 2 === 0 }));
  const rs = [...other, ...held];
  const p = fitCalibrations(rs, { noAnswer: 0 });
  t.ok(
    Math.abs(p.returned.a - 1) < 0.2 && Math.abs(p.returned.b - 1) < 0.25,
    `the others: a ${p.returned.a.toFixed(3)} b ${p.returned.b.toFixed(3)}`,
  );
  t.ok(
    p.returnedOneDocument && Math.abs(p.returnedOneDocument.a - 2) < 0.3 && Math.abs(p.returnedOneDocument.b - 1.5) < 0.3,
    `held by one document: a ${p.returnedOneDocument?.a.toFixed(3)} b ${p.returnedOneDocument?.b.toFixed(3)}`,
  );
  t.same(
    fitCalibrations(other, { noAnswer: 0 }),
    { returned: fitReturned(other, { noAnswer: 0 }) },
    'none held: no calibration of their own',
  );
  const folds = rs.map((_, i) => i % 2);
  const out = crossCalibrated(rs, folds, { noAnswer: 0.05 });
  const from1 = fitCalibrations(
    rs.filter((_, i) => folds[i] === 1),
    { noAnswer: 0.05 },
  );
  const i = 1500 + 2; // held, fold 0, its hidden run held too
  t.equal(out[i].conf, returnedConfidence(from1.returnedOneDocument, rs[i].conf), "a held search by the other folds' held fit");
  t.equal(out[i].confHidden, returnedConfidence(from1.returnedOneDocument, rs[i].confHidden));
  const k = 1500 + 1; // held, fold 1, its hidden run not held
  const from0 = fitCalibrations(
    rs.filter((_, n) => folds[n] === 0),
    { noAnswer: 0.05 },
  );
  t.equal(out[k].confHidden, returnedConfidence(from0.returned, rs[k].confHidden), 'a hidden run not held: by the others’ fit');
  t.equal(out[2].conf, returnedConfidence(from1.returned, rs[2].conf), 'a search not held: by the others’ fit');
});

t.test("the training log's AUROC ranks each suite's found runs against its hidden ones", async (t) => {
  const run = (suite: string, found: boolean, conf: number, confHidden: number): QueryResult => ({
    query: { id: `${suite}${conf}`, suite, text: '', gold: [], type: '' },
    found: { 10: found },
    conf,
    hops: 1,
    confHidden,
  });
  const rs = [
    run('a', true, 0.9, 0.1),
    run('a', true, 0.8, 0.85),
    run('a', false, 0.05, 0.2),
    run('b', true, 0.6, 0.7),
    run('b', false, 0.9, 0.8),
  ];
  // a: found 0.9 and 0.8 against hidden 0.1, 0.85 and 0.2: 5 of 6 pairs ordered; b: found 0.6 against hidden 0.7 and 0.8
  t.same(foundHiddenAuroc(rs), { a: 0.833, b: 0 }, 'missed runs are left out, suites apart');
});

t.test('a search returns its chosen stage confidence through the calibration', async (t) => {
  const store = await openShippedStore(DEVOTION);
  t.teardown(() => store.close());
  const params = store.model.params.search as LoopParams;
  const moved: number[] = [];
  for (const q of [
    'Who is the child of the director of the film Devotion (1929 film)?',
    'What is a silent film?',
    'When was the actress born?',
    'Who is the mother of Lilla?',
  ]) {
    const raw = store.search(q, { ...params, returned: undefined });
    const served = store.search(q, params);
    t.same(served.hits, raw.hits, `${q}: the same passages`);
    t.ok(
      Math.abs(served.confidence - returnedConfidence(params.returned, raw.confidence)) < 1e-12,
      `${q}: ${raw.confidence.toFixed(3)} -> ${served.confidence.toFixed(3)}`,
    );
    moved.push(Math.abs(served.confidence - raw.confidence));
  }
  t.ok(Math.max(...moved) > 0.01, 'the calibration moves some confidence');
  const none = store.search('Who painted the Mona Lisa?', params);
  t.same([none.hits, none.confidence], [[], 0], 'a question no passage matches finds nothing, at confidence 0');
});
