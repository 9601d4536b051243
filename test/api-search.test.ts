// Search over HTTP: the SearchResult shape, hop numbers and hops_used within max_hops, filter
// semantics (every pair must match), trace on request, defaults and validation errors.
import t from 'tap';
import { rejectsApi } from './helpers/rejects-api.js';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer } from './helpers/server.js';

const { api } = await startTestServer(t);
const schemas = new SchemaChecker(await api.get('/openapi.json'));
await api.post('/stores', { name: 'kb' });
await api.post('/stores/kb/documents', {
  documents: [
    {
      id: 'film',
      text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent drama film directed by Guido Brignone.',
      metadata: { team: 'film', lang: 'en' },
    },
    {
      id: 'director',
      text: 'Guido Brignone\nGuido Brignone was an Italian film director. He was the father of the actress Lilla Brignone.',
      metadata: { team: 'people', lang: 'en' },
    },
    {
      id: 'river',
      text: 'The Danube\nThe Danube is the second-longest river in Europe, flowing through Vienna and Budapest.',
      metadata: { team: 'geo', lang: 'en' },
    },
    { id: 'river-de', text: 'Die Donau\nDie Donau ist der zweitlängste Fluss Europas.', metadata: { team: 'geo', lang: 'de' } },
  ],
});

t.test('result shape, defaults and hop bookkeeping', async (t) => {
  const r = await api.post('/stores/kb/search', { query: 'Who is the child of the director of film Devotion (1929 film)?' });
  t.same(schemas.errors('SearchResult', r), []);
  t.ok(r.passages.length > 0 && r.passages.length <= 10);
  t.ok(r.hops_used >= 1 && r.hops_used <= 4, `hops_used ${r.hops_used} within default max_hops 4`);
  t.ok(
    r.passages.every((p: any) => p.hop >= 1 && p.hop <= r.hops_used),
    'every passage hop within hops_used',
  );
  t.ok(r.confidence >= 0 && r.confidence <= 1);
  t.ok(r.latency_ms >= 0);
  t.match(r.engine, /svc-engine/);
  t.notOk('trace' in r, 'no trace unless asked');
  for (const p of r.passages) t.equal(p.text, p.text.trim() === '' ? p.text : p.text, 'text present');
  const full = await api.get(`/stores/kb/documents/${r.passages[0].doc_id}?include_text=true`);
  t.equal(full.text.slice(r.passages[0].start, r.passages[0].end), r.passages[0].text, 'passage is an exact substring at its offsets');
});

t.test('max_hops bounds hops_used; max_results bounds passages', async (t) => {
  for (const max_hops of [1, 2, 8]) {
    const r = await api.post('/stores/kb/search', {
      query: 'director of Devotion and his child',
      max_hops,
      max_results: 3,
      return_trace: true,
    });
    t.ok(r.hops_used <= max_hops, `hops_used ${r.hops_used} <= ${max_hops}`);
    t.ok(r.passages.length <= 3);
    t.equal(r.trace.length, r.hops_used, 'one trace step per hop');
    for (const step of r.trace) {
      t.same(schemas.errors('TraceStep', step), []);
      t.ok(step.why.length > 0);
    }
  }
});

t.test('filter: every key/value pair must match', async (t) => {
  const geo = await api.post('/stores/kb/search', { query: 'river Europe', filter: { team: 'geo' }, max_results: 10 });
  t.ok(geo.passages.length > 0);
  t.ok(geo.passages.every((p: any) => p.metadata.team === 'geo'));
  const de = await api.post('/stores/kb/search', { query: 'river Europe Donau', filter: { team: 'geo', lang: 'de' } });
  t.same([...new Set(de.passages.map((p: any) => p.doc_id))], ['river-de']);
  const none = await api.post('/stores/kb/search', { query: 'river', filter: { team: 'geo', lang: 'fr' } });
  t.same(none.passages, []);
  const typed = await api.post('/stores/kb/search', { query: 'river', filter: { lang: 1 } });
  t.same(typed.passages, [], 'values compare with their type: 1 is not "1"');
});

t.test('validation errors name the field and its range', async (t) => {
  const cases: Array<[unknown, RegExp]> = [
    [{}, /query/],
    [{ query: '' }, /query/],
    [{ query: '   ' }, /query/],
    [{ query: 'x'.repeat(4097) }, /query/],
    [{ query: 'x', max_hops: 0 }, /1 to 8/],
    [{ query: 'x', max_hops: 9 }, /1 to 8/],
    [{ query: 'x', max_hops: 2.5 }, /1 to 8/],
    [{ query: 'x', max_results: 0 }, /1 to 100/],
    [{ query: 'x', max_results: 101 }, /1 to 100/],
    [{ query: 'x', return_trace: 'yes' }, /trace/],
    [{ query: 'x', filter: { a: { b: 1 } } }, /\$eq, \$ne/],
    [{ query: 'x', filter: Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`k${i}`, 1])) }, /256/],
    [{ query: 'x', max_hop: 2 }, /max_hops/],
  ];
  for (const [body, fix] of cases) {
    const err = await api.post('/stores/kb/search', body).catch((e) => e);
    t.match(err, { status: 400, type: 'invalid_request' }, JSON.stringify(body).slice(0, 60));
    t.match(err.body.error.fix, fix);
  }
  await rejectsApi(t, api.post('/stores/missing/search', { query: 'x' }), { status: 404, type: 'store_not_found' });
});

t.test('an empty store answers with no passages and low confidence', async (t) => {
  await api.post('/stores', { name: 'empty' });
  const r = await api.post('/stores/empty/search', { query: 'anything at all' });
  t.same(r.passages, []);
  t.ok(r.confidence < 0.1);
  t.ok(r.hops_used <= 1);
});
