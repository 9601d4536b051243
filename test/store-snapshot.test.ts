// A closed store leaves its index beside its database (index.snap; src/store/index-snapshot.ts,
// src/api/store-snapshot.ts) and opens again by reading it, answering exactly as before; a snapshot
// written for another state of the database (a write since, a copy put back), or one cut short, is
// not read: the store is built from its documents as before and answers with every write.
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { hasIndexSnapshot, readIndexSnapshot, writeIndexSnapshot } from '../src/store/index.js';
import { logCapture, startTestServer, tempDir } from './helpers/server.js';
import { untimed } from './helpers/untimed.js';

const docs = Array.from({ length: 40 }, (_, i) => ({
  id: `v${i}`,
  text: `Village ${i}\nVillage ${i} lies on the river Rv${i}, ${i % 3 === 0 ? 'north' : 'south'} of the hills, with ${100 + i} people.`,
  metadata: { side: i % 3 === 0 ? 'north' : 'south', n: i },
}));
const QUERIES = [
  { query: 'Which village lies on the river Rv7?' },
  { query: 'village river hills', filter: { side: 'north' } },
  { query: 'people south of the hills', max_hops: 3, return_trace: true },
];

async function answers(api: { post(p: string, b: unknown): Promise<any> }) {
  const out: unknown[] = [];
  for (const q of QUERIES) out.push(untimed(await api.post('/stores/s/search', q)));
  return out;
}

/** How the server that logged `lines` opened store s: from its snapshot or its documents. */
const openedFrom = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.msg === 'store opened' && l.store === 's').map((l) => l.from);

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

  let log = logCapture();
  let s = await startTestServer(t, { dataDir: first.dataDir, logger: log.logger });
  t.same(await answers(s.api), before, 'the same passages, scores, confidences and traces');
  t.same(openedFrom(log.lines), ['snapshot'], 'read from the snapshot');
  t.equal((await s.api.get('/stores/s')).n_docs, 39);

  await s.api.post('/stores/s/documents', { documents: [{ id: 'late', text: 'Hamlet Qz9\nA hamlet on the river Rvq.' }] });
  const withLate = await answers(s.api);
  await s.close();
  const stale = fs.readFileSync(snap);
  log = logCapture();
  s = await startTestServer(t, { dataDir: first.dataDir, logger: log.logger });
  t.same(openedFrom(log.lines), ['snapshot'], 'a store written to leaves a new snapshot when it closes');
  t.same(await answers(s.api), withLate);
  t.equal((await s.api.post('/stores/s/search', { query: 'hamlet Qz9' })).passages[0].doc_id, 'late');
  await s.api.delete('/stores/s/documents/late');
  await s.close();

  // a snapshot for another state of the database: what a crash after a write would leave
  fs.writeFileSync(snap, stale);
  log = logCapture();
  s = await startTestServer(t, { dataDir: first.dataDir, logger: log.logger });
  t.same(openedFrom(log.lines), ['documents'], 'a stale snapshot is not read');
  t.same(await answers(s.api), before, 'the delete since it was written holds');
  await s.close();

  // cut short after its head: read, found short, and the store built from its documents
  const whole = fs.readFileSync(snap);
  fs.writeFileSync(snap, whole.subarray(0, whole.length - 100));
  log = logCapture();
  s = await startTestServer(t, { dataDir: first.dataDir, logger: log.logger });
  t.same(openedFrom(log.lines), ['documents'], 'a snapshot cut short is not used');
  t.ok(
    log.lines.some((l) => String(l.msg).startsWith('a store index snapshot could not be read')),
    'and says so',
  );
  t.same(await answers(s.api), before);
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
    readIndexSnapshot(dir, 'a', (read) => {
      for (const n of [1, 2]) {
        const b = new Uint8Array(n);
        read(b);
        got.push([...b]);
      }
      return true;
    }),
  );
  t.same(got, [[1], [2, 2]], 'read back in order');
  t.notOk(
    readIndexSnapshot(dir, 'b', () => t.fail('a stale snapshot is not handed to restore') as never),
    'stale: not read',
  );
  const pastTheEnd = (read: (into: Uint8Array) => void) => {
    read(new Uint8Array(4));
    return true;
  };
  t.throws(() => readIndexSnapshot(dir, 'a', pastTheEnd), /short/, 'reading past its end throws');
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
