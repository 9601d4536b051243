// Deleting many documents (by filter or by ids) and updating a document's metadata over HTTP: the
// counts, a retry that deletes nothing more, PATCH merging (null removes a key) with updated_at set
// and ingested_at kept, search and filters seeing the change at once, the 400s and 404s, and both
// edits surviving a clean restart and a SIGKILL right after the 200 (the store's invariants hold).
import t from 'tap';
import { startChild } from './helpers/child-server.js';
import { rejectsApi } from './helpers/rejects-api.js';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer, tempDir } from './helpers/server.js';
import { verifyDataDir, walkDocs } from './helpers/store-check.js';

const docs = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `d${i}`,
    text: `Report ${i} on the harbour cranes of port${i}.`,
    metadata: { i, team: i % 3 === 0 ? 'ops' : 'dev' },
  }));

t.test('delete by filter and by ids', async (t) => {
  const { api } = await startTestServer(t);
  const schemas = new SchemaChecker(await api.get('/openapi.json'));
  await api.post('/stores', { name: 'e' });
  await api.post('/stores/e/documents', { documents: docs(30) });
  const r = await api.post('/stores/e/documents/delete', { filter: { team: 'ops', i: { $lt: 15 } } });
  t.same(r, { deleted: 5 });
  t.same(schemas.errors('DeleteDocumentsResponse', r), []);
  t.same(
    await api.post('/stores/e/documents/delete', { filter: { team: 'ops', i: { $lt: 15 } } }),
    { deleted: 0 },
    'a retry deletes nothing more',
  );
  t.equal((await api.get('/stores/e')).n_docs, 25);
  await rejectsApi(t, api.get('/stores/e/documents/d3'), { status: 404, type: 'document_not_found' });
  const hit = await api.post('/stores/e/search', { query: 'harbour cranes port3', max_results: 50 });
  t.notOk(
    hit.passages.some((p: any) => p.doc_id === 'd3'),
    'deleted documents leave the index',
  );
  t.same(
    await api.post('/stores/e/documents/delete', { ids: ['d1', 'd2', 'd3', 'nope'] }),
    { deleted: 2 },
    'ids not in the store are skipped',
  );
  t.equal((await api.get('/stores/e')).n_docs, 23);
  t.same(await api.post('/stores/e/documents/delete', { filter: { team: 'nobody' } }), { deleted: 0 });
});

t.test('delete: refused requests change nothing', async (t) => {
  const { api } = await startTestServer(t);
  await api.post('/stores', { name: 'e' });
  await api.post('/stores/e/documents', { documents: docs(5) });
  const cases: Array<[unknown, RegExp]> = [
    [{}, /exactly one/i],
    [{ filter: { team: 'ops' }, ids: ['d1'] }, /exactly one/i],
    [{ filter: {} }, /delete the store/],
    [{ ids: [] }, /1 to 1000/],
    [{ ids: Array.from({ length: 1001 }, (_, i) => `x${i}`) }, /1 to 1000/],
    [{ filter: { team: { $bad: 1 } } }, /\$eq/],
  ];
  for (const [body, fix] of cases) {
    const err = await api.post('/stores/e/documents/delete', body).catch((e) => e);
    t.match(err, { status: 400, type: 'invalid_request', body: { error: { fix } } }, JSON.stringify(body).slice(0, 50));
  }
  await rejectsApi(t, api.post('/stores/none/documents/delete', { ids: ['d1'] }), { status: 404, type: 'store_not_found' });
  t.equal((await api.get('/stores/e')).n_docs, 5, 'nothing was deleted');
});

