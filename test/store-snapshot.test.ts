// A closed store leaves its index beside its database (index.snap; src/store/index-snapshot.ts,
// src/api/store-snapshot.ts) and opens again by reading it and applying the documents changed since
// (the store's change log), answering exactly as before: after a clean stop, after a kill -9 (with
// the snapshot a close left, or one written in the background once the store was quiet), and after
// a compaction; a snapshot the change log no longer reaches (a copy put back), or one cut short,
// is not read: the store is built from its documents as before and answers with every write; one
// the engine memory has no room for is kept for a larger bound (SVC_ENGINE_MEMORY_MB).
import fs from 'node:fs';
import path from 'node:path';
import { open } from 'lmdb';
import t from 'tap';
import { Mutex } from '../src/api/mutex.js';
import type { OpenStore } from '../src/api/store-entry.js';
import { StoreRegistry } from '../src/api/store-registry.js';
import { leaveSnapshot, loadIndex } from '../src/api/store-snapshot.js';
import { defaultModelUri, ENGINE_MEMORY_MB } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { WasmOutOfMemoryError } from '../src/engine/runtime/index.js';
import { hasIndexSnapshot, readIndexSnapshot, StoreDb, writeIndexSnapshot } from '../src/store/index.js';
import { startChild } from './helpers/child-server.js';
import { benchRecords, logCapture, startTestServer, tempDir } from './helpers/server.js';
import { untimed } from './helpers/untimed.js';

const docs = Array.from({ length: 40 }, (_, i) => ({
  id: `v${i}`,
  text: `Village ${i}\nVillage ${i} lies on the river Rv${i}, ${i % 3 === 0 ? 'north' : 'south'} of the hills, with ${100 + i} people.`,
  metadata: { side: i % 3 === 0 ? 'north' : 'south', n: i },
}));
const QUERIES = [
  { query: 'Which village lies on the river Rv7?' },
  { query: 'village river hills', filter: { side: 'north' }, max_results: 50 },
  { query: 'people south of the hills', max_hops: 3, return_trace: true },
];

async function answers(api: { post(p: string, b: unknown): Promise<any> }) {
  const out: unknown[] = [];
  for (const q of QUERIES) out.push(untimed(await api.post('/stores/s/search', q)));
  return out;
}

/** Rewrites the stamp at the head of a snapshot file. */
function restamp(file: string, change: (stamp: Record<string, unknown>) => Record<string, unknown>): void {
  const bytes = fs.readFileSync(file);
  const head = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + 8));
  const stamp = Buffer.from(JSON.stringify(change(JSON.parse(bytes.subarray(8, 8 + head[1]).toString('utf8')))));
  fs.writeFileSync(file, Buffer.concat([Buffer.from(new Uint32Array([head[0], stamp.length]).buffer), stamp, bytes.subarray(8 + head[1])]));
}

/** How the server that logged `lines` opened store s: from its snapshot or its documents. */
const openedFrom = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.msg === 'store opened' && l.store === 's').map((l) => l.from);

type Teardown = { teardown(fn: () => unknown): void };

/** A server's data dir holding store s of `docs`, closed (its snapshot left); `dir`: the store's folder. */
async function closedStore(t: Teardown): Promise<{ dataDir: string; dir: string }> {
  const first = await startTestServer(t);
  await first.api.post('/stores', { name: 's' });
  await first.api.post('/stores/s/documents', { documents: docs });
  const dir = first.server.services.registry.entry('default', 's').dir;
  await first.close();
  return { dataDir: first.dataDir, dir };
}

/** Store s's database (`dir`) and an engine, in this process, closed when the test ends. */
async function inProcess(t: Teardown, dir: string) {
  const db = StoreDb.open(dir);
  t.teardown(() => db.close());
  const engine = await loadEngine({ model: readModelFolder(defaultModelUri()), threads: 1 });
  t.teardown(() => engine.close());
  return { db, engine };
}

