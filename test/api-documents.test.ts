// Documents over HTTP: ingest (upsert), list (most recent first, cursor walk while ingesting), get
// with and without text, delete, ids that need URL-encoding, idempotent replay, and the 400/404/413/
// 422 errors, each body checked against the OpenAPI schemas.
import t from 'tap';
import { rejectsApi } from './helpers/rejects-api.js';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer } from './helpers/server.js';

const { api } = await startTestServer(t);
const schemas = new SchemaChecker(await api.get('/openapi.json'));
await api.post('/stores', { name: 'docs' });

const doc = (id: string, text = `Document ${id} talks about rivers and mountains.`, metadata: Record<string, unknown> = {}) => ({
  id,
  text,
  metadata,
});

t.test('ingest then get, with and without text', async (t) => {
  const r = await api.post('/stores/docs/documents', {
    documents: [doc('a', 'Alpha text. Second sentence here.', { source: 'wiki', n: 3, ok: true })],
  });
  t.same(r, { ingested: 1, doc_ids: ['a'] });
  t.same(schemas.errors('IngestResponse', r), []);
  const info = await api.get('/stores/docs/documents/a');
  t.same(schemas.errors('DocumentInfo', info), []);
  t.match(info, { id: 'a', metadata: { source: 'wiki', n: 3, ok: true } });
  t.ok(info.n_tokens >= 5, `n_tokens counted (${info.n_tokens})`);
  t.notOk('text' in info, 'no text unless asked');
  const full = await api.get('/stores/docs/documents/a?include_text=true');
  t.equal(full.text, 'Alpha text. Second sentence here.');
  t.notOk('text' in (await api.get('/stores/docs/documents/a?include_text=false')));
  await rejectsApi(t, api.get('/stores/docs/documents/a?include_text=maybe'), { status: 400, type: 'invalid_request' });
  t.equal((await api.get('/stores/docs')).n_docs, 1);
});

t.test('upsert replaces text and metadata in place', async (t) => {
  await api.post('/stores/docs/documents', { documents: [doc('u', 'Old text about cats.', { v: 1 })] });
  await api.post('/stores/docs/documents', { documents: [doc('u', 'New text about dogs.', { v: 2 })] });
  const info = await api.get('/stores/docs/documents/u?include_text=true');
  t.equal(info.text, 'New text about dogs.');
  t.same(info.metadata, { v: 2 });
  const hits = await api.post('/stores/docs/search', { query: 'cats', max_results: 100 });
  t.notOk(
    hits.passages.some((p: any) => p.doc_id === 'u' && /cats/.test(p.text)),
    'old passages gone from the index',
  );
  const dogs = await api.post('/stores/docs/search', { query: 'dogs' });
  t.equal(dogs.passages[0]?.doc_id, 'u', 'new text searchable at once');
});

/** encodeURIComponent leaves dots alone, and URL parsers resolve '.'/'..' segments: encode them too. */
const encodeId = (id: string) => encodeURIComponent(id).replace(/\./g, '%2E');

t.test('ids with reserved, unicode and control characters round-trip through the path', async (t) => {
  const ids = ['a/b', '100%', 'sp ace', 'q?x=1#f', 'ünï-😀', 'tab\there', 'nl\nx', '...', '.x', '%2e%2e'];
  await api.post('/stores/docs/documents', { documents: ids.map((id) => doc(id)) });
  for (const id of ids) {
    const info = await api.get(`/stores/docs/documents/${encodeId(id)}`);
    t.equal(info.id, id, JSON.stringify(id));
  }
  const r = await api.raw('DELETE', `/stores/docs/documents/${encodeURIComponent('a/b')}`);
  t.equal(r.status, 204);
  await rejectsApi(t, api.get(`/stores/docs/documents/${encodeURIComponent('a/b')}`), { status: 404, type: 'document_not_found' });
  await rejectsApi(t, api.get('/stores/docs/documents/%E0%A4%A'), { status: 400, type: 'invalid_request' });
});

t.test('document validation (every invalid document: hostile-input.test.ts)', async (t) => {
  const err = await api.post('/stores/docs/documents', { documents: [{ id: 'x' }] }).catch((e) => e);
  t.match(err, { status: 400, type: 'invalid_request', body: { error: { message: /text/, fix: /text/ } } });
  await rejectsApi(t, api.get('/stores/docs/documents/x'), { status: 404, type: 'document_not_found' }, 'nothing was written');
  await rejectsApi(t, api.post('/stores/nope/documents', { documents: [doc('z')] }), { status: 404, type: 'store_not_found' });
});