t.test('patch merges metadata (other keys than title: without re-encoding); filters and search see it at once', async (t) => {
  const { api } = await startTestServer(t);
  const schemas = new SchemaChecker(await api.get('/openapi.json'));
  await api.post('/stores', { name: 'e' });
  await api.post('/stores/e/documents', { documents: docs(6) });
  const before = await api.get('/stores/e/documents/d1?include_text=true');
  t.equal(before.updated_at, before.ingested_at, 'an ingest sets updated_at');
  await new Promise((r) => setTimeout(r, 5));
  const after = await api.patch('/stores/e/documents/d1', { metadata: { team: 'ops', reviewed: true, i: null } });
  t.same(schemas.errors('DocumentInfo', after), []);
  t.same(after.metadata, { team: 'ops', reviewed: true });
  t.equal(after.ingested_at, before.ingested_at, 'ingested_at unchanged');
  t.ok(after.updated_at > before.updated_at, 'updated_at moves');
  const got = await api.get('/stores/e/documents/d1?include_text=true');
  t.equal(got.text, before.text, 'text unchanged');
  t.equal(got.n_tokens, before.n_tokens);
  t.same(got.metadata, after.metadata);
  const found = await api.post('/stores/e/search', { query: 'harbour cranes port1', filter: { reviewed: true } });
  t.same([...new Set(found.passages.map((p: any) => p.doc_id))], ['d1'], 'the filter sees the new key');
  t.same(found.passages[0].metadata, after.metadata, 'passages carry the new metadata');
  const list = await api.get(`/stores/e/documents?filter=${encodeURIComponent('{"i":{"$exists":false}}')}`);
  t.same(
    list.documents.map((d: any) => d.id),
    ['d1'],
  );
  t.equal((await api.get('/stores/e/documents?limit=1')).documents[0].id, 'd5', 'a patch does not move the document in the listing');
  t.same((await api.patch('/stores/e/documents/d1', { metadata: { team: 'ops' } })).metadata, after.metadata, 'a repeat changes nothing');
});

t.test('patch: 400s and 404s', async (t) => {
  const { api } = await startTestServer(t);
  await api.post('/stores', { name: 'e' });
  await api.post('/stores/e/documents', { documents: [{ id: 'a', text: 'Alpha.', metadata: { k0: 0 } }] });
  await rejectsApi(t, api.patch('/stores/e/documents/zz', { metadata: { a: 1 } }), { status: 404, type: 'document_not_found' });
  await rejectsApi(t, api.patch('/stores/no/documents/a', { metadata: { a: 1 } }), { status: 404, type: 'store_not_found' });
  const many = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`n${i}`, i]));
  await rejectsApi(t, api.patch('/stores/e/documents/a', { metadata: many }), { status: 400, type: 'invalid_request', message: /65 keys/ });
  t.same(
    (await api.patch('/stores/e/documents/a', { metadata: { ...many, k0: null } })).metadata,
    many,
    'removing one in the same request fits',
  );
  const cases: unknown[] = [
    {},
    { metadata: {} },
    { metadata: { a: [1] } },
    { metadata: { a: { b: 1 } } },
    { metadata: { a: 1 }, text: 'x' },
    { metadata: { __proto__x: 1, constructor: 1 } },
  ];
  for (const body of cases)
    await rejectsApi(t, api.patch('/stores/e/documents/a', body), { status: 400, type: 'invalid_request' }, JSON.stringify(body));
  await rejectsApi(t, api.patch('/stores/e/documents/a', { metadata: { a: '\ud800' } }), {
    status: 400,
    type: 'invalid_request',
    message: /surrogate/,
  });
  t.same((await api.get('/stores/e/documents/a')).metadata, many, 'refused patches changed nothing');
});

t.test('edits survive a restart and a SIGKILL right after the 200', async (t) => {
  const dataDir = tempDir(t);
  let server = await startChild(dataDir);
  t.teardown(() => server.kill());
  await server.api.post('/stores', { name: 'k' });
  await server.api.post('/stores/k/documents', { documents: docs(40) });
  t.same(await server.api.post('/stores/k/documents/delete', { filter: { team: 'ops' } }), { deleted: 14 });
  await server.api.patch('/stores/k/documents/d1', { metadata: { team: 'qa', i: null } });
  await server.kill();
  t.same(await verifyDataDir(dataDir), [], 'the store is sound on disk after the kill');
  server = await startChild(dataDir);
  const left = await walkDocs(server.api, 'k');
  t.equal(left.length, 26);
  t.notOk(
    left.some((d) => d.metadata.team === 'ops'),
    'no deleted document came back',
  );
  t.same(left.find((d) => d.id === 'd1')?.metadata, { team: 'qa' }, 'the patch is there');
  const qa = await server.api.post('/stores/k/search', { query: 'harbour cranes', filter: { team: 'qa' } });
  t.same([...new Set(qa.passages.map((p: any) => p.doc_id))], ['d1'], 'the index was rebuilt with the new metadata');
  t.same(await server.api.post('/stores/k/documents/delete', { ids: ['d2', 'd4'] }), { deleted: 2 });
  await server.stop();
  server = await startChild(dataDir);
  t.equal((await server.api.get('/stores/k')).n_docs, 24, 'a clean restart keeps the delete');
  await server.stop();
  t.same(await verifyDataDir(dataDir), []);
});
