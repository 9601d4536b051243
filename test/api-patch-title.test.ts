// A PATCH that changes a document's metadata `title` encodes it again from its stored text: its
// passages carry the new title (a search on the title scores it higher at once and after a restart),
// its text, listing place and ingested_at stay; a PATCH of other keys leaves its encoding as it was.
import t from 'tap';
import { startTestServer } from './helpers/server.js';

const DOCS = [
  {
    id: 'hall',
    text: 'It was built of red stone in the old style by the masons of the town.',
    metadata: { title: 'Zorblax Tower', floor: 1 },
  },
  { id: 'mill', text: 'The mill by the river grinds grain for the town every autumn.', metadata: { title: 'River Mill' } },
  { id: 'school', text: 'The school teaches the children of the town to read and write.', metadata: { title: 'Town School' } },
];

t.test('a new title is searched at once and after a restart', async (t) => {
  const server = await startTestServer(t, { threads: 1 });
  const { api } = server;
  await api.post('/stores', { name: 'p' });
  await api.post('/stores/p/documents', { documents: DOCS });
  const scoreOf = async (a: typeof api, query: string) => {
    const r = await a.post('/stores/p/search', { query, max_results: 10, max_hops: 1 });
    return { first: r.passages[0]?.doc_id, hall: r.passages.find((p: { doc_id: string }) => p.doc_id === 'hall')?.score ?? -Infinity };
  };
  const before = await scoreOf(api, 'Quendle Hall');
  t.equal((await scoreOf(api, 'Zorblax Tower')).first, 'hall', 'the title given at ingest is searched');
  const listed = (await api.get('/stores/p/documents')).documents.map((d: { id: string }) => d.id);
  const old = await api.get('/stores/p/documents/hall');

  const patched = await api.patch('/stores/p/documents/hall', { metadata: { title: 'Quendle Hall' } });
  t.same(patched.metadata, { title: 'Quendle Hall', floor: 1 });
  t.equal(patched.ingested_at, old.ingested_at, 'ingested_at kept');
  t.equal(patched.n_tokens, old.n_tokens, 'the same text, the same tokens');
  const after = await scoreOf(api, 'Quendle Hall');
  t.equal(after.first, 'hall', 'the new title is searched at once');
  t.ok(after.hall > before.hall, `its score rose (${before.hall} -> ${after.hall})`);
  t.same(
    (await api.get('/stores/p/documents')).documents.map((d: { id: string }) => d.id),
    listed,
    'its place in the listing kept',
  );
  t.equal((await api.get('/stores/p/documents/hall?include_text=true')).text, DOCS[0].text, 'its text kept');

  const other = await api.patch('/stores/p/documents/hall', { metadata: { floor: 2 } });
  t.equal(other.metadata.title, 'Quendle Hall');
  t.same(await scoreOf(api, 'Quendle Hall'), after, 'a PATCH of another key: the same search');

  const again = await server.restart();
  t.same(await scoreOf(again.api, 'Quendle Hall'), after, 'the new encoding is what the store holds after a restart');
  t.same((await again.api.get('/stores/p/documents/hall')).metadata, { title: 'Quendle Hall', floor: 2 });
});
