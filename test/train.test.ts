// Training end to end on a small sample through the same code path as `npm run train`: the model
// folder it writes verifies (sizes, hashes), names its data and cross-validated figures, is the
// same when trained again with the same seed, and serves searches (questions and keyword queries)
// in a real server.

import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { READER_FILE } from '../src/answer/reader.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { H1_NAMES } from '../src/engine/ranking/index.js';
import { train } from '../src/train/train.js';
import { SHARED, startTestServer, tempDir } from './helpers/server.js';

const dir = tempDir(t);
const opts = { dataDir: SHARED, name: 'svc-test', version: '0.0.1', seed: 7, folds: 2, sample: 2, threads: 1, log: () => {} };

t.test('a tiny model trains, verifies and is deterministic', async (t) => {
  const a = await train({ ...opts, outDir: path.join(dir, 'a') });
  const b = await train({ ...opts, outDir: path.join(dir, 'b') });
  const { manifest, files } = readModelFolder(a.dir);
  t.equal(manifest.name, 'svc-test');
  t.ok(
    (manifest.training as any).data.some((d: any) => d.path === 'bench/wiki-pool/corpus.jsonl' && /^[0-9a-f]{64}$/.test(d.sha256)),
    'data named with hashes',
  );
  t.ok((manifest.metrics as any).cross_validation.suites['hotpotqa-dev'], 'cross-validated figures recorded');
  const search = manifest.params.search as any;
  t.equal(search.W1.length, H1_NAMES.length, 'one hop-1 weight per feature the engine computes');
  t.ok(files.has('dense-table.i8') && files.has(READER_FILE), 'dense encoder and native reader shipped');
  t.ok((manifest.metrics as any).reader.heldout_questions > 0, 'reader held-out figures recorded');
  t.ok(search.conf.length === 3 && search.tau.length === 2);
  t.ok(
    search.decide.length === 3 && search.keywords.decide.length === 3,
    'the models the loop decides by, apart (the synthetic questions train the returned confidence only)',
  );
  t.ok((manifest.metrics as any).cross_validation.suites['squad-train-synthetic'], 'cross-validated figures of the synthetic questions');
  t.ok(search.returned.a > 0 && Number.isFinite(search.returned.b), 'the returned confidence calibrated');
  t.ok(
    (manifest.metrics as any).cross_validation.uncalibrated_returned_confidence['hotpotqa-dev'],
    'figures before that calibration recorded',
  );
  t.ok(
    search.keywords.conf.length === 3 && search.keywords.conf.every((c: any) => c.w.length === search.conf[0].w.length),
    'sufficiency models of keyword queries, one per stage',
  );
  t.ok(search.keywords.returned.a > 0 && Number.isFinite(search.keywords.returned.b), 'their returned confidence calibrated');
  t.ok(
    (manifest.metrics as any).cross_validation.suites['hotpotqa-dev (keywords)'],
    'cross-validated figures of the questions asked as keywords recorded',
  );
  const rerank = manifest.params.rerank as any;
  t.ok(rerank.n >= 2 && rerank.w.length === 2 && rerank.w.every(Number.isFinite), 'the reader re-ranking of one-hop results fitted');
  t.equal(
    fs.readFileSync(path.join(a.dir, 'manifest.json'), 'utf8'),
    fs.readFileSync(path.join(b.dir, 'manifest.json'), 'utf8'),
    'same seed, same model',
  );
});

t.test('the trained model loads in the server and answers', async (t) => {
  const { api } = await startTestServer(t, { env: { SVC_MODEL_URI: path.join(dir, 'a') } });
  t.match((await api.get('/health')).engine, /svc-test@0\.0\.1/);
  await api.post('/stores', { name: 'kb' });
  await api.post('/stores/kb/documents', {
    documents: [
      { id: 'film', text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent drama film directed by Guido Brignone.' },
      { id: 'director', text: 'Guido Brignone\nGuido Brignone was an Italian film director, father of the actress Lilla Brignone.' },
    ],
  });
  const r = await api.post('/stores/kb/search', {
    query: 'Who is the child of the director of the film Devotion (1929 film)?',
    return_trace: true,
  });
  t.same(new Set(r.passages.map((p: any) => p.doc_id)), new Set(['film', 'director']));
  t.ok(r.confidence >= 0 && r.confidence <= 1);
  const kw = await api.post('/stores/kb/search', { query: 'child director film Devotion 1929 film' });
  t.ok(kw.passages.length > 0 && kw.confidence >= 0 && kw.confidence <= 1, 'a keyword query is scored by the keyword models');
  const a = await api.post('/stores/kb/search', { query: 'Who directed Devotion (1929 film)?', answer: true });
  t.equal(a.answer.source, 'native', 'the trained reader answers');
  t.type(a.answer.text, 'string');
});
