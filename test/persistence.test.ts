// Persistence: stores, documents and the index survive a clean restart and a SIGKILL of a server
// process; an acknowledged write is there after the kill. The server process is the real CLI.

import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import t from 'tap';
import { rejectsApi } from './helpers/rejects-api.js';
import { Api, REPO, startTestServer, tempDir } from './helpers/server.js';

t.test('clean restart keeps stores, documents, order and search', async (t) => {
  const first = await startTestServer(t);
  await first.api.post('/stores', { name: 'p' });
  const docs = Array.from({ length: 30 }, (_, i) => ({
    id: `d${i}`,
    text: `Document number ${i} mentions the token tok${i} once.`,
    metadata: { i },
  }));
  await first.api.post('/stores/p/documents', { documents: docs });
  await first.api.delete('/stores/p/documents/d3');
  const before = await first.api.get('/stores/p/documents?limit=100');
  const second = await first.restart();
  const after = await second.api.get('/stores/p/documents?limit=100');
  t.same(after, before, 'same documents in the same order');
  t.equal((await second.api.get('/stores/p')).n_docs, 29);
  const hit = await second.api.post('/stores/p/search', { query: 'tok17' });
  t.equal(hit.passages[0].doc_id, 'd17', 'index rebuilt from LMDB');
  await rejectsApi(t, second.api.get('/stores/p/documents/d3'), { status: 404, type: 'document_not_found' });
});

function startCli(dataDir: string): Promise<{ child: ChildProcess; api: Api }> {
  const child = spawn(process.execPath, [path.join(REPO, 'bin', 'svc.js'), 'serve', '--no-auth', '--port', '0'], {
    env: { ...process.env, SVC_DATA_DIR: dataDir, SVC_LOG: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /API at (http:\/\/\S+\/v1)/.exec(out);
      if (m) resolve({ child, api: new Api(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

t.test('acknowledged writes survive SIGKILL of the server process', async (t) => {
  const dataDir = tempDir(t);
  const { child, api } = await startCli(dataDir);
  await api.post('/stores', { name: 'k' });
  const acked: string[] = [];
  const batch = (b: number) => ({
    documents: Array.from({ length: 20 }, (_, i) => ({ id: `b${b}-${i}`, text: `Batch ${b} item ${i} unique word w${b}x${i}.` })),
  });
  acked.push(...(await api.post('/stores/k/documents', batch(0))).doc_ids);
  const writes = Array.from({ length: 9 }, (_, j) =>
    api.post('/stores/k/documents', batch(j + 1)).then(
      (r) => acked.push(...r.doc_ids),
      () => undefined,
    ),
  );
  await new Promise((r) => setTimeout(r, 20 + Math.random() * 200));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  await Promise.allSettled(writes);
  t.ok(acked.length > 0, `${acked.length} documents acknowledged before the kill`);
  const again = await startCli(dataDir);
  t.teardown(() => void again.child.kill('SIGKILL'));
  const present = new Set<string>();
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page: any = await again.api.get(`/stores/k/documents?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    for (const d of page.documents) present.add(d.id);
    cursor = page.next_cursor;
  }
  t.same(
    acked.filter((id) => !present.has(id)),
    [],
    'every acknowledged document is present',
  );
  const [b, i] = acked[acked.length - 1].slice(1).split('-');
  const hit = await again.api.post('/stores/k/search', { query: `w${b}x${i}` });
  t.equal(hit.passages[0]?.doc_id, acked[acked.length - 1], 'searchable after restart');
  const listed = (await again.api.get('/stores/k')).n_docs;
  t.ok(listed >= acked.length, 'no acknowledged document lost');
  t.equal(listed % 20, 0, 'batches are all or nothing');
});

t.test('a second server on the same data dir is refused', async (t) => {
  const dataDir = tempDir(t);
  const { child } = await startCli(dataDir);
  t.teardown(() => void child.kill('SIGKILL'));
  const err = await startCli(dataDir).catch((e) => e);
  t.match(err.message, /exited with 1/);
});