t.test('a store opens from the index it left when it closed, and answers as before', async (t) => {
  const first = await startTestServer(t);
  await first.api.post('/stores', { name: 's' });
  await first.api.post('/stores/s/documents', { documents: docs });
  await first.api.delete('/stores/s/documents/v5');
  await first.api.post('/stores/s/documents', { documents: [{ ...docs[6], text: 'Village 6\nVillage 6 moved to the coast.' }] });
  const before = await answers(first.api);
  const dir = first.server.services.registry.entry('default', 's').dir;
  const snap = path.join(dir, 'index.snap');
  t.notOk(fs.existsSync(snap), 'an open store has no snapshot');
  await first.close();
  t.ok(fs.existsSync(snap), 'a closed one has');

  /** A server on the first one's data dir, with its log. */
  const restart = async () => {
    const log = logCapture();
    return { log, s: await startTestServer(t, { dataDir: first.dataDir, logger: log.logger }) };
  };
  let { log, s } = await restart();
  t.same(await answers(s.api), before, 'the same passages, scores, confidences and traces');
  t.same(openedFrom(log.lines), ['snapshot'], 'read from the snapshot');
  t.equal((await s.api.get('/stores/s')).n_docs, 39);

  await s.api.post('/stores/s/documents', { documents: [{ id: 'late', text: 'Hamlet Qz9\nA hamlet on the river Rvq.' }] });
  const withLate = await answers(s.api);
  await s.close();
  const stale = fs.readFileSync(snap);
  ({ log, s } = await restart());
  t.same(openedFrom(log.lines), ['snapshot'], 'a store written to leaves a new snapshot when it closes');
  t.same(await answers(s.api), withLate);
  t.equal((await s.api.post('/stores/s/search', { query: 'hamlet Qz9' })).passages[0].doc_id, 'late');
  await s.api.delete('/stores/s/documents/late');
  await s.close();

  // a snapshot from before the last snapshot's point: the change log no longer reaches it
  fs.writeFileSync(snap, stale);
  ({ log, s } = await restart());
  t.same(openedFrom(log.lines), ['documents'], 'a snapshot the change log no longer reaches is not read');
  t.notOk(fs.existsSync(snap), 'and is removed');
  t.same(await answers(s.api), before, 'the delete since it was written holds');
  await s.close();

  // a compaction keeps the snapshot (the change log is the same)
  ({ log, s } = await restart());
  await s.api.post('/stores/s/compact', undefined);
  t.ok(fs.existsSync(snap), 'the compacted folder holds the snapshot');
  await s.close();
  ({ log, s } = await restart());
  t.same(await answers(s.api), before);
  t.same(openedFrom(log.lines), ['snapshot'], 'read after the compaction');
  await s.close();

  // cut short after its head: read, found short, and the store built from its documents
  const whole = fs.readFileSync(snap);
  fs.writeFileSync(snap, whole.subarray(0, whole.length - 100));
  ({ log, s } = await restart());
  t.same(openedFrom(log.lines), ['documents'], 'a snapshot cut short is not used');
  t.ok(
    log.lines.some((l) => String(l.msg).startsWith('a store index snapshot could not be read')),
    'and says so',
  );
  t.same(await answers(s.api), before);
  await s.close();
  ({ log, s } = await restart());
  t.same(await answers(s.api), before);
  t.same(openedFrom(log.lines), ['snapshot'], 'it was removed, so the close after wrote a whole one');
  await s.close();
});

t.test('a snapshot is written whole or not at all, never into the last free space, and read only for its stamp', async (t) => {
  const dir = tempDir(t);
  const sink = (parts: number[]) => async (write: (b: Uint8Array) => Promise<void>) => {
    for (const n of parts) await write(new Uint8Array(n).fill(n));
  };
  t.equal(await writeIndexSnapshot(dir, 'a', 3, sink([1, 2])), undefined, 'written');
  t.ok(hasIndexSnapshot(dir, 'a'));
  t.notOk(hasIndexSnapshot(dir, 'b'), 'not for another stamp');
  const got: number[][] = [];
  t.ok(
    await readIndexSnapshot(dir, async (stamp, read) => {
      t.equal(stamp, 'a', 'the stamp it was written for');
      for (const n of [1, 2]) {
        const b = new Uint8Array(n);
        read(b);
        got.push([...b]);
      }
      return true;
    }),
  );
  t.same(got, [[1], [2, 2]], 'read back in order');
  t.notOk(await readIndexSnapshot(dir, async () => false), 'restore declined: not read');
  const pastTheEnd = async (read: (into: Uint8Array) => void) => {
    read(new Uint8Array(4));
    return true;
  };
  await t.rejects(
    readIndexSnapshot(dir, (_, read) => pastTheEnd(read)),
    /short/,
    'reading past its end throws',
  );
  t.match(await writeIndexSnapshot(dir, 'c', 2 ** 52, sink([1])), /MiB free/, 'no room: not written, and says why');
  t.ok(hasIndexSnapshot(dir, 'a'), 'the one there is left');
  t.match(
    await writeIndexSnapshot(dir, 'd', 1, async () => {
      throw new Error('disk gone');
    }),
    /disk gone/,
    'a failure while writing',
  );
  t.same(fs.readdirSync(dir), ['index.snap'], 'leaves no temporary file');
  t.ok(hasIndexSnapshot(dir, 'a'));
});

