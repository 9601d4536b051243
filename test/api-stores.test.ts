// Stores over HTTP: create, get by name and id, list newest first with pagination, delete, and the
// errors of each (400, 404, 409), with every body checked against the OpenAPI schemas.

import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { rejectsApi } from './helpers/rejects-api.js';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer } from './helpers/server.js';

const { api, dataDir } = await startTestServer(t);
const schemas = new SchemaChecker(await api.get('/openapi.json'));

t.test('create, get by name and by id', async (t) => {
  const s = await api.post('/stores', { name: 'alpha' });
  t.same(schemas.errors('Store', s), []);
  t.match(s, { name: 'alpha', n_docs: 0 });
  t.match(s.id, /^st_[a-z2-7]{16}$/);
  t.ok(Date.parse(s.created_at) > 0 && s.created_at.endsWith('Z'), 'created_at is ISO 8601 UTC');
  t.same(await api.get('/stores/alpha'), { ...s, size_bytes: (await api.get('/stores/alpha')).size_bytes });
  t.equal((await api.get(`/stores/${s.id}`)).name, 'alpha');
  t.ok(fs.existsSync(path.join(dataDir, 'default', s.id)), 'one folder per store under <data>/<project>/');
});

t.test('409 store_already_exists for a taken name', async (t) => {
  await api.post('/stores', { name: 'taken' });
  const err = await api.post('/stores', { name: 'taken' }).catch((e) => e);
  t.match(err, { status: 409, type: 'store_already_exists' });
  t.match(err.body.error.fix, /taken/);
});

t.test('400 invalid_request for bad names, with a fix (hostile names: hostile-input.test.ts)', async (t) => {
  await rejectsApi(t, api.post('/stores', { name: 'sp ace' }), {
    status: 400,
    type: 'invalid_request',
    body: { error: { fix: /1 to 64 characters from \[a-z0-9-_\]/ } },
  });
  await rejectsApi(t, api.post('/stores', {}), { status: 400, type: 'invalid_request', body: { error: { message: /name/ } } });
  await rejectsApi(t, api.post('/stores', { name: 'ok', extra: 1 }), {
    status: 400,
    type: 'invalid_request',
    body: { error: { fix: /Allowed fields: name/ } },
  });
  await rejectsApi(t, api.post('/stores', { name: 5 }), { status: 400, type: 'invalid_request' });
  const ok = await api.post('/stores', { name: 'a-b_c-0'.padEnd(64, 'z') });
  t.equal(ok.name.length, 64);
});

t.test('404 store_not_found', async (t) => {
  await rejectsApi(t, api.get('/stores/nope'), { status: 404, type: 'store_not_found', body: { error: { fix: /POST \/v1\/stores/ } } });
  await rejectsApi(t, api.get('/stores/st_aaaaaaaaaaaaaaaa'), { status: 404, type: 'store_not_found' });
  await rejectsApi(t, api.delete('/stores/nope'), { status: 404, type: 'store_not_found' });
  await rejectsApi(t, api.get('/stores/..'), { status: 404 });
});

t.test('list: newest first, paginated with an opaque cursor', async (t) => {
  const { api } = await startTestServer(t);
  const names = Array.from({ length: 7 }, (_, i) => `s${i}`);
  for (const name of names) await api.post('/stores', { name });
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: any = await api.get(`/stores?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    t.same(schemas.errors('StoreList', page), []);
    t.ok(page.stores.length <= 3);
    seen.push(...page.stores.map((s: any) => s.name));
    cursor = page.next_cursor;
    pages++;
  } while (cursor);
  t.same(seen, [...names].reverse(), 'every store once, newest first');
  t.equal(pages, 3);
  const all = await api.get('/stores');
  t.equal(all.stores.length, 7, 'default limit 20 covers all');
  t.equal(all.next_cursor, null);
  await rejectsApi(t, api.get('/stores?limit=0'), { status: 400, type: 'invalid_request', body: { error: { fix: /1 to 100/ } } });
  await rejectsApi(t, api.get('/stores?limit=101'), { status: 400, type: 'invalid_request' });
  await rejectsApi(t, api.get('/stores?limit=abc'), { status: 400, type: 'invalid_request' });
  await rejectsApi(t, api.get('/stores?cursor=garbage'), { status: 400, type: 'invalid_request', body: { error: { fix: /next_cursor/ } } });
  await rejectsApi(t, api.get('/stores?sort=asc'), { status: 400, type: 'invalid_request', body: { error: { message: /sort/ } } });
});

t.test('delete removes the store, its folder and frees the name', async (t) => {
  const s = await api.post('/stores', { name: 'doomed' });
  await api.post('/stores/doomed/documents', { documents: [{ id: 'd1', text: 'Some text to search.' }] });
  const r = await api.raw('DELETE', '/stores/doomed');
  t.equal(r.status, 204);
  t.equal(r.body, undefined, 'no body');
  await rejectsApi(t, api.get('/stores/doomed'), { status: 404, type: 'store_not_found' });
  await rejectsApi(t, api.get(`/stores/${s.id}/documents`), { status: 404, type: 'store_not_found' });
  t.notOk(fs.existsSync(path.join(dataDir, 'default', s.id)), 'folder removed');
  const again = await api.post('/stores', { name: 'doomed' });
  t.not(again.id, s.id, 'a new store gets a new id');
  t.equal(again.n_docs, 0);
});

t.test('projects are separate under --no-auth via X-Svc-Project', async (t) => {
  const other = api.with({ 'X-Svc-Project': 'other' });
  await other.post('/stores', { name: 'alpha' });
  t.equal((await other.get('/stores')).stores.length, 1);
  t.ok(fs.existsSync(path.join(dataDir, 'other')));
  await rejectsApi(t, api.with({ 'X-Svc-Project': 'Bad!' }).get('/stores'), { status: 400, type: 'invalid_request' });
});
