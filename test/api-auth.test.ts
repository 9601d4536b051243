// Auth with real keys: `svc keys create|list|revoke` run as separate processes against the data dir
// of a running server, which sees new and revoked keys without a restart. Keys are per project and
// stored hashed; missing, malformed, unknown and revoked keys get 401 with a fix.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { rejectsApi } from './helpers/rejects-api.js';
import { REPO, startTestServer, tempDir } from './helpers/server.js';

const run = promisify(execFile);
const dataDir = tempDir(t);
const svc = (args: string[]) =>
  run(process.execPath, [path.join(REPO, 'bin', 'svc.js'), ...args], { env: { ...process.env, SVC_DATA_DIR: dataDir } });

const { api } = await startTestServer(t, { dataDir, noAuth: false });

t.test('without a valid key every endpoint but health is 401', async (t) => {
  for (const [method, p] of [
    ['GET', '/stores'],
    ['POST', '/stores'],
    ['GET', '/stores/x'],
    ['DELETE', '/stores/x'],
    ['GET', '/stores/x/documents'],
    ['POST', '/stores/x/documents'],
    ['GET', '/stores/x/documents/y'],
    ['DELETE', '/stores/x/documents/y'],
    ['POST', '/stores/x/search'],
  ]) {
    const r = await api.raw(method, p, method === 'POST' ? {} : undefined);
    t.equal(r.status, 401, `${method} ${p}`);
    t.equal(r.body.error.type, 'unauthorized');
    t.match(r.body.error.fix, /svc keys create/);
  }
  await rejectsApi(t, api.get('/stores', { authorization: 'Basic abc' }), {
    status: 401,
    type: 'unauthorized',
    body: { error: { message: /Bearer/ } },
  });
  await rejectsApi(t, api.get('/stores', { authorization: `Bearer svc_aaaaaaaa_${'a'.repeat(40)}` }), {
    status: 401,
    type: 'unauthorized',
  });
  t.equal((await api.raw('GET', '/health')).status, 200);
});

t.test('keys CLI against a running server: create, use, list, revoke', async (t) => {
  const a = (await svc(['keys', 'create', '--project', 'proj-a'])).stdout.trim();
  const b = (await svc(['keys', 'create', '--project', 'proj-b'])).stdout.trim();
  t.match(a, /^svc_[a-z2-7]{8}_[a-z2-7]{40}$/);
  const A = api.with({ authorization: `Bearer ${a}` });
  const B = api.with({ authorization: `Bearer ${b}` });
  await A.post('/stores', { name: 'secret' });
  await A.post('/stores/secret/documents', { documents: [{ id: 'd', text: 'Project A private text.' }] });
  t.equal((await A.get('/stores')).stores.length, 1);
  t.equal((await B.get('/stores')).stores.length, 0, "B does not see A's stores");
  await rejectsApi(t, B.get('/stores/secret'), { status: 404, type: 'store_not_found' }, 'no existence leak');
  await rejectsApi(t, B.post('/stores/secret/search', { query: 'private' }), { status: 404, type: 'store_not_found' });
  await B.post('/stores', { name: 'secret' });
  t.not((await B.get('/stores/secret')).id, (await A.get('/stores/secret')).id, 'same name, separate stores');
  const idA = (await A.get('/stores/secret')).id;
  t.equal(
    (await A.with({ 'X-Svc-Project': 'proj-b' }).get('/stores/secret')).id,
    idA,
    'the project header cannot switch projects with auth',
  );
  await rejectsApi(t, B.get('/stores/secret/documents/d'), { status: 404, type: 'document_not_found' });

  const list = (await svc(['keys', 'list'])).stdout;
  t.match(list, /proj-a/);
  t.match(list, /proj-b/);
  t.notOk(list.includes(a.slice(13)), 'list never shows the secret');
  const file = fs.readFileSync(path.join(dataDir, 'keys.json'), 'utf8');
  t.notOk(file.includes(a.slice(13)) || file.includes(b.slice(13)), 'key file holds no secret');
  t.equal(fs.statSync(path.join(dataDir, 'keys.json')).mode & 0o777, 0o600, 'key file is private');

  await svc(['keys', 'revoke', a]);
  await rejectsApi(t, A.get('/stores'), { status: 401, type: 'unauthorized' }, 'revoked key refused without restart');
  t.equal((await B.get('/stores')).stores.length, 1, 'other keys unaffected');
  t.match((await svc(['keys', 'list'])).stdout, /revoked/);
  const err = await svc(['keys', 'revoke', `svc_zzzzzzzz_${'z'.repeat(40)}`]).catch((e) => e);
  t.equal(err.code, 1);
  t.match(err.stderr, /error: no API key matches[\s\S]*fix: /);
});