t.test('the change log names every document changed after a point, and knows when it no longer reaches one', async (t) => {
  const dir = tempDir(t);
  await StoreDb.initialise(dir, { id: 'st_x', name: 'x', project: 'default', created_at: '2026-12-05T00:00:00Z', model: 'm@1' });
  const db = StoreDb.open(dir);
  t.teardown(() => db.close());
  const doc = (id: string) => ({ id, text: id, metadata: {}, n_tokens: 1, encoding: new Uint8Array([1]) });
  const empty = db.changePoint();
  t.same(empty, { at: 0, entry: '' }, 'an empty log');
  t.same(db.changedSince(empty), []);
  await db.writeDocs([doc('a'), doc('b')]);
  const p = db.changePoint();
  t.same(p, { at: 2, entry: 'wb' });
  await db.writeDocs([doc('c'), doc('a')]);
  await db.deleteDocs(['b', 'nope']);
  await db.setMetadata('c', { k: 1 });
  const rows = (id: string) => ({ id, rows: true });
  t.same(
    db.changedSince(p),
    [rows('c'), rows('a'), { id: 'b', rows: false }],
    'each once, in the order of its last write; a delete or a metadata edit alone changes no rows (a missing id logs nothing)',
  );
  t.same(db.changedSince(empty), [rows('b'), rows('c'), rows('a')]);
  t.equal(db.changedSince({ at: 2, entry: 'wa' }), undefined, 'another entry at that point: another history');
  t.equal(db.changedSince({ at: 99, entry: 'wz' }), undefined, 'a point past the end');
  await db.trimChanges(p.at);
  t.same(db.changedSince(p)?.length, 3, 'trimmed up to the point: still reached');
  t.equal(db.changedSince(empty), undefined, 'not before it');
  t.equal(db.changedSince({ at: 1, entry: 'wa' }), undefined);
  await db.trimChanges(db.changePoint().at);
  const last = db.changePoint();
  t.same(last, { at: 6, entry: 'mc' }, 'the last entry is never trimmed, so keys never repeat');
  await db.writeDocs([doc('d')]);
  t.same(db.changePoint(), { at: 7, entry: 'wd' });
  t.same(db.changedSince(last), [rows('d')]);
  t.same(db.verify(), [], 'the store is sound');
});

/** The `store opened` lines of a child server's log (SVC_LOG=info: JSON lines on stdout). */
function opened(child: { stdout(): string }): Array<Record<string, unknown>> {
  return child
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'store opened' && l.store === 's');
}

t.test('after a kill -9 a store opens from its last snapshot and the documents changed since', async (t) => {
  const dataDir = tempDir(t);
  const env = { SVC_LOG: 'info', SVC_SNAPSHOT_QUIET_S: '0' };
  let c = await startChild(dataDir, { args: ['--no-auth'], env });
  await c.api.post('/stores', { name: 's' });
  await c.api.post('/stores/s/documents', { documents: docs });
  await c.stop();

  c = await startChild(dataDir, { args: ['--no-auth'], env });
  await c.api.post('/stores/s/documents', {
    documents: [
      { id: 'late', text: 'Hamlet Qz9\nA hamlet on the river Rvq, north of the hills.', metadata: { side: 'north' } },
      { ...docs[6], text: 'Village 6\nVillage 6 moved to the coast.' },
    ],
  });
  await c.api.delete('/stores/s/documents/v5');
  await c.api.patch('/stores/s/documents/v9', { metadata: { side: 'north' } });
  const expected = await answers(c.api);
  t.equal(expected[1] && (expected[1] as any).passages.some((p: any) => p.doc_id === 'v9'), true, 'the metadata edit counts in the filter');
  await c.kill();

  c = await startChild(dataDir, { args: ['--no-auth'], env });
  t.teardown(() => c.kill());
  t.same(await answers(c.api), expected, 'the same answers as before the kill');
  t.equal((await c.api.get('/stores/s')).n_docs, 40);
  t.match(opened(c), [{ from: 'snapshot', replayed: 4 }], 'read from the snapshot, the four documents changed since applied');
  await c.stop();
});

