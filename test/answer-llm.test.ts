// answer=true with SVC_ENRICH_MODEL: the answer comes from a local OpenAI-compatible server over
// real HTTP. The prompt shows the passages by document id with the question; the reply's citations
// are checked against the ids sent (an invented one is dropped from citations and text). Failures
// (HTTP errors, bad credentials, a body that is not JSON, an unreachable endpoint, a reply slower
// than SVC_ENRICH_TIMEOUT) still return the search results, with `answer.error` {type, message, fix}.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { checkCitations } from '../src/answer/llm-answer.js';
import { EnrichClient } from '../src/llm/index.js';
import { startFakeOpenAi } from './helpers/fake-openai.js';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer } from './helpers/server.js';

const DOCS = [
  { id: 'film', text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent drama film directed by Guido Brignone.' },
  { id: 'director', text: 'Guido Brignone\nGuido Brignone was an Italian film director. He was the father of the actress Lilla Brignone.' },
];
const QUESTION = 'Who is the child of the director of Devotion (1929 film)?';

const fake = await startFakeOpenAi(t);
const env = { SVC_ENRICH_URL: fake.url, SVC_ENRICH_MODEL: 'answer-model-1', SVC_ENRICH_API_KEY: 'sk-test-123', SVC_ENRICH_TIMEOUT: '1' };
const { api } = await startTestServer(t, { env });
const schemas = new SchemaChecker(await api.get('/openapi.json'));
await api.post('/stores', { name: 'kb' });
await api.post('/stores/kb/documents', { documents: DOCS });

async function ask(t: Test): Promise<any> {
  const r = await api.post('/stores/kb/search', { query: QUESTION, answer: true });
  t.same(schemas.errors('SearchResult', r), [], 'the result follows the OpenAPI document');
  t.ok(r.passages.length > 0, 'the search results are complete');
  return r;
}

t.test('the model answers from the passages, citing them by document id', async (t) => {
  fake.requests.length = 0;
  fake.reply = () => ({ text: 'Lilla Brignone [director], daughter of the director Guido Brignone [film, director] [wiki-99].' });
  const r = await ask(t);
  t.same(r.answer, {
    text: 'Lilla Brignone [director], daughter of the director Guido Brignone [film, director].',
    citations: ['director', 'film'],
    source: 'answer-model-1',
  });
  t.equal(fake.requests.length, 1);
  const req = fake.requests[0];
  t.equal(req.headers.authorization, 'Bearer sk-test-123');
  t.equal(req.body.model, 'answer-model-1');
  const prompt = fake.texts(req).join('\n');
  t.match(prompt, QUESTION);
  for (const p of r.passages) t.match(prompt, `[${p.doc_id}]\n${p.text}`, `passage of ${p.doc_id} sent under its id`);
});

t.test('a reply citing nothing that was sent has no citations', async (t) => {
  fake.reply = () => ({ text: 'The passages do not say [1].' });
  const r = await ask(t);
  t.same(r.answer, { text: 'The passages do not say.', citations: [], source: 'answer-model-1' });
});

t.test('failures keep the search and explain themselves in answer.error', async (t) => {
  const cases: Array<[string, () => any, string, RegExp]> = [
    ['server error', () => ({ status: 500, error: 'boom' }), 'enrichment_failed', /SVC_ENRICH_URL/],
    ['bad key', () => ({ status: 401, error: 'invalid api key' }), 'enrichment_failed', /SVC_ENRICH_API_KEY/],
    ['unknown model', () => ({ status: 404, error: 'model not found' }), 'enrichment_failed', /SVC_ENRICH_MODEL/],
    ['not JSON', () => ({ raw: 'this is not json' }), 'enrichment_failed', /SVC_ENRICH/],
    ['empty reply', () => ({ text: '   ' }), 'enrichment_failed', /model/],
    ['slower than SVC_ENRICH_TIMEOUT', () => ({ delayMs: 60_000, text: 'late' }), 'enrichment_timeout', /SVC_ENRICH_TIMEOUT/],
  ];
  for (const [name, reply, type, fix] of cases) {
    fake.reply = reply;
    const r = await ask(t);
    t.match(r.answer, { text: null, citations: [], source: 'answer-model-1', error: { type, message: /answer-model-1/, fix } }, name);
    t.notMatch(JSON.stringify(r.answer), /sk-test-123/, `${name}: the key is never echoed`);
  }
});

t.test('an unreachable endpoint; no key means no Authorization header', async (t) => {
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  const down = new EnrichClient({ url: `http://127.0.0.1:${port}/v1`, timeoutMs: 5000 });
  const err = await down.chat('m', [{ role: 'user', content: 'hi' }], 'answer').catch((e) => e);
  t.match(err, {
    type: 'enrichment_failed',
    message: new RegExp(`could not reach .*127\\.0\\.0\\.1:${port}.*ECONNREFUSED`),
    fix: /SVC_ENRICH_URL/,
  });

  const keyless = await startTestServer(t, { threads: 1, env: { SVC_ENRICH_URL: fake.url, SVC_ENRICH_MODEL: 'm' } });
  await keyless.api.post('/stores', { name: 'kb' });
  await keyless.api.post('/stores/kb/documents', { documents: DOCS });
  fake.requests.length = 0;
  fake.reply = () => ({ text: 'Lilla Brignone [director]' });
  const k = await keyless.api.post('/stores/kb/search', { query: QUESTION, answer: true });
  t.same(k.answer.citations, ['director']);
  t.equal(fake.requests[0].headers.authorization, undefined);
});

t.test('checkCitations keeps what was sent and ordinary brackets', async (t) => {
  const sent = new Set(['a', 'b c', 'd']);
  t.same(checkCitations('X [a] and Y [b c; d] [zz] (see [the table]).', sent), {
    text: 'X [a] and Y [b c; d] (see [the table]).',
    citations: ['a', 'b c', 'd'],
  });
  t.same(checkCitations('Nothing here.', sent), { text: 'Nothing here.', citations: [] });
});
