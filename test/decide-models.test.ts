// The loop's two uses of sufficiency: a model's `decide` models choose whether to run another hop
// and which stage to return, its `conf` models the confidence returned; without `decide` the two
// are one. Training fits the chain scorers and `decide` without the confidence-only questions, and
// `conf` with them.
import t from 'tap';
import { type ConfParams, type LoopOutput, type LoopParams, modelFitProblem } from '../src/engine/index.js';
import { manifestProblem } from '../src/engine/model/index.js';
import type { TrainQuery } from '../src/train/data.js';
import type { Item } from '../src/train/fit-chains.js';
import { fitAll } from '../src/train/steps.js';
import type { TrainSet } from '../src/train/train-set.js';
import { DEVOTION, openShippedStore } from './helpers/shipped-store.js';

const QUESTION = 'Who is the child of the director of the film Devotion (1929 film)?';
/** A result without the hops' times (which differ between any two runs). */
const untimed = (o: LoopOutput) => ({ ...o, steps: o.steps.map(({ ms: _ms, ...step }) => step) });
/** The stage models with their bias moved by `by`: large values say "always sufficient", small ones "never". */
const biased = (conf: ConfParams[], by: number) => conf.map((c) => ({ ...c, b: c.b + by }));

t.test('decide models steer the loop; conf models give the confidence', async (t) => {
  const store = await openShippedStore(DEVOTION);
  t.teardown(() => store.close());
  const shipped = store.model.params.search as LoopParams;
  const plain = store.search(QUESTION, shipped);
  t.ok(plain.hopsUsed >= 2, `the shipped model runs ${plain.hopsUsed} hops for a 2-hop question`);

  t.same(untimed(store.search(QUESTION, { ...shipped, decide: shipped.conf })), untimed(plain), 'decide = conf: the same result');

  const stopAtOnce: LoopParams = { ...shipped, decide: biased(shipped.conf, 50) };
  const stopped = store.search(QUESTION, stopAtOnce);
  const oneHop = store.search(QUESTION, shipped, { maxHops: 1 });
  t.equal(stopped.hopsUsed, 1, 'decide models that always find enough stop the loop at hop 1');
  t.same(
    stopped.hits.map((h) => h.row),
    oneHop.hits.map((h) => h.row),
    "the list is stage 1's",
  );
  t.equal(stopped.confidence, oneHop.confidence, 'and its confidence is still the conf models’ own');

  const doubtful: LoopParams = { ...shipped, conf: biased(shipped.conf, -3), decide: shipped.conf };
  const got = store.search(QUESTION, doubtful);
  t.same(
    got.hits.map((h) => h.row),
    plain.hits.map((h) => h.row),
    'other conf models, the same decide models: the same passages',
  );
  t.equal(got.hopsUsed, plain.hopsUsed, 'and the same hops');
  t.ok(got.confidence < plain.confidence, `but a lower confidence (${plain.confidence.toFixed(3)} -> ${got.confidence.toFixed(3)})`);
});

t.test('decide models that do not fit this engine are refused, and the manifest schema takes them', async (t) => {
  const store = await openShippedStore([{ id: 'd', text: 'Title\nSome text.', metadata: {} }]);
  t.teardown(() => store.close());
  const shipped = store.model.params.search as LoopParams;
  const conf = shipped.conf;
  t.equal(modelFitProblem({ ...shipped, decide: conf }), undefined);
  t.match(modelFitProblem({ ...shipped, decide: [{ ...conf[0], w: conf[0].w.slice(1) }, conf[1], conf[2]] }), /^decide\[0\]\.w .* weights/);
  t.match(modelFitProblem({ ...shipped, decide: conf.slice(0, 2) }), /^decide has 2 stage models; conf has 3/);
  t.match(
    modelFitProblem({ ...shipped, keywords: { conf, decide: conf.slice(0, 1) } }),
    /^keywords\.decide has 1 stage models; conf has 3/,
  );

  const manifest = {
    format: 'svc-model/1',
    name: 'm',
    version: '1',
    engine: 'e',
    dims: 0,
    tokenizer: {},
    files: [],
    params: { stop: [], lexical: { k1: 1, b: 1, k1Title: 1, bTitle: 1, titleWeight: 1 }, search: { ...shipped, decide: conf } },
  };
  t.equal(manifestProblem(manifest), undefined, 'a manifest with decide models is valid');
  t.match(manifestProblem({ ...manifest, params: { ...manifest.params, search: { ...shipped, decide: [] } } }), /decide/);
});

t.test('confidence-only questions train conf but neither the chain scorers nor decide', async (t) => {
  const store = await openShippedStore(DEVOTION);
  t.teardown(() => store.close());
  const set: TrainSet = { name: 'devotion', store, queries: [], judge: 'all-gold-docs', chains: true };
  const q = (id: string, text: string, gold: string[], extra: Partial<TrainQuery> = {}): Item => ({
    set,
    q: { id, suite: extra.confidenceOnly ? 'synthetic' : 'dev', text, gold, type: 'bridge', ...extra },
  });
  const asked = [
    q('a', QUESTION, ['film', 'director']),
    q('b', 'Who directed the 1929 silent drama Devotion?', ['film']),
    q('c', 'Which actress is the daughter of Guido Brignone?', ['director']),
    q('d', 'What is a film with no synchronized recorded sound called?', ['other']),
  ];
  const extra = [
    q('e', 'In what year Devotion Italian silent drama film?', ['film'], { confidenceOnly: true }),
    q('f', 'What Guido Brignone was an Italian film director?', ['other'], { confidenceOnly: true }),
  ];
  const theta = { terms: [], weights: [] };
  const without = fitAll(asked, asked, theta, 1, () => {});
  const withExtra = fitAll([...asked, ...extra], [...asked, ...extra], theta, 1, () => {});
  t.equal(without.decide, undefined, 'no confidence-only questions: no decide models');
  t.same([withExtra.W1, withExtra.W2, withExtra.W3], [without.W1, without.W2, without.W3], 'the chain scorers as without them');
  t.same(withExtra.decide, without.conf, 'decide: the sufficiency models fitted without them');
  t.same(withExtra.keywords.decide, without.keywords.conf, 'and the same for keyword queries');
  t.notSame(withExtra.conf, without.conf, 'conf: fitted with them');
});
