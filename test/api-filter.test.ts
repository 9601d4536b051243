// The filter language over HTTP: every operator (with values of another type and missing keys) in
// a search and in a filtered document listing, which must agree with each other; bounds (depth,
// operators, $in size, unknown operators, wrong operand types) refused with 400 and a fix; a
// listing walked page by page with a filter; filters see upserts and deletes at once.
import t from 'tap';
import { rejectsApi } from './helpers/rejects-api.js';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer } from './helpers/server.js';

const { api } = await startTestServer(t);
const schemas = new SchemaChecker(await api.get('/openapi.json'));
await api.post('/stores', { name: 'f' });

const META: Record<string, Record<string, string | number | boolean>> = {
  n1: { year: 1995, team: 'a', ok: true, tag: 'x' },
  n2: { year: 2005, team: 'b', ok: false },
  s1: { year: '1995', team: 'a' },
  none: {},
  date: { when: '2024-03-01T10:00:00Z', team: 'c' },
};
await api.post('/stores/f/documents', {
  documents: Object.entries(META).map(([id, metadata]) => ({
    id,
    text: `The lighthouse keeper ${id} wrote about storms at sea.`,
    metadata,
  })),
});

const listed = async (filter: unknown): Promise<string[]> => {
  const r = await api.get(`/stores/f/documents?limit=100&filter=${encodeURIComponent(JSON.stringify(filter))}`);
  t.same(schemas.errors('DocumentList', r), []);
  return r.documents.map((d: any) => d.id).sort();
};
const searched = async (filter: unknown): Promise<string[]> => {
  const r = await api.post('/stores/f/search', { query: 'lighthouse keeper storms', filter, max_results: 100 });
  return [...new Set<string>(r.passages.map((p: any) => p.doc_id))].sort();
};

t.test('every operator, in a search and in a listing', async (t) => {
  const cases: Array<[unknown, string[]]> = [
    [{ year: 1995 }, ['n1']],
    [{ year: '1995' }, ['s1']],
    [{ year: { $ne: 1995 } }, ['n2']],
    [{ year: { $ne: '1995' } }, []],
    [{ year: { $gt: 1995 } }, ['n2']],
    [{ year: { $gte: 1995 } }, ['n1', 'n2']],
    [{ year: { $lt: 2005 } }, ['n1']],
    [{ year: { $lte: 2005 } }, ['n1', 'n2']],
    [{ year: { $gte: 1990, $lt: 2000 } }, ['n1']],
    [{ when: { $gte: '2024-01-01', $lt: '2025' } }, ['date']],
    [{ team: { $in: ['a', 'c'] } }, ['date', 'n1', 's1']],
    [{ team: { $nin: ['a'] } }, ['date', 'n2']],
    [{ year: { $nin: [2005] } }, ['n1']],
    [{ tag: { $exists: true } }, ['n1']],
    [{ tag: { $exists: false } }, ['date', 'n2', 'none', 's1']],
    [{ ok: false }, ['n2']],
    [{ ok: { $eq: 'false' } }, []],
    [{ $or: [{ team: 'b' }, { tag: 'x' }] }, ['n1', 'n2']],
    [{ $not: { team: 'a' } }, ['date', 'n2', 'none']],
    [{ $and: [{ team: 'a' }, { $not: { ok: true } }] }, ['s1']],
    [{}, ['date', 'n1', 'n2', 'none', 's1']],
  ];
  for (const [filter, want] of cases) {
    t.same(await listed(filter), want, `list ${JSON.stringify(filter)}`);
    t.same(await searched(filter), want, `search ${JSON.stringify(filter)}`);
  }
});

t.test('refused filters: 400 invalid_request with a fix', async (t) => {
  let deep: unknown = { a: 1 };
  for (let i = 0; i < 8; i++) deep = { $not: deep };
  const cases: Array<[unknown, RegExp]> = [
    [deep, /8 levels/],
    [{ $or: Array.from({ length: 257 }, (_, i) => ({ k: i })) }, /256 operators/],
    [{ k: { $in: Array.from({ length: 1025 }, (_, i) => i) } }, /1024/],
    [{ k: { $in: [] } }, /1 to 1024/],
    [{ k: { $regex: 'x' } }, /\$eq, \$ne/],
    [{ k: { $gt: true } }, /number or a string/],
    [{ k: {} }, /\$eq/],
    [{ $xor: [] }, /\$and, \$or/],
    [{ $and: [] }, /non-empty/],
    [{ k: [1, 2] }, /\$in/],
  ];
  for (const [filter, fix] of cases) {
    const label = JSON.stringify(filter).slice(0, 50);
    const err = await api.post('/stores/f/search', { query: 'sea', filter }).catch((e) => e);
    t.match(err, { status: 400, type: 'invalid_request', body: { error: { fix } } }, `search ${label}`);
    const listErr = await api.get(`/stores/f/documents?filter=${encodeURIComponent(JSON.stringify(filter))}`).catch((e) => e);
    t.match(listErr, { status: 400, type: 'invalid_request', body: { error: { fix } } }, `list ${label}`);
  }
  await rejectsApi(t, api.get('/stores/f/documents?filter=%7Bnot-json'), {
    status: 400,
    type: 'invalid_request',
    message: /not valid JSON/,
  });
  const ok = { $or: Array.from({ length: 255 }, (_, i) => ({ k: i })) };
  t.same((await api.post('/stores/f/search', { query: 'sea', filter: ok })).passages, [], '256 operators are allowed');
});

t.test('a filtered listing walks page by page', async (t) => {
  await api.post('/stores', { name: 'pages' });
  const docs = Array.from({ length: 60 }, (_, i) => ({ id: `p${i}`, text: `Page ${i}.`, metadata: { i, even: i % 2 === 0 } }));
  await api.post('/stores/pages/documents', { documents: docs });
  const filter = encodeURIComponent(JSON.stringify({ even: true, i: { $gte: 10 } }));
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await api.get(`/stores/pages/documents?limit=7&filter=${filter}${cursor ? `&cursor=${cursor}` : ''}`);
    t.ok(page.documents.length <= 7);
    seen.push(...page.documents.map((d: any) => d.id));
    cursor = page.next_cursor;
  } while (cursor);
  const want = docs.filter((d) => d.metadata.even && d.metadata.i >= 10).map((d) => d.id);
  t.same(seen, want.reverse(), 'every match once, most recent first');
});

t.test('filters see an upsert and a delete when the call returns', async (t) => {
  await api.post('/stores/f/documents', {
    documents: [{ id: 'n2', text: 'The lighthouse keeper n2 moved inland.', metadata: { year: 2006 } }],
  });
  t.same(await searched({ year: { $gt: 2005 } }), ['n2']);
  t.same(await searched({ team: 'b' }), [], 'the old metadata no longer matches');
  await api.delete('/stores/f/documents/n2');
  t.same(await searched({ year: { $gt: 2005 } }), []);
  t.same(await listed({ year: { $gt: 2005 } }), []);
});
