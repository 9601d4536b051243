// GET /metrics (Prometheus text format, prom-client) and GET /v1/livez on a real server: the
// metrics' names, types and labels after real requests (routes as path templates, never ids;
// statuses, 429s included), search and ingest figures, per-store gauges, process metrics; the
// metrics key when SVC_METRICS_KEY is set; liveness apart from readiness; every metric of svc documented
// in docs/api.md.
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { REPO, startTestServer } from './helpers/server.js';

/** Samples of a metric: the text after its name and labels, by label string. */
function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})? (\S+)$/.exec(line);
    if (m && m[1] === name) out.set(m[2] ?? '', Number(m[3]));
  }
  return out;
}
const typeOf = (text: string, name: string) => new RegExp(`^# TYPE ${name} (\\w+)$`, 'm').exec(text)?.[1];

t.test('metrics after real requests: names, types, labels', async (t) => {
  const { api, server } = await startTestServer(t, { rateLimit: 5 });
  await api.post('/stores', { name: 'wiki' });
  await api.post('/stores/wiki/documents', {
    documents: [
      { id: 'a', text: 'Lisbon\nLisbon lies where the Tagus meets the sea.' },
      { id: 'b', text: 'Porto\nPorto lies on the Douro.' },
    ],
  });
  await api.post('/stores/wiki/search', { query: 'Which river reaches the sea at Lisbon?' });
  await api.raw('GET', '/stores/wiki/documents/nobody');
  await new Promise((r) => setTimeout(r, 1100));
  for (let i = 0; i < 12; i++) await api.raw('GET', '/stores');
  const res = await fetch(server.url.replace(/\/v1$/, '/metrics'));
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  const text = await res.text();

  t.equal(typeOf(text, 'svc_http_requests_total'), 'counter');
  t.equal(typeOf(text, 'svc_http_request_duration_seconds'), 'histogram');
  const requests = samples(text, 'svc_http_requests_total');
  t.equal(requests.get('{method="POST",route="/v1/stores/{store}/search",status="200"}'), 1, 'a route is its path template');
  t.equal(requests.get('{method="GET",route="/v1/stores/{store}/documents/{id}",status="404"}'), 1, 'never the id');
  t.ok((requests.get('{method="GET",route="/v1/stores",status="429"}') ?? 0) >= 1, 'refused requests by their status (429)');
  t.ok(
    [...requests.keys()].every((k) => !k.includes('nobody')),
    'no URL in a label',
  );
  t.ok(
    samples(text, 'svc_http_request_duration_seconds_count').get('{method="POST",route="/v1/stores/{store}/search",status="200"}') === 1,
  );

  t.equal(typeOf(text, 'svc_search_hops_used'), 'histogram');
  t.equal(samples(text, 'svc_search_hops_used_count').get(''), 1);
  t.equal(samples(text, 'svc_search_confidence_count').get(''), 1);
  t.equal(samples(text, 'svc_search_engine_seconds_count').get(''), 1);
  t.equal(typeOf(text, 'svc_documents_ingested_total'), 'counter');
  t.equal(samples(text, 'svc_documents_ingested_total').get(''), 2);

  t.equal(typeOf(text, 'svc_store_passages'), 'gauge');
  t.equal(samples(text, 'svc_store_documents').get('{project="default",store="wiki"}'), 2);
  t.ok((samples(text, 'svc_store_passages').get('{project="default",store="wiki"}') ?? 0) >= 2);
  t.ok((samples(text, 'svc_store_bytes').get('{project="default",store="wiki"}') ?? 0) > 0);
  t.equal(samples(text, 'svc_stores_open').get(''), 1, 'stores open');
  t.equal(typeOf(text, 'svc_store_segments'), 'gauge');
  t.ok((samples(text, 'svc_store_segments').get('{project="default",store="wiki"}') ?? 0) >= 1, "an open store's index segments");
  const index = samples(text, 'svc_store_index_bytes').get('{project="default",store="wiki"}') ?? 0;
  t.ok(index > 0, "an open store's index bytes");
  t.equal(typeOf(text, 'svc_engine_memory_bytes'), 'gauge');
  const engine = samples(text, 'svc_engine_memory_bytes');
  const [reserved, allocated, limit] = ['reserved', 'allocated', 'limit'].map((k) => engine.get(`{kind="${k}"}`) ?? 0);
  t.ok(allocated >= index, 'the allocated engine memory holds the index');
  t.ok(reserved >= allocated && limit >= reserved, 'allocated <= reserved <= limit');
  t.ok(limit >= 2 ** 32, 'by default at least the kernels memory (4 GiB), regions past it included');
  t.equal(typeOf(text, 'svc_engine_memory_regions'), 'gauge');
  t.equal(samples(text, 'svc_engine_memory_regions').get(''), 1, 'a small store lies in the kernels memory alone');
  t.equal(typeOf(text, 'svc_engine_scan_jobs_total'), 'counter');
  const jobs = samples(text, 'svc_engine_scan_jobs_total');
  t.equal(jobs.get('{by="posted"}'), 0, "a small store's scans are not spread");
  t.equal(jobs.get('{by="helper"}'), 0);
  t.equal(typeOf(text, 'svc_engine_tasks_in_flight'), 'gauge');
  t.equal(samples(text, 'svc_engine_tasks_in_flight').get(''), 0, 'nothing in flight between requests');
  t.ok((samples(text, 'process_resident_memory_bytes').get('') ?? 0) > 1e6, 'process memory');
  t.ok(samples(text, 'nodejs_eventloop_lag_seconds').has(''), 'event-loop lag');

  await new Promise((r) => setTimeout(r, 1100)); // the bucket refills
  await api.delete('/stores/wiki');
  const after = await (await fetch(server.url.replace(/\/v1$/, '/metrics'))).text();
  t.notOk(samples(after, 'svc_store_documents').has('{project="default",store="wiki"}'), 'a deleted store leaves the gauges');
});

