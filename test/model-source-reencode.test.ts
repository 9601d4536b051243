// Pinned versions: pointing SVC_MODEL_URI at a model version of another encoder re-encodes every
// store from its stored text at open (progress in the logs), never searching old encodings with the
// new model; a version that changed only the ranking (the same encoder) opens them as they are, and
// a store that does not record its encoder (made by an older build) is re-encoded once. The
// switch is one transaction: a crash mid-re-encode leaves the old encodings whole and recorded, and
// the next start (with either model) finds a consistent store. A store analysed by an older text
// analysis (before CJK and Thai words were segmented) is re-encoded the same way, so it is never
// searched with stale tokens.

import fs from 'node:fs';
import path from 'node:path';
import { open } from 'lmdb';
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import { createStore, newStoreId } from '../src/store/catalog.js';
import { StoreDb } from '../src/store/store-db.js';
import { type LoggedServer, makeModelVersion, seedStore, startOn } from './helpers/model-source.js';
import { tempDir } from './helpers/server.js';

const enc = (b: number) => new Uint8Array([b, b, b]);

t.test('store layer: staged encodings become live with the model in one step; uncommitted ones never do', async (t) => {
  const dataDir = tempDir(t);
  const meta = { id: newStoreId(), name: 's', project: 'p', created_at: new Date().toISOString(), model: 'm@1' };
  let db = await createStore(dataDir, meta);
  await db.writeDocs(['a', 'b', 'c'].map((id, i) => ({ id, text: `text ${id}`, metadata: { i }, n_tokens: 2, encoding: enc(i + 1) })));
  const live = () => [...db.encodedDocs()].map((d) => [d.id, d.encoding[0]]);
  t.same(
    [...db.textBatches(2, 1e9)].map((b) => b.map((d) => d.id)),
    [['a', 'b'], ['c']],
    'text in ingest order, in batches',
  );

  await db.clearStaged();
  await db.stageEncodings([{ id: 'a', encoding: enc(9) }]);
  await db.close();
  db = StoreDb.open(db.dir);
  t.equal(db.meta.model, 'm@1', 'a re-encode cut short leaves the old model recorded');
  t.same(
    live(),
    [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ],
    '... and the old encodings whole',
  );

  await db.clearStaged();
  await db.stageEncodings(['a', 'b', 'c'].map((id, i) => ({ id, encoding: enc(i + 7) })));
  await db.commitStaged({ model: 'm@2', encoder: 'e2', analyzer: 'text@2' }, new Map([['b', 5]]));
  t.same(
    live(),
    [
      ['a', 7],
      ['b', 8],
      ['c', 9],
    ],
    'the new encodings are live',
  );
  await db.close();
  db = StoreDb.open(db.dir);
  t.same(
    { model: db.meta.model, analyzer: db.meta.analyzer, encodings: db.meta.encodings },
    { model: 'm@2', analyzer: 'text@2', encodings: 'enc-b' },
    'recorded durably',
  );
  t.same([db.getDoc('a')?.n_tokens, db.getDoc('b')?.n_tokens], [2, 5], 'changed token counts updated');
  await db.writeDocs([{ id: 'd', text: 'text d', metadata: {}, n_tokens: 1, encoding: enc(4) }]);
  await db.deleteDoc('a');
  t.same(
    live(),
    [
      ['b', 8],
      ['c', 9],
      ['d', 4],
    ],
    'writes and deletes go to the live encodings',
  );

  await db.clearStaged();
  await db.stageEncodings(['b', 'c', 'd'].map((id) => ({ id, encoding: enc(1) })));
  await db.commitStaged({ model: 'm@3', encoder: 'e3', analyzer: 'text@2' }, new Map());
  t.same({ model: db.meta.model, encodings: db.meta.encodings ?? 'enc' }, { model: 'm@3', encodings: 'enc' }, 'the next switch goes back');
  t.same(live(), [
    ['b', 1],
    ['c', 1],
    ['d', 1],
  ]);
  await db.close();
});

