// Storage faults, on a real file system that really runs full or read-only: a small tmpfs in a
// private mount namespace (helpers/fault-fs.ts) holds the data dir of a real `svc serve` process.
// Full: every write answers 507 storage_full with a fix naming SVC_DATA_DIR, the server stays up
// and keeps serving reads, writes work again once space is freed (no restart), and after a restart
// every acknowledged document is there, whole, and nothing refused is. Read-only: the server
// refuses to start with an error and a fix, and starts normally once the mount is writable again.
// Skipped, with the reason, where mount namespaces are not allowed.
import t from 'tap';
import { type ChildServer, failingChild, startChild } from './helpers/child-server.js';
import { openFaultFs } from './helpers/fault-fs.js';
import { rejectsApi } from './helpers/rejects-api.js';
import { tempDir } from './helpers/server.js';
import { verifyDataDir, walkDocs } from './helpers/store-check.js';

const fsys = await openFaultFs(tempDir(t, 'svc-faults-'), '24m');
if (typeof fsys === 'string') {
  t.skip(`storage faults need a tmpfs in a private mount namespace: ${fsys}`, () => {});
} else {
  t.teardown(() => fsys.close());
  const serve = () => startChild(fsys.dir, { prefix: fsys.prefix });
  const doc = (id: string, words = 40) => ({
    id,
    text: `Document ${id} about the marker zq${id.replace(/\W/g, '')} word. ${'Filler sentence about rivers. '.repeat(words)}`,
  });
  const acked = ['a1', 'a2', 'a3', 'a4'];
  let before: string[] = [];
  const search = async (s: ChildServer, id: string) =>
    (await s.api.post('/stores/full/search', { query: `zq${id}` })).passages.map((p: any) => p.doc_id);

  t.test('a full file system: 507 storage_full, reads go on, writes resume when space is freed', async (t) => {
    const s = await serve();
    t.teardown(() => s.kill());
    await s.api.post('/stores', { name: 'full' });
    await s.api.post('/stores/full/documents', { documents: acked.map((id) => doc(id)) });
    before = await Promise.all(acked.map((id) => search(s, id).then((r) => r.join())));

    fsys.fill();
    for (const body of [{ documents: [doc('big', 20_000)] }, { documents: [doc('small', 1)] }]) {
      const r = await s.api.raw('POST', '/stores/full/documents', body);
      t.equal(r.status, 507, `ingest of ${body.documents[0].id} on a full disk`);
      t.equal(r.body.error.type, 'storage_full');
      t.match(r.body.error.fix, /SVC_DATA_DIR/);
    }
    t.match(s.stdout(), /"fault":"full".*is full/, 'the server log names the folder and the fault');
    const created = await s.api.raw('POST', '/stores', { name: 'another' });
    t.equal(created.status, 507, 'a new store is refused before LMDB maps a file on the full disk');
    t.equal(created.body.error.type, 'storage_full');
    const del = await s.api.raw('DELETE', '/stores/full/documents/a4');
    t.ok(del.status === 204 || del.body.error.type === 'storage_full', `delete: ${del.status}`);
    if (del.status === 204) acked.pop();

    t.equal((await s.api.raw('GET', '/health')).status, 200, 'the server is still up');
    t.same(await Promise.all(acked.map((id) => search(s, id).then((r) => r.join()))), before.slice(0, acked.length), 'search unchanged');
    await rejectsApi(
      t,
      s.api.get('/stores/full/documents/big'),
      { status: 404, type: 'document_not_found' },
      'nothing of a refused ingest',
    );

    fsys.unfill();
    await s.api.post('/stores/full/documents', { documents: [doc('late')] });
    acked.push('late');
    t.same(await search(s, 'late'), ['late'], 'writes resume without a restart');
    await s.stop();
  });

  t.test('after a restart: every acknowledged document, whole; nothing refused', async (t) => {
    t.same(await verifyDataDir(fsys.hostPath()), [], 'every store passes StoreDb.verify');
    const s = await serve();
    t.teardown(() => s.kill());
    t.same((await walkDocs(s.api, 'full')).map((d) => d.id).sort(), [...acked].sort());
    for (const id of acked) t.same(await search(s, id), [id], `zq${id} finds ${id}`);
    await s.stop();
  });

  t.test('a read-only data dir: refused at start with a fix, no change to the data', async (t) => {
    fsys.readOnly(true);
    const r = await failingChild(fsys.dir, { prefix: fsys.prefix });
    fsys.readOnly(false);
    t.equal(r.code, 1);
    t.notOk(r.started);
    t.match(r.stderr, /error: cannot take the data dir lock: .* cannot be written \(EROFS\)/);
    t.match(r.stderr, /fix: Make .* writable/);
    const s = await serve();
    t.teardown(() => s.kill());
    t.equal((await s.api.get('/stores/full')).n_docs, acked.length, 'starts normally once writable again');
    await s.stop();
  });
}