t.test('a store quiet for SVC_SNAPSHOT_QUIET_S leaves its index in the background, while writes go on', async (t) => {
  const dataDir = tempDir(t);
  const env = { SVC_LOG: 'info', SVC_SNAPSHOT_QUIET_S: '1' };
  let c = await startChild(dataDir, { args: ['--no-auth'], env });
  t.teardown(() => c.kill());
  await c.api.post('/stores', { name: 's' });
  await c.api.post('/stores/s/documents', { documents: docs });
  while (!c.stdout().includes('store index snapshot written')) await new Promise((r) => setTimeout(r, 100));
  await c.api.delete('/stores/s/documents/v5');
  const expected = await answers(c.api);
  await c.kill();
  c = await startChild(dataDir, { args: ['--no-auth'], env });
  t.same(await answers(c.api), expected);
  t.match(opened(c), [{ from: 'snapshot', replayed: 1 }], 'the background snapshot, and the one delete since');
});

t.test(
  'a snapshot of other encodings, or that does not hold the database documents after the changes since it, is dropped and the index built',
  async (t) => {
    const first = await closedStore(t);
    const dir = first.dir;
    // a database from before the change log, with three documents fewer than the snapshot: the log cannot tell
    const snap = path.join(dir, 'index.snap');
    const kept = fs.readFileSync(snap);
    restamp(snap, (stamp) => ({ ...stamp, of: String(stamp.of).replace(']', 'x]') }));
    let log = logCapture();
    let s = await startTestServer(t, { dataDir: first.dataDir, logger: log.logger });
    t.equal((await s.api.get('/stores/s')).n_docs, 40);
    t.same(openedFrom(log.lines), ['documents'], 'a snapshot of encodings made otherwise (another text analysis) is not read');
    t.notOk(fs.existsSync(snap), 'and is removed');
    await s.close();

    fs.writeFileSync(snap, kept);
    restamp(snap, (stamp) => ({ ...stamp, at: 0, entry: '' }));
    const db = StoreDb.open(dir);
    await db.deleteDocs(['v1', 'v2', 'v3']);
    await db.close();
    const env = open({ path: dir, maxDbs: 8 });
    await env.openDB('changes', { keyEncoding: 'uint32', encoding: 'string' }).clearAsync();
    await env.close();

    log = logCapture();
    s = await startTestServer(t, { dataDir: first.dataDir, logger: log.logger });
    t.equal((await s.api.get('/stores/s')).n_docs, 37);
    t.same(openedFrom(log.lines), ['documents'], 'built from the documents');
    t.ok(
      log.lines.some((l) => String(l.msg).startsWith('a store index snapshot does not hold')),
      'and says why',
    );
    const found = await s.api.post('/stores/s/search', { query: 'Which village lies on the river Rv2?' });
    t.notOk(
      found.passages.some((p: { doc_id: string }) => ['v1', 'v2', 'v3'].includes(p.doc_id)),
      'no document the database lacks',
    );
    await s.close();
  },
);

t.test('a snapshot the changes since cannot be applied to is left, and the index built from the documents', async (t) => {
  const { dir } = await closedStore(t);
  const { db, engine } = await inProcess(t, dir);
  const encoding = db.getEncoding('v1')!;
  await db.writeDocs([{ id: 'v0', text: 'changed', metadata: {}, n_tokens: 1, encoding }]);
  const lines: string[] = [];
  const log = (msg: string) => void lines.push(msg);

  const applied = await loadIndex(() => engine.createIndex(), db, log);
  t.match(applied, { from: 'snapshot', replayed: 1 }, 'as a rule the change is applied');
  applied.index.close();

  let made = 0;
  const failingFirst = () => {
    const index = engine.createIndex();
    if (made++ === 0)
      index.load = async () => {
        throw new Error('no room in the engine memory');
      };
    return index;
  };
  const built = await loadIndex(failingFirst, db, log);
  t.match(built, { from: 'documents', replayed: 0 }, 'a failure to apply it builds the index in a new one');
  t.equal(built.index.documentCount, 40);
  t.ok(
    lines.some((l) => l.startsWith('the documents changed since a store index snapshot could not be applied')),
    'and says so',
  );
  t.ok(fs.existsSync(path.join(dir, 'index.snap')), 'the snapshot is left');
  built.index.close();
});

