// The reader's re-ranking of one-hop results (answer/rerank.ts): the first n passages are re-ordered
// by the weighted sum of the named features [hop-1 score, best-sentence logit] and nothing else changes; the scores keep their values,
// best first. Over HTTP, a one-hop search of a server whose model has params.rerank returns exactly
// that re-ordering of what the same model without it returns, and max_results 1 the first passage of
// it. The model's parameters are checked, by name.
import path from 'node:path';
import t from 'tap';
import { NativeReader } from '../src/answer/reader.js';
import { RERANK_NAMES, rerankLead, rerankParams, rerankScores } from '../src/answer/rerank.js';
import { defaultModelUri } from '../src/config.js';
import { type LoadedModelFolder, loadModelFolder } from '../src/engine/index.js';
import { manifestProblem } from '../src/engine/model/index.js';
import { makeReaderModel, testReaderFile } from './helpers/reader-model.js';
import { startTestServer, tempDir } from './helpers/server.js';

const reader = NativeReader.parse(testReaderFile());
const Q = 'When was Ada Morrow born?';
const P = [
  { id: 'a', text: 'Ada Morrow studied painting before turning to cinema.', score: 2 },
  { id: 'b', text: 'Ada Morrow was born in Lisbon in 1901.', score: 1.9 },
  { id: 'c', text: 'Lisbon is a port city with a long history of trade.', score: 1 },
];

t.test('the reader logit of the answer sentence is the larger', async (t) => {
  t.ok(reader.bestSentence(Q, P[1].text) > reader.bestSentence(Q, P[0].text));
  t.same(rerankScores(reader, { n: 2, w: [2, 0.5], features: [...RERANK_NAMES] }, Q, [1, 3], [P[0].text, P[1].text]), [
    2 + 0.5 * reader.bestSentence(Q, P[0].text),
    6 + 0.5 * reader.bestSentence(Q, P[1].text),
  ]);
});

t.test('the head is re-ordered, scores reassigned best-first, the rest untouched', async (t) => {
  const out = rerankLead(reader, { n: 2, w: [0, 1], features: [...RERANK_NAMES] }, Q, P);
  t.same(
    out.map((p) => p.id),
    ['b', 'a', 'c'],
  );
  t.same(
    out.map((p) => p.score),
    [2, 1.9, 1],
  );
  t.same(
    P.map((p) => p.id),
    ['a', 'b', 'c'],
    'the input is not modified',
  );
  t.same(
    rerankLead(reader, { n: 2, w: [1, 0], features: [...RERANK_NAMES] }, Q, P).map((p) => p.id),
    ['a', 'b', 'c'],
    'score alone keeps the order',
  );
  t.same(
    rerankLead(reader, { n: 1, w: [0, 1], features: [...RERANK_NAMES] }, Q, P).map((p) => p.id),
    ['a', 'b', 'c'],
    'n = 1 changes nothing',
  );
  t.same(
    rerankLead(reader, { n: 10, w: [0, 1], features: [...RERANK_NAMES] }, Q, P)
      .map((p) => p.id)
      .sort(),
    ['a', 'b', 'c'],
    'n beyond the list: the same passages',
  );
  t.same(rerankLead(reader, { n: 2, w: [0, 1], features: [...RERANK_NAMES] }, Q, []), []);
});

t.test("the model's params.rerank is read and checked", async (t) => {
  const features = ['hop1_score', 'sentence_logit'];
  t.same(RERANK_NAMES, features, 'the re-ranking features, by name');
  const folder = (params: Record<string, unknown>) =>
    ({ manifest: { name: 'm', version: '1', params }, files: new Map() }) as unknown as LoadedModelFolder;
  t.same(rerankParams(folder({ rerank: { n: 2, w: [1, 0.3], features } })), { params: { n: 2, w: [1, 0.3], features } });
  t.match(rerankParams(folder({})).problem, /m@1 has no params\.rerank/);
  t.match(rerankParams(folder({ rerank: { n: 2, w: [1, 0.3], features: [...features].reverse() } })), {
    params: undefined,
    problem:
      "m@1: params.rerank does not fit this version's re-ranking (feature 1 is 'sentence_logit' in the model and 'hop1_score' in this engine)",
  });
  t.match(rerankParams(folder({ rerank: { n: 2, w: [1], features } })), { params: undefined, problem: /it has 1 weights for 2 features/ });
  // the manifest's schema refuses values of the wrong type or range before any of this runs
  const { manifest } = loadModelFolder(defaultModelUri());
  for (const bad of [{ n: 0 }, { n: 2.5 }, { n: 101 }, { w: [1, null] }, { n: undefined }, { features: [''] }]) {
    const rerank = { ...manifest.params.rerank, ...bad };
    t.match(manifestProblem({ ...manifest, params: { ...manifest.params, rerank } }), /^\/params\/rerank/, JSON.stringify(bad));
  }
});

t.test('over HTTP: a one-hop result is the re-ordering of the one the model without it returns', async (t) => {
  const dir = tempDir(t);
  // weights that prefer the lower logit make the re-ordering visible whatever the engine's order
  const params = { n: 2, w: [0, -1], features: [...RERANK_NAMES] };
  makeReaderModel(path.join(dir, 'plain'), undefined, null);
  makeReaderModel(path.join(dir, 'rerank'), undefined, params);
  const docs = [
    { id: 'ada', text: 'Ada Morrow\nAda Morrow was born in Lisbon in 1901. Ada Morrow studied painting before turning to cinema.' },
    { id: 'film', text: 'The Silent Tide\nThe film The Silent Tide was directed by Ada Morrow and released in 1931.' },
    { id: 'lisbon', text: 'Lisbon\nLisbon is a port city with a long history of trade. Ada Morrow painted its harbour.' },
  ];
  const results = [];
  for (const m of ['plain', 'rerank']) {
    const { api } = await startTestServer(t, { env: { SVC_MODEL_URI: path.join(dir, m) } });
    await api.post('/stores', { name: 'kb' });
    await api.post('/stores/kb/documents', { documents: docs });
    results.push([
      await api.post('/stores/kb/search', { query: Q, max_hops: 1 }),
      await api.post('/stores/kb/search', { query: Q, max_hops: 1, max_results: 1 }),
    ]);
  }
  const [[plain, plainOne], [reranked, rerankedOne]] = results;
  t.ok(plain.passages.length >= 3, 'enough passages to re-order');
  const expect = rerankLead(reader, params, Q, plain.passages);
  t.same(reranked.passages, expect);
  t.not(reranked.passages[0].text, plain.passages[0].text, 'the head changed');
  t.equal(reranked.confidence, plain.confidence);
  t.equal(reranked.hops_used, 1);
  t.same(rerankedOne.passages, reranked.passages.slice(0, 1), 'max_results 1: the first of what 10 gets');
  t.equal(rerankedOne.confidence, plainOne.confidence, 'and the confidence of one passage');
});
