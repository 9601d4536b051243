// SvcRetriever (packages/langchain, `svc-langchain`) with the real @langchain/core against a real
// server: Documents carry the passage as pageContent and doc_id, hop, score, offsets, the
// document's metadata and the search's confidence and hops used; options reach the search; an API
// error rejects with the client's typed error.
import { BaseRetriever } from '@langchain/core/retrievers';
import { StoreNotFoundError, Svc } from 'svc-client';
import { SvcRetriever } from 'svc-langchain';
import t from 'tap';
import { startTestServer } from './helpers/server.js';

const { server, api } = await startTestServer(t, { threads: 1 });
await api.post('/stores', { name: 'wiki' });
await api.post('/stores/wiki/documents', {
  documents: [
    { id: 'curie', text: 'Marie Curie\nMarie Curie was a physicist born in Warsaw.', metadata: { kind: 'person' } },
    { id: 'warsaw', text: 'Warsaw\nWarsaw is the capital of Poland, on the Vistula river.', metadata: { kind: 'city' } },
    { id: 'paris', text: 'Paris\nParis is the capital of France, on the Seine.', metadata: { kind: 'city' } },
  ],
});
const client = { baseUrl: server.url, env: {} };

t.test('a LangChain retriever: passages as Documents with hops, offsets and confidence', async (t) => {
  const retriever = new SvcRetriever({ store: 'wiki', client });
  t.ok(retriever instanceof BaseRetriever);
  const question = 'Which river flows through the city where Marie Curie was born?';
  const docs = await retriever.invoke(question);
  const rest = await api.post('/stores/wiki/search', { query: question });
  t.same(
    docs.map((d) => [d.metadata.doc_id, d.metadata.hop, d.metadata.start, d.metadata.end]),
    rest.passages.map((p: any) => [p.doc_id, p.hop, p.start, p.end]),
    "the search's passages, in its order",
  );
  t.equal(docs[0].pageContent, rest.passages[0].text);
  t.equal(docs[0].id, `${rest.passages[0].doc_id}:${rest.passages[0].start}-${rest.passages[0].end}`);
  for (const d of docs) {
    t.equal(d.metadata.confidence, rest.confidence);
    t.equal(d.metadata.hops_used, rest.hops_used);
  }
  t.same(docs.find((d) => d.metadata.doc_id === 'warsaw')?.metadata.metadata, { kind: 'city' }, "the document's metadata");
});

t.test('options: maxResults, maxHops, filter, a given client', async (t) => {
  const retriever = new SvcRetriever({ store: 'wiki', svc: new Svc(client), maxResults: 1, maxHops: 1, filter: { kind: 'city' } });
  const docs = await retriever.invoke('capital');
  t.equal(docs.length, 1);
  t.equal(docs[0].metadata.metadata.kind, 'city');
  t.equal(docs[0].metadata.hops_used, 1);
  const batch = await retriever.batch(['Warsaw', 'Paris']);
  t.same(
    batch.map((b) => b[0].metadata.doc_id),
    ['warsaw', 'paris'],
    'batch, as any runnable',
  );
});

t.test('an API error rejects with the typed error', async (t) => {
  await t.rejects(new SvcRetriever({ store: 'nope', client }).invoke('x'), StoreNotFoundError);
});
