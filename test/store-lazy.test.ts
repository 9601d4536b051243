// Stores open lazily and close when idle (src/api/store-registry.ts): a restarted server reads
// every store's counts without loading it; a request opens the store it names (once, however many
// arrive together) and holds it open until its response is written; a store no request used for
// SVC_STORE_IDLE_S closes, and answers exactly as before when it is next used.
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ConfigError, loadConfig } from '../src/config.js';
import { rejectsApi } from './helpers/rejects-api.js';
import { logCapture, startTestServer } from './helpers/server.js';

const docs = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    text: `Village ${prefix}${i}. It lies on the river Rv${prefix}${i} with ${100 + i} people.`,
  }));

async function until(what: string, ok: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

t.test('a store closes when idle, lists without opening, and answers as before when used again', async (t) => {
  const log = logCapture();
  const s = await startTestServer(t, { env: { SVC_STORE_IDLE_S: '1' }, logger: log.logger });
  const { registry } = s.server.services;
  await s.api.post('/stores', { name: 'a' });
  await s.api.post('/stores', { name: 'b' });
  await s.api.post('/stores/a/documents', { documents: docs('a', 30) });
  await s.api.post('/stores/b/documents', { documents: docs('b', 5) });
  const ask = { query: 'Which village lies on the river Rva7?', max_results: 5 };
  const before = await s.api.post('/stores/a/search', ask);
  t.equal(before.passages[0].doc_id, 'a7');

  // an idle close lets go of the store first, then writes its snapshot and logs: wait for the whole close
  const closedIdle = (name: string) => log.lines.some((l) => l.msg === 'store closed (idle)' && l.store === name);
  await until(
    'both stores closed',
    () => !registry.entry('default', 'a').open && !registry.entry('default', 'b').open && closedIdle('a') && closedIdle('b'),
  );
  t.same(
    [...new Set(log.lines.filter((l) => l.msg === 'store closed (idle)').map((l) => l.store))].sort(),
    ['a', 'b'],
    'each close logged',
  );
  const listed = await s.api.get('/stores');
  t.same(
    listed.stores.map((x: { name: string; n_docs: number }) => [x.name, x.n_docs]).sort(),
    [
      ['a', 30],
      ['b', 5],
    ],
    'a listing counts the closed stores',
  );
  t.ok(
    listed.stores.every((x: { size_bytes: number }) => x.size_bytes > 0),
    '... and their bytes',
  );
  t.equal((await s.api.get('/stores/a')).n_docs, 30, 'so does getting one');
  t.notOk(registry.entry('default', 'a').open, 'neither opened it');
  t.equal((await s.api.get('/health')).status, 'ok', 'health stays ready with its stores closed');
  const metrics = await (await fetch(s.server.url.replace(/\/v1$/, '/metrics'))).text();
  t.match(metrics, /^svc_stores_open 0$/m, 'metrics: no store open');
  t.match(metrics, /^svc_store_documents\{project="default",store="a"\} 30$/m, '... a closed store still counts its documents');
  t.notMatch(metrics, /^svc_store_passages\{/m, '... and has no passages gauge');

  const after = await s.api.post('/stores/a/search', ask);
  t.same(
    after.passages.map((p: { doc_id: string; score: number }) => [p.doc_id, p.score]),
    before.passages.map((p: { doc_id: string; score: number }) => [p.doc_id, p.score]),
    'a search opens it again and ranks as before',
  );
  t.equal(after.confidence, before.confidence, '... with the same confidence');
  t.ok(registry.entry('default', 'a').open, 'it stays open after the search');

  await s.api.post('/stores/b/documents', { documents: [{ id: 'late', text: 'Hamlet Qz9. A hamlet added to a closed store.' }] });
  t.equal(
    (await s.api.post('/stores/b/search', { query: 'hamlet Qz9' })).passages[0].doc_id,
    'late',
    'an ingest into a closed store opens it and is searchable',
  );
  t.equal((await s.api.get('/stores/b')).n_docs, 6);

  await until('b closed again', () => !registry.entry('default', 'b').open);
  const dir = registry.entry('default', 'b').dir;
  await s.api.delete('/stores/b');
  t.notOk(fs.existsSync(dir), 'a closed store is deleted with its folder');
  await rejectsApi(t, s.api.post('/stores/b/search', { query: 'hamlet' }), { status: 404, type: 'store_not_found' });
});

t.test('a lease holds a store open; requests arriving together open a closed store once', async (t) => {
  const log = logCapture();
  const s = await startTestServer(t, { logger: log.logger });
  const { registry } = s.server.services;
  await s.api.post('/stores', { name: 'c' });
  await s.api.post('/stores/c/documents', { documents: docs('c', 20) });

  const lease = await registry.acquire('default', 'c');
  t.equal(await registry.closeIdle(0, Date.now() + 60_000), 0, 'not closed while a lease is held');
  t.ok(registry.entry('default', 'c').open);
  lease.release();
  lease.release();
  t.equal(registry.entry('default', 'c').leases, 0, 'a release counts once');
  t.equal(await registry.closeIdle(0, Date.now() + 60_000), 1, 'closed once released and idle');
  t.notOk(registry.entry('default', 'c').open);
  t.throws(() => registry.get('default', 'c'), /without a lease/, 'no handler reaches a store without a lease');

  const opened = () => log.lines.filter((l) => l.msg === 'store opened' && l.store === 'c').length;
  const n = opened();
  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) => s.api.post('/stores/c/search', { query: `Which village lies on the river Rvc${i}?` })),
  );
  t.same(
    answers.map((a) => a.passages[0].doc_id),
    ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'],
    'every request answered',
  );
  t.equal(opened() - n, 1, 'the store was opened once');
  t.equal(registry.entry('default', 'c').leases, 0, 'every lease released');

  const exported = await s.api.raw('GET', '/stores/c/export');
  t.equal(exported.status, 200);
  t.equal(registry.entry('default', 'c').leases, 0, 'an export releases its lease once written');

  await t.rejects(registry.acquire('default', 'nope'), /no store named or with id 'nope'/, 'an unknown store is 404');
});

