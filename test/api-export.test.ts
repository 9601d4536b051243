// GET /v1/stores/{store}/export over HTTP and its client and CLI: the documents as JSON lines in
// ingest order; one consistent snapshot while writes go on (on the real LMDB store: writes commit
// between two documents of an export and it still holds exactly the documents of its start; over
// HTTP: a reader that stalls while writes land); a store deleted during an export: the export ends
// whole, the store is gone at once, its files once the export is done; an export that waits on the
// socket many times leaves no listener behind; an export, a delete and an import (in the export's
// order or in reverse) give identical search results; svc export | svc import as separate processes.
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { Svc } from '../src/client/index.js';
import { createStore, newStoreId } from '../src/store/index.js';
import { assertBuilt, runCli } from './helpers/cli.js';
import { startTestServer, tempDir } from './helpers/server.js';

const { server, api, dataDir } = await startTestServer(t, { threads: 1 });
const svc = new Svc({ baseUrl: server.url, env: {} });
const PAD = ' The valley holds farms, mills and a long stone bridge over the river.'.repeat(30);
const docs = (n: number, prefix = 'd') =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${String(i).padStart(4, '0')}`,
    text: `Town ${i}\nTown ${i} lies on river ${i % 7} and trades ${['wool', 'salt', 'iron'][i % 3]}.${PAD}`,
    metadata: { n: i, kind: ['wool', 'salt', 'iron'][i % 3] },
  }));

/** The documents of an export whose first chunk was read already, read to its end. */
async function restOfExport(first: Uint8Array | undefined, reader: ReadableStreamDefaultReader<Uint8Array>) {
  let text = new TextDecoder().decode(first);
  for (let r = await reader.read(); !r.done; r = await reader.read()) text += new TextDecoder().decode(r.value);
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; text: string; metadata: Record<string, unknown> });
}

t.test('the documents as JSON lines, in ingest order', async (t) => {
  await svc.stores.create('small');
  await svc.documents.ingest('small', docs(3));
  const res = await fetch(`${server.url}/stores/small/export`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/x-ndjson/);
  const lines = (await res.text()).split('\n');
  t.equal(lines.pop(), '', 'every line ends with a newline');
  t.same(
    lines.map((l) => JSON.parse(l)),
    docs(3),
    'id, text and metadata, as ingest takes them',
  );
  const missing = await api.raw('GET', '/stores/nope/export');
  t.equal(missing.status, 404);
  t.equal(missing.body.error.type, 'store_not_found');
});

t.test('the store reads an export from one snapshot: writes between two of its documents are not in it', async (t) => {
  const meta = { id: newStoreId(), name: 's', project: 'p', created_at: new Date().toISOString(), model: 'm@1' };
  const db = await createStore(tempDir(t), meta);
  t.teardown(() => db.close());
  const doc = (id: string, text: string) => ({ id, text, metadata: { v: text }, n_tokens: 1, encoding: new Uint8Array([1]) });
  await db.writeDocs(['a', 'b', 'c', 'd'].map((id) => doc(id, `old ${id}`)));
  const it = db.exportDocs();
  t.same(it.next().value, { id: 'a', text: 'old a', metadata: { v: 'old a' } });
  await db.writeDocs([doc('c', 'new c'), doc('e', 'new e')]);
  await db.deleteDoc('b');
  await db.setMetadata('d', { v: 'changed' });
  t.same(
    [...it].map((d) => [d.id, d.text, d.metadata.v]),
    [
      ['b', 'old b', 'old b'],
      ['c', 'old c', 'old c'],
      ['d', 'old d', 'old d'],
    ],
    'the rest as it was when the export began',
  );
  t.same(
    [...db.exportDocs()].map((d) => [d.id, d.text]),
    [
      ['a', 'old a'],
      ['d', 'old d'],
      ['c', 'new c'],
      ['e', 'new e'],
    ],
    'a new export sees the writes, in the new ingest order',
  );
  const abandoned = db.exportDocs();
  abandoned.next();
  abandoned.return(undefined);
  await db.writeDocs([doc('f', 'f')]);
  t.equal(db.nDocs, 5, 'an abandoned export released its snapshot; writes go on');
});

t.test('over HTTP, one consistent snapshot while writes go on', async (t) => {
  await svc.stores.create('busy');
  const original = docs(1500);
  await svc.documents.ingestStream('busy', original);
  // a reader that stalls after its first chunk: the server waits on the socket mid-export
  const ctl = new AbortController();
  const res = await fetch(`${server.url}/stores/busy/export`, { signal: ctl.signal });
  const reader = res.body!.getReader();
  const first = await reader.read();
  t.notOk(first.done);
  await svc.documents.ingest('busy', [{ id: 'late', text: 'Late\nA document written during the export.' }]);
  await svc.documents.ingest('busy', [{ ...original[1499], text: 'Town 1499\nRewritten during the export.' }]);
  await svc.documents.delete('busy', 'd0001');
  await svc.documents.patch('busy', 'd1498', { kind: 'changed' });
  const exported = await restOfExport(first.value, reader);
  t.equal(exported.length, 1500, 'exactly the documents of its start');
  const byId = (a: Array<{ id: string }>) => [...a].sort((x, y) => x.id.localeCompare(y.id));
  // ingestStream sends batches concurrently, so the ingest order is the order they committed in
  t.same(byId(exported), original, 'none of the writes that landed meanwhile: no new, no deleted, no changed document');
  const now = [];
  for await (const d of svc.documents.export('busy')) now.push(d);
  t.equal(now.length, 1500, 'a new export sees the writes: one added, one deleted');
  t.ok(now.some((d) => d.id === 'late') && !now.some((d) => d.id === 'd0001'));
  t.equal(now.find((d) => d.id === 'd1498')?.metadata.kind, 'changed');
  t.equal(now.at(-1)?.id, 'd1499', 'an upsert moves a document to the end of the ingest order');
});

t.test('a reader that goes away releases the export', async (t) => {
  const ctl = new AbortController();
  const res = await fetch(`${server.url}/stores/busy/export`, { signal: ctl.signal });
  await res.body!.getReader().read();
  ctl.abort();
  await new Promise((r) => setTimeout(r, 200));
  await svc.documents.ingest('busy', [{ id: 'after', text: 'After\nWritten after an abandoned export.' }]);
  t.equal((await svc.stores.get('busy')).n_docs, 1501, 'writes go on');
});

t.test(
  'a store deleted during an export: the export ends whole; the store is gone at once, its files when the export is done',
  async (t) => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    t.teardown(() => process.off('warning', onWarning));
    await svc.stores.create('doomed');
    // about 15 MB: far more than the socket and the client buffer, so the server is mid-export when the delete comes
    const original = docs(1500, 'z').map((d) => ({ ...d, text: d.text + PAD.repeat(4) }));
    await svc.documents.ingestStream('doomed', original);
    const trash = () =>
      fs.readdirSync(dataDir, { recursive: true, encoding: 'utf8' }).filter((f) => path.basename(f).startsWith('.trash-'));
    const res = await fetch(`${server.url}/stores/doomed/export`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    await svc.stores.delete('doomed');
    const gone = await api.raw('GET', '/stores/doomed');
    t.equal(gone.status, 404, 'the store is gone by name as soon as the delete answers');
    t.equal(gone.body.error.type, 'store_not_found');
    t.ok(trash().length > 0, 'its files wait for the export');
    const exported = await restOfExport(first.value, reader);
    t.equal(exported.length, 1500, 'the export ran to its end');
    t.same(new Set(exported.map((d) => d.id)), new Set(original.map((d) => d.id)));
    for (let i = 0; i < 50 && trash().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    t.same(trash(), [], 'the files are removed once the export is done');
    t.same(warnings, [], 'no warning (an export waiting on the socket many times leaves no listener behind)');
    await svc.stores.create('doomed');
    t.equal((await svc.stores.get('doomed')).n_docs, 0, 'the name can be used again');
  },
);

t.test('export, delete, import: identical search results', async (t) => {
  await svc.stores.create('round');
  await svc.documents.ingestStream('round', docs(400, 'r'));
  await svc.documents.delete('round', 'r0007');
  const queries = ['Which town trades salt on river 3?', 'iron', 'Town 12'];
  const before = await Promise.all(queries.map((q) => svc.search('round', { query: q, filter: { kind: { $ne: 'wool' } } })));
  const exported = [];
  for await (const d of svc.documents.export('round')) exported.push(d);
  const view = (r: (typeof before)[number]) => [
    r.passages.map((p) => [p.doc_id, p.start, p.end, p.hop, p.score]),
    r.confidence,
    r.hops_used,
  ];
  // imported as exported, and in reverse (a file sorted otherwise): equal scores are ordered by id, not by arrival
  for (const [order, label] of [
    [exported, 'in the export order'],
    [[...exported].reverse(), 'in reverse order'],
  ] as const) {
    await svc.stores.delete('round');
    await svc.stores.create('round');
    await svc.documents.ingestStream('round', order);
    const after = await Promise.all(queries.map((q) => svc.search('round', { query: q, filter: { kind: { $ne: 'wool' } } })));
    t.same(after.map(view), before.map(view), label);
  }
});

t.test('svc export > file, svc import: as separate processes', async (t) => {
  assertBuilt();
  const env = { SVC_BASE_URL: server.url };
  const out = await runCli(['export', 'small'], env);
  t.equal(out.code, 0, out.stderr);
  t.match(out.stderr, /exported 3 documents of 'small'/);
  t.same(
    out.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
    docs(3),
  );
  const file = path.join(tempDir(t), 'small.jsonl');
  fs.writeFileSync(file, out.stdout);
  const imported = await runCli(['import', 'copy', file], env);
  t.equal(imported.code, 0, imported.stderr);
  const copy = [];
  for await (const d of svc.documents.export('copy')) copy.push(d);
  t.same(copy, docs(3), 'the same documents in the copy');
  const missing = await runCli(['export', 'nope'], env);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /^error: no store named or with id 'nope'/);
});