t.test('SVC_METRICS_KEY: /metrics needs it as a bearer token', async (t) => {
  const { server } = await startTestServer(t, { env: { SVC_METRICS_KEY: 'scrape-secret' } });
  const url = server.url.replace(/\/v1$/, '/metrics');
  const tries: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong' }, { authorization: 'scrape-secret' }];
  for (const headers of tries) {
    const r = await fetch(url, { headers });
    t.equal(r.status, 401);
    const body = (await r.json()) as { error: { type: string; fix: string } };
    t.equal(body.error.type, 'unauthorized');
    t.match(body.error.fix, /SVC_METRICS_KEY/);
  }
  const ok = await fetch(url, { headers: { authorization: 'Bearer scrape-secret' } });
  t.equal(ok.status, 200);
  t.match(await ok.text(), /svc_http_requests_total/);
});

t.test('livez: alive, apart from readiness', async (t) => {
  const { api, server } = await startTestServer(t);
  t.same(await api.get('/livez'), { status: 'alive' });
  server.services.state = 'starting';
  t.equal((await api.raw('GET', '/health')).status, 503, 'not ready');
  t.same(await api.raw('GET', '/livez').then((r) => [r.status, r.body]), [200, { status: 'alive' }], 'but alive');
  server.services.state = 'ok';
});

t.test('every metric of svc is documented in docs/api.md', async (t) => {
  const { api, server } = await startTestServer(t);
  await api.post('/stores', { name: 'wiki' });
  await api.post('/stores/wiki/documents', { documents: [{ id: 'a', text: 'Lisbon\nLisbon lies where the Tagus meets the sea.' }] });
  await api.post('/stores/wiki/search', { query: 'Where does the Tagus meet the sea?' });
  const text = await (await fetch(server.url.replace(/\/v1$/, '/metrics'))).text();
  const names = [...text.matchAll(/^# TYPE (svc_\w+) \w+$/gm)].map((m) => m[1]);
  t.ok(names.length >= 20, `${names.length} metrics of svc`);
  const doc = fs.readFileSync(path.join(REPO, 'docs', 'api.md'), 'utf8');
  for (const name of names) t.ok(doc.includes(`\`${name}\``), `${name} is documented`);
});
