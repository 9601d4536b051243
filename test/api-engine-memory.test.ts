import t from 'tap';
import { ConfigError, ENGINE_MEMORY_MB, loadConfig } from '../src/config.js';
import { benchRecords, startTestServer } from './helpers/server.js';

t.test('SVC_ENGINE_MEMORY_MB: whole megabytes within the range', async (t) => {
  t.equal(loadConfig({}).engineMemoryBytes, undefined, "unset: the engine's default (a share of the process's memory bound)");
  t.equal(loadConfig({ SVC_ENGINE_MEMORY_MB: '512' }).engineMemoryBytes, 512 * 2 ** 20);
  t.equal(loadConfig({ SVC_ENGINE_MEMORY_MB: '16384' }).engineMemoryBytes, 16384 * 2 ** 20, 'past one 4 GiB memory');
  for (const bad of ['0', '63', String(ENGINE_MEMORY_MB.max + 1), '1.5', 'lots']) {
    t.throws(() => loadConfig({ SVC_ENGINE_MEMORY_MB: bad }), { name: ConfigError.name, message: /^SVC_ENGINE_MEMORY_MB=/ }, bad);
  }
});

t.test('an ingest past the engine memory is refused whole, and what was acknowledged stays', async (t) => {
  const docs = benchRecords<{ id: string; text: string }>('wiki-pool', 'corpus.jsonl');
  const env = { SVC_ENGINE_MEMORY_MB: String(ENGINE_MEMORY_MB.min) };
  const first = await startTestServer(t, { env });
  await first.api.post('/stores', { name: 'full' });
  let acknowledged = 0;
  let refused: { status: number; body: any; ids: string[] } | undefined;
  for (let i = 0; i < docs.length && !refused; i += 1000) {
    const batch = docs.slice(i, i + 1000).map((d) => ({ id: d.id, text: d.text }));
    const r = await first.api.raw('POST', '/stores/full/documents', { documents: batch });
    if (r.status === 200) acknowledged += batch.length;
    else refused = { status: r.status, body: r.body, ids: batch.map((d) => d.id) };
  }
  t.ok(refused, `a batch is refused after ${acknowledged} documents`);
  t.ok(acknowledged > 0, 'batches were taken before it');
  t.equal(refused!.status, 507);
  t.equal(refused!.body.error.type, 'engine_memory_full');
  t.match(refused!.body.error.fix, /SVC_ENGINE_MEMORY_MB/);
  const missing = await first.api.raw('GET', `/stores/full/documents/${encodeURIComponent(refused!.ids[0])}`);
  t.equal(missing.status, 404, 'nothing of the refused batch was written');
  t.equal((await first.api.get('/stores/full')).n_docs, acknowledged, 'every acknowledged document is there');
  const known = docs[0];
  const query = known.text.split('\n')[0];
  const hit = await first.api.post('/stores/full/search', { query, max_results: 5 });
  t.ok(
    hit.passages.some((p: { doc_id: string }) => p.doc_id === known.id),
    'searches go on',
  );
  const again = await first.restart();
  t.equal((await again.api.get('/stores/full')).n_docs, acknowledged, 'a restart under the same bound opens the store');
  const after = await again.api.post('/stores/full/search', { query, max_results: 5 });
  t.same(
    after.passages.map((p: { doc_id: string }) => p.doc_id),
    hit.passages.map((p: { doc_id: string }) => p.doc_id),
    'and searches it alike',
  );
});
