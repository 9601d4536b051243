// When the engine's worker queue is full the server answers at once 503 service_unavailable with
// Retry-After, never a hang or a timeout, writes nothing for a refused ingest, and serves normally
// again once the queue drains. The server runs with one worker and no queue (startServer's
// maxQueue), so an ingest of more documents than one encode task takes is refused deterministically,
// and a burst of searches overflows it.
import t, { type Test } from 'tap';
import { rejectsApi } from './helpers/rejects-api.js';
import { startTestServer } from './helpers/server.js';

const docs = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `d${from + i}`,
    text: `Document ${from + i} about harbour ${i % 17} and the railway to town ${i % 23}. ${'More words about ships. '.repeat(10)}`,
  }));
const filler = await startTestServer(t);
await filler.api.post('/stores', { name: 'busy' });
for (let i = 0; i < 1200; i += 200) await filler.api.post('/stores/busy/documents', { documents: docs(i, 200) });
await filler.server.close();
const { api } = await startTestServer(t, { dataDir: filler.dataDir, threads: 1, maxQueue: 0, rateLimit: 1e6 });

/** A client that waits out 503s (Retry-After), as the client library does. */
async function patiently(method: string, p: string, body: unknown) {
  for (;;) {
    const r = await api.raw(method, p, body);
    if (r.status !== 503) return r;
    await new Promise((res) => setTimeout(res, 1000 * Number(r.headers.get('retry-after'))));
  }
}

function isBusy(t: Test, r: { status: number; body: any; headers: Headers }, what: string): void {
  t.equal(r.status, 503, `${what}: 503`);
  t.equal(r.body.error.type, 'service_unavailable');
  t.match(r.body.error.message, /saturated/);
  t.ok(Number(r.headers.get('retry-after')) >= 1, `${what}: Retry-After ${r.headers.get('retry-after')}`);
}

t.test('an ingest that needs more workers than are free is refused with 503, writing nothing', async (t) => {
  const r = await api.raw('POST', '/stores/busy/documents', { documents: docs(5000, 400) });
  isBusy(t, r, 'ingest of 400 documents (4 encode tasks) with room for 1');
  t.equal((await api.get('/stores/busy')).n_docs, 1200, 'nothing written');
  await rejectsApi(t, api.get('/stores/busy/documents/d5000'), { status: 404, type: 'document_not_found' });
  t.equal(
    (await patiently('POST', '/stores/busy/documents', { documents: docs(5000, 100) })).status,
    200,
    'one task at a time is served, after Retry-After',
  );
});

t.test('a burst of searches: each answered 200 or 503 with Retry-After, none hangs', async (t) => {
  const replies = await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      api.raw('POST', '/stores/busy/search', { query: `harbour ${i % 17} railway town`, max_hops: 8, return_trace: true }),
    ),
  );
  const other = replies.filter((r) => r.status !== 200 && r.status !== 503);
  t.same(
    other.map((r) => r.status),
    [],
    'only 200 and 503',
  );
  const busy = replies.filter((r) => r.status === 503);
  t.ok(busy.length > 0, `${busy.length} of 60 refused while the one worker was busy`);
  t.ok(
    replies.some((r) => r.status === 200),
    'the others were served',
  );
  for (const r of busy.slice(0, 3)) isBusy(t, r, 'search');
  t.equal((await patiently('POST', '/stores/busy/search', { query: 'harbour 3' })).status, 200, 'served again once the queue drained');
});
