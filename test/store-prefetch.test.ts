// A search brings the texts it returns into memory off the server's thread before reading them
// (StoreDb.prefetchTexts; src/api/handlers-search.ts): the texts read after it are the stored ones,
// ids of no document and ids no store could hold read nothing, an empty list resolves at once, a
// store's close waits for a prefetch under way, and a closed store's prefetch throws nothing. An
// export hands the ids of the documents after the ones it yields to its prefetch, a batch ahead,
// and yields every document as stored.
import t from 'tap';
import { createStore, newStoreId } from '../src/store/catalog.js';
import { TEXT_PREFETCH } from '../src/store/store-db.js';
import { openDatabases, openEnvironment } from '../src/store/store-env.js';
import { EXPORT_AHEAD, exportDocs } from '../src/store/store-walks.js';
import { tempDir } from './helpers/server.js';

const meta = () => ({ id: newStoreId(), name: 's', project: 'p', created_at: new Date().toISOString(), model: 'm@1' });
const docs = Array.from({ length: 30 }, (_, i) => ({
  id: `d${i}`,
  text: `Document ${i}. ${'Rivers and harbours of the archive. '.repeat(1 + (i % 7) * 40)}`,
  metadata: {},
  n_tokens: 1,
  encoding: new Uint8Array([i]),
}));

t.test('texts prefetched read as stored; unknown and unstorable ids read nothing', async (t) => {
  const db = await createStore(tempDir(t), meta());
  t.teardown(() => db.close());
  await db.writeDocs(docs);
  t.ok(TEXT_PREFETCH.groups >= 2, 'several reads in flight');
  await db.prefetchTexts(docs.map((d) => d.id));
  await db.prefetchTexts([]);
  await db.prefetchTexts(['d1', 'd1', 'nope', '', 'x'.repeat(5000)]);
  const read = db.textReader();
  for (const d of docs) t.equal(read(d.id, 0, d.text.length), d.text, `${d.id} as stored`);
  t.equal(read('nope', 0, 5), undefined, 'no such document');
  const closing = db.prefetchTexts(docs.map((d) => d.id));
  await Promise.all([closing, db.close()]);
  t.pass('a close while texts are prefetched waits for them');
  await db.prefetchTexts(['d1']);
  t.pass('a closed store: nothing prefetched, nothing thrown');
});

t.test('an export prefetches the next documents while it yields these', async (t) => {
  const dir = tempDir(t);
  const db = await createStore(dir, meta());
  const many = Array.from({ length: 2 * EXPORT_AHEAD + 17 }, (_, i) => ({ ...docs[i % docs.length], id: `e${i}`, text: `Entry ${i}.` }));
  await db.writeDocs(many);
  const exported = [...db.exportDocs()];
  t.same(
    exported.map((d) => [d.id, d.text]),
    many.map((d) => [d.id, d.text]),
    'every document as stored, in ingest order, with the prefetch',
  );
  await db.prefetchDocs(['e1', 'nope']);
  await db.close();
  await db.prefetchDocs(['e1']);
  t.pass('a closed store prefetches nothing and throws nothing');

  const root = openEnvironment(db.dir);
  t.teardown(() => root.close());
  const events: string[] = [];
  for (const d of exportDocs(openDatabases(root), (ids) => events.push(`prefetch ${ids[0]}..${ids[ids.length - 1]} (${ids.length})`))) {
    if (Number(d.id.slice(1)) % EXPORT_AHEAD === 0) events.push(`yield ${d.id}`);
  }
  const last = many.length - 1;
  t.same(
    events,
    [
      `prefetch e0..e${EXPORT_AHEAD - 1} (${EXPORT_AHEAD})`,
      `prefetch e${EXPORT_AHEAD}..e${2 * EXPORT_AHEAD - 1} (${EXPORT_AHEAD})`,
      'yield e0',
      `prefetch e${2 * EXPORT_AHEAD}..e${last} (17)`,
      `yield e${EXPORT_AHEAD}`,
      `yield e${2 * EXPORT_AHEAD}`,
    ],
    'each batch is prefetched before the batch before it is yielded',
  );
});