t.test('a new model version re-encodes the stores at open, after an interrupted re-encode too', async (t) => {
  const root = tempDir(t);
  const v1 = path.join(root, 'models', '1.0.0');
  const v2 = path.join(root, 'models', '2.0.0');
  makeModelVersion(v1, '1.0.0');
  makeModelVersion(v2, '2.0.0');
  const dataDir = path.join(root, 'data');

  let s = await startOn(t, { modelUri: v1, dataDir });
  await seedStore(s.api);
  await s.api.post('/stores', { name: 'empty' });
  const listing = await s.api.get('/stores/docs/documents?limit=100');
  const storeDir = s.server.services.registry.entry('default', 'docs').dir;
  await s.close();

  // A re-encode that crashed after staging part of its new encodings (the store layer test shows the
  // old encodings stay live); the next start must not be confused by what it left.
  const db = StoreDb.open(storeDir);
  await db.clearStaged();
  await db.stageEncodings([{ id: 'd1', encoding: new Uint8Array([1, 2, 3]) }]);
  await db.close();

  s = await startOn(t, { modelUri: v2, dataDir });
  const started = s.logs.filter((l) => l.msg === 'store re-encoding with the new model');
  t.same(
    started.map((l) => [l.store, l.from, l.to, l.docs]).sort(),
    [
      ['docs', 'svc-mh@1.0.0', 'svc-mh@2.0.0', 40],
      ['empty', 'svc-mh@1.0.0', 'svc-mh@2.0.0', 0],
    ],
    'each store re-encoded, logged with both versions',
  );
  t.ok(
    s.logs.some((l) => l.msg === 'store re-encoded' && l.store === 'docs' && l.docs === 40),
    'completion logged',
  );
  t.equal(s.server.services.registry.entry('default', 'docs').meta.model, 'svc-mh@2.0.0', 'the store records the new model');
  t.same(await s.api.get('/stores/docs/documents?limit=100'), listing, 'documents, metadata and order unchanged');
  t.equal((await s.api.post('/stores/docs/search', { query: 'zq17' })).passages[0].doc_id, 'd17', 'searches with the new encodings');
  await s.api.post('/stores/docs/documents', { documents: [{ id: 'new', text: 'A fresh document about zq99.' }] });
  t.equal((await s.api.post('/stores/docs/search', { query: 'zq99' })).passages[0].doc_id, 'new', 'ingest keeps working after the switch');
  await s.close();

  const reopened = StoreDb.open(storeDir);
  t.equal(reopened.meta.model, 'svc-mh@2.0.0', 'recorded durably: a restart on 2.0.0 opens the store as it is');
  await reopened.close();
});