t.test('413 document_too_large names the document and the 32 MB limit', async (t) => {
  const big = 'word '.repeat(7 * 1024 * 1024);
  const err = await api.post('/stores/docs/documents', { documents: [doc('huge', big)] }).catch((e) => e);
  t.match(err, { status: 413, type: 'document_too_large' });
  t.match(err.body.error.message, /'huge'.*35\.\d MB.*32\.0 MB/);
  t.not(err.headers.get('connection'), 'close', 'the body was read whole, so its connection may carry the next request');
  t.equal(err.headers.get('keep-alive'), 'timeout=65', 'and it stays open long enough for a slow client to send the next one');
  const many = Array.from({ length: 9 }, (_, i) => doc(`part${i}`, 'x'.repeat(4 * 1024 * 1024)));
  const err2 = await api.post('/stores/docs/documents', { documents: many }).catch((e) => e);
  t.match(err2, { status: 413, type: 'document_too_large' });
  t.match(err2.body.error.message, /request body is 36\.\d MB.*largest documents: 'part/);
  t.match(err2.body.error.fix, /ingestStream/);
  await rejectsApi(t, api.get('/stores/docs/documents/huge'), { status: 404, type: 'document_not_found' });
});

t.test('Idempotency-Key: a replay returns the original response and ingests nothing', async (t) => {
  const key = 'batch-0001';
  const body = { documents: [doc('i1', 'Idempotent first version.')] };
  const first = await api.raw('POST', '/stores/docs/documents', body, { 'Idempotency-Key': key });
  t.equal(first.status, 200);
  const before = await api.get('/stores/docs/documents/i1');
  await api.post('/stores/docs/documents', { documents: [doc('i1', 'Changed by someone else.')] });
  const replay = await api.raw('POST', '/stores/docs/documents', body, { 'Idempotency-Key': key });
  t.equal(replay.status, 200);
  t.same(replay.body, first.body);
  t.equal(replay.headers.get('idempotent-replayed'), 'true');
  t.equal((await api.get('/stores/docs/documents/i1?include_text=true')).text, 'Changed by someone else.', 'replay did not ingest again');
  t.not(before.ingested_at, undefined);
  const err = await api.post('/stores/docs/documents', { documents: [doc('i2')] }, { 'Idempotency-Key': key }).catch((e) => e);
  t.match(err, { status: 422, type: 'idempotency_key_reused' });
  await rejectsApi(t, api.get('/stores/docs/documents/i2'), { status: 404, type: 'document_not_found' });
  await rejectsApi(t, api.post('/stores/docs/documents', body, { 'Idempotency-Key': 'k'.repeat(256) }), {
    status: 400,
    type: 'invalid_request',
  });
  const concurrent = await Promise.all(
    Array.from({ length: 4 }, () =>
      api.raw('POST', '/stores/docs/documents', { documents: [doc('c1')] }, { 'Idempotency-Key': 'same-time' }),
    ),
  );
  t.same(
    concurrent.map((r) => r.status),
    [200, 200, 200, 200],
  );
  t.equal(concurrent.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 3, 'exactly one ingested');
});

t.test('list: most recently ingested first; a cursor walk sees every document once while documents are added', async (t) => {
  await api.post('/stores', { name: 'walk' });
  const ids = Array.from({ length: 45 }, (_, i) => `w${String(i).padStart(2, '0')}`);
  for (let i = 0; i < ids.length; i += 15)
    await api.post('/stores/walk/documents', { documents: ids.slice(i, i + 15).map((id) => doc(id)) });
  const seen: string[] = [];
  let cursor: string | null = null;
  let n = 0;
  do {
    const page: any = await api.get(`/stores/walk/documents?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
    t.same(schemas.errors('DocumentList', page), []);
    seen.push(...page.documents.map((d: any) => d.id));
    cursor = page.next_cursor;
    await api.post('/stores/walk/documents', { documents: [doc(`new${n++}`)] });
  } while (cursor);
  t.same(seen, [...ids].reverse(), 'each existing document exactly once, newest first');
  const first = await api.get('/stores/walk/documents?limit=1');
  t.equal(first.documents[0].id, `new${n - 1}`);
  await api.post('/stores/walk/documents', { documents: [doc('w00', 'reingested')] });
  t.equal((await api.get('/stores/walk/documents?limit=1')).documents[0].id, 'w00', 'upsert moves to the front');
  await rejectsApi(t, api.get('/stores/walk/documents?limit=500'), { status: 400, type: 'invalid_request' });
  await rejectsApi(t, api.get(`/stores/walk/documents?cursor=${Buffer.from('{"k":"stores","p":["a","b"]}').toString('base64url')}`), {
    status: 400,
    type: 'invalid_request',
  });
});

t.test('delete a document', async (t) => {
  await api.post('/stores/docs/documents', { documents: [doc('gone', 'Zanzibar archipelago spices.')] });
  t.equal((await api.post('/stores/docs/search', { query: 'Zanzibar spices' })).passages[0]?.doc_id, 'gone');
  const r = await api.raw('DELETE', '/stores/docs/documents/gone');
  t.equal(r.status, 204);
  await rejectsApi(t, api.get('/stores/docs/documents/gone'), {
    status: 404,
    type: 'document_not_found',
    body: { error: { fix: /GET \/v1\/stores\/docs\/documents/ } },
  });
  await rejectsApi(t, api.delete('/stores/docs/documents/gone'), { status: 404, type: 'document_not_found' });
  const after = await api.post('/stores/docs/search', { query: 'Zanzibar spices', max_results: 100 });
  t.notOk(
    after.passages.some((p: any) => p.doc_id === 'gone'),
    'gone from search at once',
  );
});
