// A store's database is reopened when it holds too much of its data file mapped in
// (StoreRegistry.remapResident): the pages its reads faulted in leave the process, only once no
// request holds the store, and requests that come meanwhile wait for it and answer as before.
import fs from 'node:fs';
import t from 'tap';
import { logCapture, startTestServer } from './helpers/server.js';

const docs = Array.from({ length: 300 }, (_, i) => ({
  id: `v${i}`,
  text: `Village Vl${i}. It lies on the river Rv${i}, ${i} miles from the sea, and keeps ${'a long record of its mills and fields '.repeat(20)}`,
}));
const ask = (i: number) => ({ query: `Which village lies on the river Rv${i}?`, max_results: 5 });

t.test(
  'reopening a store drops its mapped pages, waits for its leases, and changes no answer',
  { skip: !fs.existsSync('/proc/self/smaps') && 'no /proc' },
  async (t) => {
    const log = logCapture();
    const s = await startTestServer(t, { logger: log.logger });
    const { registry } = s.server.services;
    await s.api.post('/stores', { name: 'm' });
    for (let i = 0; i < docs.length; i += 100) await s.api.post('/stores/m/documents', { documents: docs.slice(i, i + 100) });
    const before = await Promise.all([1, 150, 299].map((i) => s.api.post('/stores/m/search', ask(i))));
    for (const id of ['v3', 'v97', 'v201']) await s.api.get(`/stores/m/documents/${id}?include_text=true`);
    const entry = registry.entry('default', 'm');
    const first = entry.open!.db;
    const mapped = first.residentBytes();
    t.ok(mapped > 256 * 1024, `the ingest and the reads mapped pages in (${mapped} B)`);

    t.equal(await registry.maintenance.remapResident(2 ** 40), 0, 'a store under the bound is left as it is');
    t.notOk(entry.remapDue);

    const lease = await registry.acquire('default', 'm');
    t.equal(await registry.maintenance.remapResident(0), 0, 'a held store is not reopened now');
    t.ok(entry.remapDue, '... but marked');
    t.equal(entry.open!.db, first, '... and keeps its database while held');
    lease.release();
    await entry.opening;
    t.ok(entry.open, 'released: it is open again');
    t.not(entry.open!.db, first, '... on a fresh database handle');
    t.notOk(entry.remapDue);
    // a fresh handle's own first reads (the store's metadata, the order's last page) map about 192 KiB
    t.ok(entry.open!.db.residentBytes() < mapped / 2, `... that maps far less (${entry.open!.db.residentBytes()} of ${mapped} B)`);
    t.ok(
      log.lines.some((l) => l.msg === 'store reopened (mapped pages dropped)' && l.store === 'm' && l.mapped_bytes > 0),
      'the reopening is logged',
    );

    // requests that come while it reopens wait for it
    for (let i = 0; i < docs.length; i += 100) await s.api.get(`/stores/m/documents/v${i}?include_text=true`);
    const reopened = registry.maintenance.remapResident(0);
    const during = await Promise.all([1, 150, 299].map((i) => s.api.post('/stores/m/search', ask(i))));
    t.equal(await reopened, 1, 'reopened at once (no lease held)');
    const metrics = await (await fetch(s.server.url.replace(/\/v1$/, '/metrics'))).text();
    t.match(metrics, /^# TYPE svc_store_reopens_total counter$/m, 'metrics: a counter of the reopenings');
    t.match(metrics, /^svc_store_reopens_total 2$/m, '... that counts both');
    const after = await Promise.all([1, 150, 299].map((i) => s.api.post('/stores/m/search', ask(i))));
    const ranked = (r: { passages: Array<{ doc_id: string; score: number; text: string }> }) =>
      r.passages.map((p) => [p.doc_id, p.score, p.text]);
    t.same(during.map(ranked), before.map(ranked), 'searches made while it reopened rank and quote as before');
    t.same(after.map(ranked), before.map(ranked), '... and so do those after');
    t.equal(after[1].passages[0].doc_id, 'v150');

    await s.api.post('/stores/m/documents', { documents: [{ id: 'late', text: 'Hamlet Qz9. Added after the store was reopened.' }] });
    t.equal((await s.api.post('/stores/m/search', { query: 'hamlet Qz9' })).passages[0].doc_id, 'late', 'writes go on after it');
    t.equal((await s.api.get('/stores/m')).n_docs, docs.length + 1);
    t.equal((await s.api.get('/stores/m/documents/v42?include_text=true')).text, docs[42].text, 'a stored text reads back whole');
  },
);
