// A search brings the texts it returns into memory off the server's thread before reading them
// (StoreDb.prefetchTexts; src/api/handlers-search.ts): the texts read after it are the stored ones,
// ids of no document and ids no store could hold read nothing, an empty list resolves at once, a
// store's close waits for a prefetch under way, and a closed store's prefetch throws nothing.
import t from 'tap';
import { createStore, newStoreId } from '../src/store/catalog.js';
import { TEXT_PREFETCH } from '../src/store/store-db.js';
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
