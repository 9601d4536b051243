// Large request bodies (BODY_THREAD.minBytes and up) are decoded and parsed on a thread of their own
// (src/api/body-parser.ts): over HTTP, a large ingest lands whole, and a large body that is not UTF-8,
// not JSON or nested too deeply gets the same 400 as a small one. The thread on its own gives the
// value JSON.parse gives, for any JSON, and parses bodies sent together in the order sent.
import fc from 'fast-check';
import t from 'tap';
import { BODY_THREAD, parseOnThread } from '../src/api/body-parser.js';
import { startTestServer } from './helpers/server.js';

const { api } = await startTestServer(t, { noAuth: true });
await api.post('/stores', { name: 'big' });
const LARGE = BODY_THREAD.minBytes + 1000;

t.test('a large ingest lands whole', async (t) => {
  const text = `Lisbon\n${'Lisbon is the capital of Portugal, on the Tagus. '.repeat(Math.ceil(LARGE / 50))}`;
  const r = await api.raw('POST', '/stores/big/documents', { documents: [{ id: 'lisbon', text, metadata: { kind: 'city' } }] });
  t.equal(r.status, 200, JSON.stringify(r.body).slice(0, 200));
  const doc = await api.get('/stores/big/documents/lisbon?include_text=true');
  t.equal(doc.text, text, 'the text as sent');
  t.same(doc.metadata, { kind: 'city' });
  const found = await api.post('/stores/big/search', { query: 'capital of Portugal', max_results: 1 });
  t.equal(found.passages[0].doc_id, 'lisbon');
});

t.test('a large bad body is a 400 with a fix', async (t) => {
  const pad = 'x'.repeat(LARGE);
  const notUtf8 = Buffer.concat([
    Buffer.from(`{"documents": [{"id": "a", "text": "${pad}`),
    Buffer.from([0xc3, 0x28]),
    Buffer.from('"}]}'),
  ]);
  const cases: Array<[string, string | Uint8Array, RegExp]> = [
    ['not UTF-8', notUtf8, /not valid UTF-8/],
    ['not JSON', `{"documents": [{"id": "a", "text": "${pad}"}`, /not valid JSON/],
    ['nested past what can be parsed or sent back', `${'['.repeat(LARGE / 2)}${']'.repeat(LARGE / 2)}`, /nested too deeply|nests arrays/],
    [
      'nested past MAX_JSON_DEPTH',
      `{"documents": [{"id": "a", "text": "${pad}", "metadata": ${'{"a":'.repeat(80)}1${'}'.repeat(80)}}]}`,
      /nests arrays and objects over 64 levels/,
    ],
  ];
  for (const [what, body, message] of cases) {
    const r = await api.raw('POST', '/stores/big/documents', body);
    t.equal(r.status, 400, what);
    t.equal(r.body?.error?.type, 'invalid_request', what);
    t.match(r.body?.error?.message, message, what);
    t.ok(r.body?.error?.fix, `${what}: a fix`);
  }
  t.equal((await api.get('/stores/big')).n_docs, 1, 'nothing half-written');
});

t.test('the thread gives what JSON.parse gives, in the order sent', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 4 }), async (values) => {
      const texts = values.map((v) => JSON.stringify(v));
      const replies = await Promise.all(texts.map((s) => parseOnThread(new TextEncoder().encode(s))));
      return replies.every((r, i) => r.failure === undefined && JSON.stringify(r.value) === texts[i]);
    }),
    { numRuns: 200 },
  );
  t.same(await parseOnThread(new TextEncoder().encode('{"a": ')), { failure: 'json', message: 'Unexpected end of JSON input' });
  t.same(await parseOnThread(new Uint8Array([0x22, 0xff, 0x22])), { failure: 'utf8' });
});