t.test('after a restart every store is closed but the largest (warmed up); counts come from disk', async (t) => {
  const first = await startTestServer(t);
  for (const [name, n] of [
    ['small', 3],
    ['big', 25],
    ['mid', 10],
  ] as const) {
    await first.api.post('/stores', { name });
    await first.api.post(`/stores/${name}/documents`, { documents: docs(name, n) });
  }
  const second = await first.restart();
  const { registry } = second.server.services;
  t.same(
    ['small', 'big', 'mid'].map((n) => Boolean(registry.entry('default', n).open)),
    [false, true, false],
    'only the warm-up opened a store',
  );
  t.same((await second.api.get('/stores')).stores.map((x: { name: string; n_docs: number }) => `${x.name}:${x.n_docs}`).sort(), [
    'big:25',
    'mid:10',
    'small:3',
  ]);
  t.equal((await second.api.post('/stores/mid/search', { query: 'Which village lies on the river Rvmid4?' })).passages[0].doc_id, 'mid4');
});

t.test('a start reads the summary a closed store left, or its database when it left none', async (t) => {
  const first = await startTestServer(t);
  for (const [name, n] of [
    ['big', 30],
    ['sum', 12],
  ] as const) {
    await first.api.post('/stores', { name });
    await first.api.post(`/stores/${name}/documents`, { documents: docs(name, n) });
  }
  const summary = path.join(first.server.services.registry.entry('default', 'sum').dir, 'summary.json');
  t.notOk(fs.existsSync(summary), 'an open store has no summary');
  await first.close();
  const written = JSON.parse(fs.readFileSync(summary, 'utf8'));
  t.same([written.meta.name, written.docs], ['sum', 12], 'a closed one has one: its metadata and counts');
  t.ok(written.bytes > 0);

  // what a start reads is the summary: a count written into it shows until the store opens
  fs.writeFileSync(summary, JSON.stringify({ ...written, docs: 7 }));
  let s = await startTestServer(t, { dataDir: first.dataDir });
  t.equal((await s.api.get('/stores/sum')).n_docs, 7, 'the summary read, the store left closed');
  await s.api.post('/stores/sum/search', { query: 'Which village lies on the river Rvsum3?' });
  t.equal((await s.api.get('/stores/sum')).n_docs, 12, 'open: live counts');
  t.notOk(fs.existsSync(summary), 'opening removes the summary');
  await s.close();

  fs.rmSync(summary);
  s = await startTestServer(t, { dataDir: first.dataDir });
  t.equal((await s.api.get('/stores/sum')).n_docs, 12, 'no summary (as after a crash while open): read from its database');
  t.ok(fs.existsSync(summary), '... which leaves one for the next start');
  await s.close();
});

t.test('SVC_STORE_IDLE_S: seconds, 0 or more', async (t) => {
  t.equal(loadConfig({}).storeIdleS, 600, 'ten minutes by default');
  t.equal(loadConfig({ SVC_STORE_IDLE_S: '0' }).storeIdleS, 0, '0: stores stay open');
  for (const bad of ['-1', 'soon', 'Infinity']) t.throws(() => loadConfig({ SVC_STORE_IDLE_S: bad }), ConfigError, bad);
});

t.test('SVC_SNAPSHOT_QUIET_S: seconds, 0 or more', async (t) => {
  t.equal(loadConfig({}).snapshotQuietS, 60, 'a minute by default');
  t.equal(loadConfig({ SVC_SNAPSHOT_QUIET_S: '0' }).snapshotQuietS, 0, '0: only when a store closes');
  for (const bad of ['-1', 'soon', 'Infinity']) t.throws(() => loadConfig({ SVC_SNAPSHOT_QUIET_S: bad }), ConfigError, bad);
});
