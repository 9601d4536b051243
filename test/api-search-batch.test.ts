// Batch search over HTTP: results in order, each equal to the same search sent alone; a mix of good
// and bad searches (schema-invalid, a filter over its bounds, not an object) answers each bad one
// with its own error while the others run; 1 to 32 searches; a missing store fails the whole batch;
// every search counts against the rate limit, and a batch of more searches than the rate is refused
// at once (400, never passes) rather than told to retry.
import t from 'tap';
import { RateLimiter } from '../src/api/rate-limit.js';
import { rejectsApi } from './helpers/rejects-api.js';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer } from './helpers/server.js';
import { untimed } from './helpers/untimed.js';

const { api } = await startTestServer(t);
const schemas = new SchemaChecker(await api.get('/openapi.json'));
await api.post('/stores', { name: 'b' });
await api.post('/stores/b/documents', {
  documents: [
    {
      id: 'devotion',
      text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent film directed by Guido Brignone.',
      metadata: { kind: 'film' },
    },
    {
      id: 'brignone',
      text: 'Guido Brignone\nGuido Brignone was an Italian director, father of the actress Lilla Brignone.',
      metadata: { kind: 'person' },
    },
    { id: 'lisbon', text: 'Lisbon is the capital of Portugal, on the river Tagus.', metadata: { kind: 'city' } },
  ],
});

t.test('each result equals the search sent alone, in order, with errors in place', async (t) => {
  let deep: unknown = { kind: 'film' };
  for (let i = 0; i < 8; i++) deep = { $not: deep };
  const searches = [
    { query: 'Who is the child of the director of Devotion (1929 film)?', return_trace: true },
    { query: 'capital of Portugal', max_results: 2 },
    { query: 'x', max_hops: 99 },
    { query: 'river', filter: { kind: 'city' } },
    { query: 'film', filter: deep },
    'just a string',
    { query: 'Brignone', bogus: 1 },
  ];
  const r = await api.post('/stores/b/search/batch', { searches });
  t.same(schemas.errors('SearchBatchResponse', r), []);
  t.equal(r.results.length, searches.length);
  for (const i of [0, 1, 3]) {
    const alone = await api.post('/stores/b/search', searches[i]);
    t.same(untimed(r.results[i]), untimed(alone), `search ${i} as sent alone`);
  }
  t.match(r.results[2], { error: { type: 'invalid_request', message: /body\.searches\[2\]\.max_hops/, fix: /1 to 8/ } });
  t.match(r.results[4], { error: { type: 'invalid_request', message: /body\.searches\[4\]\.filter is nested 9 levels/ } });
  t.match(r.results[5], { error: { type: 'invalid_request', message: /body\.searches\[5\] must be object/ } });
  t.match(r.results[6], { error: { type: 'invalid_request', message: /unknown field 'bogus'/ } });
  t.equal(r.results[0].passages[0].doc_id, 'devotion');
});

t.test('the batch itself: size bounds, a missing store', async (t) => {
  await rejectsApi(t, api.post('/stores/b/search/batch', { searches: [] }), {
    status: 400,
    type: 'invalid_request',
    body: { error: { fix: /1 to 32/ } },
  });
  const many = Array.from({ length: 33 }, () => ({ query: 'film' }));
  await rejectsApi(t, api.post('/stores/b/search/batch', { searches: many }), {
    status: 400,
    type: 'invalid_request',
    body: { error: { fix: /1 to 32/ } },
  });
  await rejectsApi(t, api.post('/stores/b/search/batch', {}), { status: 400, type: 'invalid_request' });
  await rejectsApi(t, api.post('/stores/nope/search/batch', { searches: [{ query: 'film' }] }), { status: 404, type: 'store_not_found' });
  const full = await api.post('/stores/b/search/batch', { searches: many.slice(0, 32) });
  t.equal(full.results.length, 32);
  t.ok(full.results.every((x: any) => Array.isArray(x.passages)));
});

t.test('every search of a batch counts against the rate limit', async (t) => {
  let now = 0;
  const limiter = new RateLimiter(10, () => now);
  limiter.take('p', 8);
  const thrown = (fn: () => void): unknown => {
    try {
      fn();
    } catch (err) {
      return err;
    }
    return undefined;
  };
  t.match(
    thrown(() => limiter.take('p', 3)),
    { type: 'rate_limited', headers: { 'Retry-After': '1' } },
    'a batch takes one token per search',
  );
  limiter.take('p', 2);
  now += 500;
  limiter.take('p', 5);
  t.match(
    thrown(() => limiter.take('p', 1)),
    { type: 'rate_limited' },
    'then the bucket is empty',
  );
  const limited = await startTestServer(t, { rateLimit: 4 });
  await limited.api.post('/stores', { name: 'r' });
  await new Promise((r) => setTimeout(r, 1100));
  const four = Array.from({ length: 4 }, () => ({ query: 'anything' }));
  for (const searches of [
    [...four, ...four],
    [...four, four[0]],
  ])
    await rejectsApi(t, limited.api.post('/stores/r/search/batch', { searches }), {
      status: 400,
      type: 'invalid_request',
      body: { error: { fix: /at most 4 per request, in smaller batches/ } },
    });
  await new Promise((r) => setTimeout(r, 1100));
  t.equal(
    (await limited.api.post('/stores/r/search/batch', { searches: four })).results.length,
    4,
    'a full bucket takes a batch of the rate',
  );
  await rejectsApi(t, limited.api.post('/stores/r/search/batch', { searches: four }), { status: 429, type: 'rate_limited' });
});
