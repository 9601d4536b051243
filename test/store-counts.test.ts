// A store's counts (n_docs of GET /v1/stores and /v1/stores/{store}, the svc_store_documents gauge)
// are exact through ingests, upserts and deletes, and reading them is O(1): it reads LMDB's own
// entry count, never the documents, so a listing or a metrics scrape maps none of the store's data
// file into the server's memory (counting by walking the documents faulted in the whole file).
import fs from 'node:fs';
import t from 'tap';
import { startTestServer } from './helpers/server.js';

/** Resident bytes of the mappings of files whose path ends with `suffix` (/proc/self/smaps). */
function residentOf(suffix: string): number {
  let n = 0;
  let on = false;
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) on = head[1].endsWith(suffix);
    else if (on) n += Number(/^Rss:\s+(\d+) kB/.exec(line)?.[1] ?? 0) * 1024;
  }
  return n;
}

const doc = (i: number, words: number) => ({
  id: `d${i}`,
  text: `Entry ${i}\n${Array.from({ length: words }, (_, w) => `word${(i * 7 + w) % 997}`).join(' ')}.`,
  metadata: { n: i },
});

t.test('n_docs is exact through ingests, upserts and deletes', async (t) => {
  const { api } = await startTestServer(t);
  await api.post('/stores', { name: 'c' });
  const count = async () => (await api.get('/stores/c')).n_docs;
  t.equal(await count(), 0, 'empty');
  await api.post('/stores/c/documents', { documents: Array.from({ length: 40 }, (_, i) => doc(i, 20)) });
  t.equal(await count(), 40, 'after an ingest');
  await api.post('/stores/c/documents', { documents: [doc(3, 25), doc(40, 20)] });
  t.equal(await count(), 41, 'an upsert replaces, a new id adds');
  await api.delete('/stores/c/documents/d5');
  t.equal(await count(), 40, 'after a delete');
  const listed = (await api.get('/stores')).stores.find((s: { name: string }) => s.name === 'c');
  t.equal(listed.n_docs, 40, 'the listing agrees');
});

t.test("reading a store's counts maps none of its data file", { skip: process.platform !== 'linux' && 'needs /proc' }, async (t) => {
  const { api, server, dataDir } = await startTestServer(t);
  const store = await api.post('/stores', { name: 'big' });
  for (let b = 0; b < 3; b++) {
    await api.post('/stores/big/documents', { documents: Array.from({ length: 500 }, (_, i) => doc(b * 500 + i, 300)) });
  }
  const file = `${store.id}/data.mdb`;
  const before = residentOf(file);
  for (let i = 0; i < 3; i++) {
    t.equal((await api.get('/stores/big')).n_docs, 1500);
    await api.get('/stores');
    await (await fetch(server.url.replace(/\/v1$/, '/metrics'))).text();
  }
  const grown = residentOf(file) - before;
  const size = fs.statSync(`${dataDir}/default/${file}`).size;
  t.ok(size > 4 * 2 ** 20, `a data file of ${(size / 2 ** 20).toFixed(1)} MiB`);
  t.ok(grown < size / 20, `counting mapped ${(grown / 2 ** 20).toFixed(2)} MiB of it`);
});
