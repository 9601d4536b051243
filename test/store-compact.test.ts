// Disk space (src/store/catalog.ts compactStore, src/api/store-registry.ts): LMDB reuses the pages
// deleted and replaced documents free; POST /v1/stores/{store}/compact (svc compact) rewrites a
// store's file without them, and the server does it by itself once they pass half the file (no use
// of the store: its idle time runs on); the store answers exactly as before, readers that began
// before a compaction finish on what they began with, and a crash at any step of the swap leaves the
// store whole (the swap's recovery here; kill -9 during compactions is in the crash harness,
// test/crash-safety.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { compactStore, createStore, newStoreId, projectStoreDirs } from '../src/store/catalog.js';
import { StoreDb } from '../src/store/store-db.js';
import { assertBuilt, runCli } from './helpers/cli.js';
import { type Api, startTestServer, tempDir } from './helpers/server.js';

/** Opens every store of project `p` (a start's scan: interrupted swaps finished or dropped first). */
const openProjectStores = (dataDir: string) => projectStoreDirs(dataDir, 'p').map((dir) => StoreDb.open(dir));

const PARA = 'Rivers, mountains, harbours and old films fill this passage of the archive. ';
const docs = (prefix: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${from + i}`,
    text: `Record ${prefix}${from + i}. Its marker is zq${prefix}${from + i}. ${PARA.repeat(12)}`,
    metadata: { n: from + i, keep: (from + i) % 10 === 0 },
  }));

async function ingest(api: Api, store: string, all: ReturnType<typeof docs>): Promise<void> {
  for (let i = 0; i < all.length; i += 500) await api.post(`/stores/${store}/documents`, { documents: all.slice(i, i + 500) });
}

const noLatency = ({ latency_ms: _l, ...rest }: Record<string, unknown>) => rest;

t.test('compaction shrinks a store 90% deleted to near a fresh one, and changes no answer', async (t) => {
  const s = await startTestServer(t);
  const { registry } = s.server.services;
  const fileOf = (name: string) => registry.entry('default', name).open!.db.fileBytes();
  await s.api.post('/stores', { name: 'big' });
  await ingest(s.api, 'big', docs('d', 0, 3000));
  await ingest(s.api, 'big', docs('d', 0, 3000));
  const replaced = fileOf('big');
  await ingest(s.api, 'big', docs('d', 0, 3000));
  t.ok(
    fileOf('big') < replaced * 1.05,
    `replacing every document again reuses the space the last replacement freed (${replaced} -> ${fileOf('big')} bytes)`,
  );

  t.equal((await s.api.post('/stores/big/documents/delete', { filter: { keep: false } })).deleted, 2700);
  await s.api.post('/stores', { name: 'fresh' });
  await ingest(
    s.api,
    'fresh',
    docs('d', 0, 3000).filter((d) => d.metadata.keep),
  );
  const ask = { query: 'Which record has the marker zqd1230?', max_results: 5 };
  const before = noLatency(await s.api.post('/stores/big/search', ask));
  const listed = await s.api.get('/stores/big/documents?limit=100');
  const fresh = fileOf('fresh');

  const c = await s.api.post('/stores/big/compact', undefined);
  t.ok(c.file_bytes_after < c.file_bytes_before / 3, `the file shrinks (${c.file_bytes_before} -> ${c.file_bytes_after} bytes)`);
  t.ok(c.file_bytes_after <= 1.3 * fresh, `to at most 1.3x a fresh store holding the rest (${c.file_bytes_after} vs ${fresh} bytes)`);
  t.same([c.store.name, c.store.n_docs], ['big', 300], 'it answers with the store');
  t.equal(fileOf('big'), c.file_bytes_after, 'the store now reads the compacted file');
  t.same(noLatency(await s.api.post('/stores/big/search', ask)), before, 'the same answer');
  t.same(await s.api.get('/stores/big/documents?limit=100'), listed, 'the same documents, in the same order');
  await s.api.post('/stores/big/documents', { documents: docs('n', 0, 3) });
  t.equal((await s.api.post('/stores/big/search', { query: 'zqn1', max_hops: 1 })).passages[0].doc_id, 'n1', 'writes go on after it');
  const written = await s.api.get('/stores/big/documents?limit=100');

  const again = await s.restart();
  t.equal((await again.api.get('/stores/big')).n_docs, 303, 'a restart opens the compacted store');
  t.same(await again.api.get('/stores/big/documents?limit=100'), written, '... with every document and write');
});

t.test('readers that began before a compaction finish on the database they began with', async (t) => {
  const s = await startTestServer(t);
  const { registry } = s.server.services;
  await s.api.post('/stores', { name: 'r' });
  // about 9 MB of text: more than the socket buffers hold, so the export waits for its reader
  const long = docs('r', 0, 3000).map((d) => ({ ...d, text: d.text + PARA.repeat(28) }));
  for (let i = 0; i < long.length; i += 500) await s.api.post('/stores/r/documents', { documents: long.slice(i, i + 500) });

  const res = await fetch(`${s.server.url}/stores/r/export`);
  const reader = res.body!.getReader();
  let text = new TextDecoder().decode((await reader.read()).value);
  t.equal(registry.entry('default', 'r').leases, 1, 'the export holds its lease while it waits for its reader');
  const c = await s.api.post('/stores/r/compact', undefined);
  t.ok(c.file_bytes_after > 0, 'compacted while the export streams');
  t.equal(registry.entry('default', 'r').retired.length, 1, "the export's database stays open");
  for (let r = await reader.read(); !r.done; r = await reader.read()) text += new TextDecoder().decode(r.value);
  const lines = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.equal(lines.length, 3000, 'the export is whole');
  t.same(
    lines.slice(0, 2).map((d) => d.id),
    ['r0', 'r1'],
    'in ingest order',
  );
  await new Promise((r) => setTimeout(r, 50));
  t.equal(registry.entry('default', 'r').retired.length, 0, 'and is closed once the export ends');
});

t.test('the server compacts a store by itself once free pages pass half its file', async (t) => {
  const s = await startTestServer(t);
  const { registry } = s.server.services;
  await s.api.post('/stores', { name: 'auto' });
  await ingest(s.api, 'auto', docs('a', 0, 1000));
  t.equal(await registry.maintenance.compactWasteful(0), 0, 'nothing to do while the file is mostly live');
  await s.api.post('/stores/auto/documents/delete', { filter: { keep: false } });
  const before = registry.entry('default', 'auto').open!.db.fileBytes();
  const lastUsed = registry.entry('default', 'auto').lastUsed;
  await new Promise((r) => setTimeout(r, 5));
  t.equal(await registry.maintenance.compactWasteful(0), 1, 'compacted once most of it is free');
  t.equal(registry.entry('default', 'auto').lastUsed, lastUsed, 'its own compaction is not a use: the idle time runs on');
  t.ok(registry.entry('default', 'auto').open!.db.fileBytes() < before / 3, 'smaller');
  t.equal(await registry.maintenance.compactWasteful(0), 0, 'and not again');
  t.equal((await s.api.get('/stores/auto')).n_docs, 100);
});

t.test('svc compact: one store, or every store of the project', async (t) => {
  assertBuilt();
  const s = await startTestServer(t);
  for (const name of ['x', 'y']) {
    await s.api.post('/stores', { name });
    await ingest(s.api, name, docs(name, 0, 200));
  }
  const env = { SVC_BASE_URL: s.server.url };
  const one = await runCli(['compact', 'x'], env);
  t.equal(one.code, 0, one.stderr);
  t.match(one.stdout, /^compacted 'x': .+ -> .+ \(\d+ ms\)\n$/, 'one line');
  const all = await runCli(['compact', '--json'], env);
  t.equal(all.code, 0, all.stderr);
  t.same(
    JSON.parse(all.stdout)
      .map((c: { store: { name: string } }) => c.store.name)
      .sort(),
    ['x', 'y'],
    'every store',
  );
  const missing = await runCli(['compact', 'nope'], env);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /no store named or with id 'nope'/);
});

t.test('a compaction cut short at any step leaves the store whole', async (t) => {
  const dataDir = tempDir(t);
  const meta = () => ({ id: newStoreId(), name: 's', project: 'p', created_at: new Date().toISOString(), model: 'm@1' });
  const seeded = async () => {
    const db = await createStore(dataDir, meta());
    await db.writeDocs([{ id: 'a', text: 'alpha', metadata: {}, n_tokens: 1, encoding: new Uint8Array([1]) }]);
    return db;
  };
  const parent = path.join(dataDir, 'p');
  const holdA = (dbs: Array<{ getDoc(id: string): unknown }>) => dbs.map((d) => Boolean(d.getDoc('a')));

  // the copy was whole and renamed `.compact-<id>`, but the swap never began: it is dropped
  let db = await seeded();
  const id = path.basename(db.dir);
  fs.mkdirSync(path.join(parent, `.compact-${id}`));
  await db.copyCompacted(path.join(parent, `.compact-${id}`));
  fs.mkdirSync(path.join(parent, `.tmp-compact-${id}`));
  await db.close();
  let dbs = openProjectStores(dataDir);
  t.same(holdA(dbs), [true], 'a swap that never began: the store as it was');
  t.same(fs.readdirSync(parent), [id], 'the copy and a partial copy removed');
  for (const d of dbs) await d.close();

  // the store was moved to the trash, the copy not yet renamed: the swap is finished
  db = StoreDb.open(path.join(parent, id));
  fs.mkdirSync(path.join(parent, `.compact-${id}`));
  await db.copyCompacted(path.join(parent, `.compact-${id}`));
  await db.close();
  fs.renameSync(path.join(parent, id), path.join(parent, `.trash-${id}-0000`));
  dbs = openProjectStores(dataDir);
  t.same(holdA(dbs), [true], 'a swap cut in the middle: the compacted copy becomes the store');
  t.same(fs.readdirSync(parent), [id], 'the trash removed');
  for (const d of dbs) await d.close();

  // a whole compaction
  [db] = openProjectStores(dataDir);
  const compacted = await compactStore(db);
  t.ok(compacted.getDoc('a'), 'compactStore returns the store open on its new file');
  t.ok(db.getDoc('a'), 'the old database stays readable until closed');
  await db.close();
  await compacted.close();
  t.same(fs.readdirSync(parent), [id], 'nothing left beside it');
});