t.test('a store whose segments merged since its snapshot leaves a new one when it closes, though nothing was written', async (t) => {
  // a server closed within a second of five writes: a snapshot of five segments, none merged yet
  const first = await startTestServer(t);
  await first.api.post('/stores', { name: 's' });
  for (let i = 0; i < docs.length; i += 8) await first.api.post('/stores/s/documents', { documents: docs.slice(i, i + 8) });
  const before = await answers(first.api);
  const dir = first.server.services.registry.entry('default', 's').dir;
  await first.close();
  const { db, engine } = await inProcess(t, dir);
  const lines: string[] = [];
  const log = (msg: string) => void lines.push(msg);
  const read = await loadIndex(() => engine.createIndex(), db, log);
  t.match(read, { from: 'snapshot', replayed: 0 });
  const unmerged = read.index.segmentCount;
  t.ok(unmerged > 1, `the snapshot holds ${unmerged} segments`);
  const store: OpenStore = { db, index: read.index, lock: new Mutex(), closed: false, snapshotSegments: unmerged };
  await leaveSnapshot(store, log);
  t.same(lines, [], 'no new snapshot while the segments are those it holds');
  // the idle merge after the open
  const merging = read.index as MemoryStoreIndex;
  while (!merging.settled || merging.segmentCount === unmerged) await new Promise((r) => setTimeout(r, 50));
  const merged = read.index.segmentCount;
  await leaveSnapshot(store, log);
  t.same(lines, ['store index snapshot written'], `merged into ${merged}: a new snapshot at the same point`);
  t.equal(store.snapshotSegments, merged);
  await leaveSnapshot(store, log);
  t.equal(lines.length, 1, 'and none after it while nothing changes');
  read.index.close();
  const again = await loadIndex(() => engine.createIndex(), db, log);
  t.match(again, { from: 'snapshot', replayed: 0 });
  t.equal(again.index.segmentCount, merged, 'the next open reads the merged segments');
  again.index.close();
  await db.close();
  const back = await startTestServer(t, { dataDir: first.dataDir });
  t.same(await answers(back.api), before, 'and answers as before');
});

t.test('a snapshot the engine memory has no room for is kept for a larger bound, and replaced by the index built instead', async (t) => {
  const { dir } = await closedStore(t);
  const snap = path.join(dir, 'index.snap');
  const { db, engine } = await inProcess(t, dir);
  const lines: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
  const log = (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, fields });

  let made = 0;
  const noRoomFirst = () => {
    const index = engine.createIndex();
    if (made++ === 0)
      index.restore = () => {
        throw new WasmOutOfMemoryError('out of engine memory: an index image of 1 B does not fit');
      };
    return index;
  };
  const built = await loadIndex(noRoomFirst, db, log);
  t.match(built, { from: 'documents', replayed: 0, unread: true }, 'the index is built from the documents');
  t.equal(built.index.documentCount, 40);
  const said = lines.find((l) => l.msg.startsWith('a store index snapshot does not fit the engine memory'));
  t.match(said?.fields, { fix: /SVC_ENGINE_MEMORY_MB/ }, 'the log says why, and what reads it');
  t.ok(fs.existsSync(snap), 'the snapshot is kept');

  const store: OpenStore = { db, index: built.index, lock: new Mutex(), closed: false, snapshotUnread: built.unread };
  const written = () => lines.filter((l) => l.msg === 'store index snapshot written').length;
  await leaveSnapshot(store, log);
  t.equal(written(), 1, "the built index leaves its own, though the kept one's stamp is current");
  t.equal(store.snapshotUnread, false);
  await leaveSnapshot(store, log);
  t.equal(written(), 1, 'and then, as a rule, none while nothing changed');
  built.index.close();
  const again = await loadIndex(() => engine.createIndex(), db, log);
  t.match(again, { from: 'snapshot', replayed: 0 }, 'it is read at the next open');
  again.index.close();
});

