// The auth boundary on every endpoint (api-auth.test.ts covers the keys CLI and the basics):
// missing, malformed, unknown and revoked keys are 401 unauthorized (with WWW-Authenticate) on
// every endpoint but health and the OpenAPI document; a key of project A gets 404 store_not_found
// for every endpoint on project B's store, exactly as for a store that does not exist, and changes
// nothing there; no secret is ever written to the data dir; `svc serve --no-auth` warns loudly.

import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { KeyRing } from '../src/store/keys.js';
import { failingChild, startChild } from './helpers/child-server.js';
import { rejectsApi } from './helpers/rejects-api.js';
import { startTestServer, tempDir } from './helpers/server.js';
import { listTree, snapshot } from './helpers/store-check.js';

const dataDir = tempDir(t);
const ring = new KeyRing(dataDir);
const keyA = ring.create('proj-a').key;
const keyB = ring.create('proj-b').key;
const revoked = ring.create('proj-a').key;
ring.revoke(revoked);
const { api } = await startTestServer(t, { dataDir, noAuth: false, rateLimit: 1e6 });
const A = api.with({ authorization: `Bearer ${keyA}` });
const B = api.with({ authorization: `Bearer ${keyB}` });
await B.post('/stores', { name: 'bstore' });
await B.post('/stores/bstore/documents', { documents: [{ id: 'bdoc', text: 'Project B private text about lighthouses.' }] });

const ENDPOINTS: Array<[string, string, unknown?]> = [
  ['GET', '/stores'],
  ['POST', '/stores', { name: 'new' }],
  ['GET', '/stores/bstore'],
  ['DELETE', '/stores/bstore'],
  ['GET', '/stores/bstore/documents'],
  ['POST', '/stores/bstore/documents', { documents: [{ id: 'evil', text: 'written by a stranger' }] }],
  ['GET', '/stores/bstore/documents/bdoc?include_text=true'],
  ['DELETE', '/stores/bstore/documents/bdoc'],
  ['POST', '/stores/bstore/search', { query: 'lighthouses' }],
];

const secret = (k: string) => k.slice(13);
const AUTH_HEADERS: Array<[string, Record<string, string>]> = [
  ['no Authorization', {}],
  ['empty Authorization', { authorization: '' }],
  ['Bearer without a key', { authorization: 'Bearer' }],
  ['Bearer and spaces', { authorization: 'Bearer    ' }],
  ['Basic scheme', { authorization: `Basic ${Buffer.from(`x:${keyB}`).toString('base64')}` }],
  ['Token scheme', { authorization: `Token ${keyB}` }],
  ['key without a scheme', { authorization: keyB }],
  ['key and trailing junk', { authorization: `Bearer ${keyB} extra` }],
  ['truncated key', { authorization: `Bearer ${keyB.slice(0, -1)}` }],
  ['key with one more character', { authorization: `Bearer ${keyB}a` }],
  ['key in upper case', { authorization: `Bearer ${keyB.toUpperCase()}` }],
  ['right id, wrong secret', { authorization: `Bearer ${keyB.slice(0, 13)}${'a'.repeat(40)}` }],
  ['unknown key of the right shape', { authorization: `Bearer svc_aaaaaaaa_${'b'.repeat(40)}` }],
  ['revoked key', { authorization: `Bearer ${revoked}` }],
  ['key in X-Api-Key', { 'x-api-key': keyB }],
  ['project header only', { 'x-svc-project': 'proj-b' }],
];

t.test('missing, malformed, unknown and revoked keys: 401 on every endpoint, nothing written', async (t) => {
  const before = snapshot(dataDir);
  for (const [label, headers] of AUTH_HEADERS) {
    for (const [method, p, body] of ENDPOINTS) {
      const r = await api.raw(method, p, body, headers);
      t.equal(r.status, 401, `${label}: ${method} ${p}`);
      t.equal(r.body?.error?.type, 'unauthorized', `${label}: ${method} ${p} type`);
      t.match(r.headers.get('www-authenticate'), /^Bearer/);
    }
  }
  const q = await api.raw('GET', `/stores?api_key=${keyB}`);
  t.equal(q.status, 401, 'a key in the query string is not accepted');
  t.same(snapshot(dataDir), before, 'the data dir is unchanged');
  for (const p of ['/health', '/openapi.json']) t.equal((await api.raw('GET', p)).status, 200, `${p} needs no key`);
});

t.test("a key of project A gets 404 for project B's store on every endpoint, like a missing store", async (t) => {
  const before = snapshot(dataDir);
  for (const [method, p, body] of ENDPOINTS.slice(2)) {
    const theirs = await A.raw(method, p, body);
    const missing = await A.raw(method, p.replace('bstore', 'nostore'), body);
    t.equal(theirs.status, 404, `${method} ${p}: 404`);
    t.equal(theirs.body.error.type, 'store_not_found', `${method} ${p}: store_not_found`);
    t.same(
      theirs.body.error.message.replace('bstore', 'X'),
      missing.body.error.message.replace('nostore', 'X'),
      `${method} ${p}: same answer as for no store at all`,
    );
  }
  t.same((await A.get('/stores')).stores, [], "B's store is not listed for A");
  t.same(snapshot(dataDir), before, "nothing of B's changed");
  t.equal((await B.get('/stores/bstore/documents/bdoc?include_text=true')).text, 'Project B private text about lighthouses.');
  await rejectsApi(t, B.get('/stores/bstore/documents/evil'), { status: 404, type: 'document_not_found' });
});

t.test('no secret anywhere in the data dir, before and after use and revocation', async (t) => {
  await A.post('/stores', { name: 'astore' });
  await A.post('/stores/astore/documents', { documents: [{ id: 'a', text: 'Project A text.' }] });
  ring.revoke(keyA);
  await rejectsApi(t, A.get('/stores'), { status: 401, type: 'unauthorized' }, 'revoked at once');
  const files = listTree(dataDir).filter((p) => !p.endsWith('/'));
  t.ok(files.includes('keys.json'));
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(dataDir, f)).toString('latin1');
    for (const k of [keyA, keyB, revoked]) t.notOk(bytes.includes(secret(k)), `${f} holds no secret`);
  }
});

t.test('svc serve --no-auth warns loudly and binds to loopback; with auth and no keys, it says so', async (t) => {
  const open = await startChild(tempDir(t), { args: ['--no-auth'] });
  t.teardown(() => open.kill());
  t.match(open.stdout(), /auth: OFF \(--no-auth\)/);
  t.match(
    await open.waitForStderr(/WARNING/),
    /^WARNING: authentication is OFF \(--no-auth\): anyone who can reach 127\.0\.0\.1:\d+ can read and write every store/m,
  );
  t.match(open.url, /^http:\/\/127\.0\.0\.1:/, 'binds 127.0.0.1 unless --host says otherwise');
  await open.stop();
  const locked = await startChild(tempDir(t), { args: [] });
  t.teardown(() => locked.kill());
  t.match(locked.stdout(), /auth: on \(0 keys\)/);
  t.match(await locked.waitForStderr(/no API keys/), /no API keys exist yet; every request will get 401/);
  t.equal((await locked.api.raw('GET', '/stores')).status, 401);
  await locked.stop();
  const bad = await failingChild(tempDir(t), { args: ['--no-auth', '--port', 'x'] });
  t.equal(bad.code, 1);
});