t.test('a model version that changed only the ranking opens the stores as they are, and so does going back', async (t) => {
  const root = tempDir(t);
  const v1 = path.join(root, 'models', '1.0.0');
  const v2 = path.join(root, 'models', '1.0.1');
  makeModelVersion(v1, '1.0.0', 'shared');
  makeModelVersion(v2, '1.0.1', 'shared');
  // 1.0.1 calibrates the confidence it returns otherwise (questions and keyword queries): a ranking change, the encoder untouched
  const manifestFile = path.join(v2, 'manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  manifest.params.search.returned = { a: 0.5, b: -1 };
  manifest.params.search.keywords.returned = { a: 0.5, b: -1 };
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  const dataDir = path.join(root, 'data');
  const ask = async (s: LoggedServer) => {
    const r = await s.api.post('/stores/docs/search', { query: 'zq17' });
    return { top: r.passages[0].doc_id, confidence: r.confidence };
  };
  const reencoded = (s: LoggedServer) => s.logs.filter((l) => /re-encod/.test(l.msg)).map((l) => l.msg);

  let s = await startOn(t, { modelUri: v1, dataDir });
  await seedStore(s.api);
  const before = await ask(s);
  const listing = await s.api.get('/stores/docs/documents?limit=100');
  const made = { ...s.server.services.registry.entry('default', 'docs').meta };
  t.equal(made.encoder, s.server.services.engine.encoder, 'a new store records the encoder of its encodings');
  await s.close();

  s = await startOn(t, { modelUri: v2, dataDir });
  t.equal(s.server.services.engine.encoder, made.encoder, 'both versions have one encoder');
  t.same(reencoded(s), [], 'nothing re-encoded');
  const after = await ask(s);
  t.equal(after.top, before.top, 'the same passages found');
  t.not(after.confidence, before.confidence, "searched with 1.0.1's ranking");
  t.match(
    s.logs.find((l) => l.msg === 'store opened' && l.store === 'docs'),
    { from: 'snapshot' },
    'the index read from the snapshot it left',
  );
  const meta = s.server.services.registry.entry('default', 'docs').meta;
  t.same(
    [meta.model, meta.encoder, meta.encodings ?? 'enc'],
    [made.model, made.encoder, 'enc'],
    'the store still records what made its encodings',
  );
  t.same(await s.api.get('/stores/docs/documents?limit=100'), listing, 'documents, metadata and order unchanged');
  await s.api.post('/stores/docs/documents', { documents: [{ id: 'new', text: 'A fresh document about zq99.' }] });
  await s.close();

  s = await startOn(t, { modelUri: v1, dataDir });
  t.same(reencoded(s), [], 'going back to 1.0.0 re-encodes nothing either');
  t.equal((await ask(s)).top, before.top, 'the same passages found');
  t.equal((await s.api.post('/stores/docs/search', { query: 'zq99' })).passages[0].doc_id, 'new', "1.0.1's ingest read by 1.0.0");
  await s.close();
});

t.test('a store made before encoders were recorded is re-encoded once at open', async (t) => {
  const root = tempDir(t);
  const v1 = path.join(root, 'models', '1.0.0');
  makeModelVersion(v1, '1.0.0');
  const dataDir = path.join(root, 'data');
  let s = await startOn(t, { modelUri: v1, dataDir });
  await seedStore(s.api);
  const entry = s.server.services.registry.entry('default', 'docs');
  const { encoder, ...old } = entry.meta;
  await s.close();
  // what an older build left: a store that does not record its encoder (and no summary of it)
  const env = open({ path: entry.dir, maxDbs: 8 });
  await env.put('store', old);
  await env.close();
  fs.rmSync(path.join(entry.dir, 'summary.json'), { force: true });

  s = await startOn(t, { modelUri: v1, dataDir });
  const log = s.logs.find((l) => l.msg === 'store re-encoding with the new model');
  t.same([log?.store, log?.encoder, log?.docs], ['docs', { from: null, to: encoder }, 40], 'logged, with the encoder recorded now');
  t.equal(s.server.services.registry.entry('default', 'docs').meta.encoder, encoder, 'recorded');
  t.equal((await s.api.post('/stores/docs/search', { query: 'zq17' })).passages[0].doc_id, 'd17', 'searches as before');
  await s.close();
  s = await startOn(t, { modelUri: v1, dataDir });
  t.same(
    s.logs.filter((l) => /re-encod/.test(l.msg)),
    [],
    'once: the next start re-encodes nothing',
  );
  await s.close();
});

t.test('a store made by an older text analysis is re-encoded from its text at open', async (t) => {
  const dataDir = tempDir(t);
  let s = await startOn(t, { modelUri: defaultModelUri(), dataDir });
  await s.api.post('/stores', { name: 'jp' });
  const fuji = '富士山\n富士山は静岡県と山梨県にまたがる活火山である。';
  await s.api.post('/stores/jp/documents', {
    documents: [
      { id: 'fuji', text: fuji },
      { id: 'en', text: 'Mount Fuji is the highest mountain in Japan.' },
    ],
  });
  const db = s.server.services.registry.entry('default', 'jp');
  const made = { ...db.meta };
  t.equal(made.analyzer, s.server.services.engine.analyzer, 'a new store records the analysis of its encodings');
  const words = (await s.api.get('/stores/jp/documents/fuji')).n_tokens;
  await s.close();

  // what a store written before the analysis was recorded holds: no `analyzer`, and the Japanese
  // document counted as the two runs of letters the old tokenizer saw
  const env = open({ path: db.dir, maxDbs: 8 });
  const { analyzer: _gone, ...old } = made;
  await env.put('store', old);
  const docs = env.openDB<any, string>('docs', {});
  await docs.put('fuji', { ...docs.get('fuji'), n_tokens: 2 });
  await env.close();

  s = await startOn(t, { modelUri: defaultModelUri(), dataDir });
  const log = s.logs.find((l) => l.msg === 'store re-encoding with the new text analysis');
  t.same([log?.store, log?.analyzer, log?.docs], ['jp', { from: null, to: made.analyzer }, 2], 'logged, with both analyses');
  t.ok(
    s.logs.some((l) => l.msg === 'store re-encoded' && l.store === 'jp'),
    'completion logged',
  );
  const reopened = s.server.services.registry.entry('default', 'jp').meta;
  t.same([reopened.analyzer, reopened.encodings], [made.analyzer, 'enc-b'], 'new encodings live, recorded with the analysis');
  t.equal((await s.api.get('/stores/jp/documents/fuji')).n_tokens, words, 'the token count re-counted from the text');
  t.equal(
    (await s.api.post('/stores/jp/search', { query: '富士山の標高', max_hops: 1 })).passages[0].doc_id,
    'fuji',
    'found with the new tokens',
  );
  await s.close();
});