t.test(
  'a store whose index outgrows a smaller SVC_ENGINE_MEMORY_MB does not open under it, and keeps its snapshot for a larger one',
  async (t) => {
    const pool = benchRecords<{ id: string; text: string }>('wiki-pool', 'corpus.jsonl');
    const first = await startTestServer(t);
    await first.api.post('/stores', { name: 's' });
    // the pool twice over (a copy under ids of its own), an index past what the small bound holds
    for (const copy of ['', '-again'])
      for (let i = 0; i < pool.length; i += 1000) {
        const documents = pool.slice(i, i + 1000).map((d) => ({ id: d.id + copy, text: d.text }));
        await first.api.post('/stores/s/documents', { documents });
      }
    await first.api.post('/stores', { name: 'other' });
    // a store the small bound holds, whose index is more than OPEN.retryFreedBytes (store-registry.ts)
    for (let i = 0; i < 20000; i += 1000) {
      await first.api.post('/stores/other/documents', { documents: pool.slice(i, i + 1000).map((d) => ({ id: d.id, text: d.text })) });
    }
    const query = { query: pool[0].text.split('\n')[0], max_results: 5 };
    const before = untimed(await first.api.post('/stores/s/search', query));
    const dir = first.server.services.registry.entry('default', 's').dir;
    await first.close();
    const snap = path.join(dir, 'index.snap');
    t.ok(fs.existsSync(snap), 'the store left its snapshot');

    let log = logCapture();
    const small = await startTestServer(t, {
      dataDir: first.dataDir,
      logger: log.logger,
      env: { SVC_ENGINE_MEMORY_MB: String(ENGINE_MEMORY_MB.min) },
    });
    const tries = (lines: Array<{ msg?: unknown }>) =>
      lines.filter((l) => String(l.msg).startsWith('a store index snapshot does not fit the engine memory')).length;
    t.equal(tries(log.lines), 1, 'the warm-up tried to open the largest store, and the log says its snapshot does not fit');
    for (const n of [1, 2]) {
      const refused = await small.api.raw('POST', '/stores/s/search', query);
      t.equal(refused.status, 507, `search ${n} of it is refused`);
      t.equal(refused.body.error.type, 'engine_memory_full');
      t.match(refused.body.error.message, /cannot hold the index of store 's' to open it/);
      t.match(refused.body.error.fix, /SVC_ENGINE_MEMORY_MB.*kept/);
    }
    t.equal(tries(log.lines), 1, 'at once: the store is not opened again while the engine memory holds as much');
    await small.close();
    t.ok(fs.existsSync(snap), 'the snapshot is kept');

    // in process, the same bound: tried again once the engine's memory holds less (a store closed)
    const engine = await loadEngine({
      model: readModelFolder(defaultModelUri()),
      threads: 1,
      memoryBytes: ENGINE_MEMORY_MB.min * 2 ** 20,
    });
    t.teardown(() => engine.close());
    const lines: Array<{ msg: string }> = [];
    const registry = new StoreRegistry(first.dataDir, engine, (msg) => void lines.push({ msg }));
    await registry.loadAll();
    const other = await registry.acquire('default', 'other');
    const refusal = { name: 'ApiError', type: 'engine_memory_full' };
    await t.rejects(registry.acquire('default', 's'), refusal);
    await t.rejects(registry.acquire('default', 's'), refusal);
    t.equal(tries(lines), 1, 'refused once opened, then at once');
    other.release();
    t.equal(await registry.closeIdle(0), 1, 'the other store closes');
    await t.rejects(registry.acquire('default', 's'), refusal);
    t.equal(tries(lines), 2, 'then tried again');
    await registry.closeAll();

    log = logCapture();
    const large = await startTestServer(t, { dataDir: first.dataDir, logger: log.logger });
    t.same(untimed(await large.api.post('/stores/s/search', query)), before, 'under the larger bound the store answers as before');
    t.same(openedFrom(log.lines), ['snapshot'], 'from its snapshot');
    await large.close();
  },
);
