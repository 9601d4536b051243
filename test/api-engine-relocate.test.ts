import t from 'tap';
import { ConfigError, loadConfig } from '../src/config.js';
import { benchRecords, startTestServer } from './helpers/server.js';

t.test('SVC_ENGINE_RELOCATE_MB: whole megabytes, 0 to turn it off', async (t) => {
  t.equal(loadConfig({}).engineRelocateBytes, undefined, "unset: the engine's default");
  t.equal(loadConfig({ SVC_ENGINE_RELOCATE_MB: '0' }).engineRelocateBytes, 0);
  t.equal(loadConfig({ SVC_ENGINE_RELOCATE_MB: '64' }).engineRelocateBytes, 64 * 2 ** 20);
  for (const bad of ['-1', '1.5', '4097', 'soon']) {
    t.throws(() => loadConfig({ SVC_ENGINE_RELOCATE_MB: bad }), { name: ConfigError.name, message: /^SVC_ENGINE_RELOCATE_MB=/ }, bad);
  }
});

t.test('SVC_ENGINE_DISCARD: 1 (the default) or 0', async (t) => {
  t.equal(loadConfig({}).engineDiscard, true);
  t.equal(loadConfig({ SVC_ENGINE_DISCARD: '0' }).engineDiscard, false);
  for (const bad of ['2', 'yes', '']) {
    t.throws(() => loadConfig({ SVC_ENGINE_DISCARD: bad }), { name: ConfigError.name, message: /^SVC_ENGINE_DISCARD=/ }, bad);
  }
});

function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m && m[1] === name) out.set(m[2] ?? '', Number(m[3]));
  }
  return out;
}

async function scrape(url: string) {
  const text = await (await fetch(url.replace(/\/v1$/, '/metrics'))).text();
  const memory = samples(text, 'svc_engine_memory_bytes');
  return {
    reserved: memory.get('{kind="reserved"}') ?? 0,
    written: memory.get('{kind="written"}') ?? 0,
    allocated: memory.get('{kind="allocated"}') ?? 0,
    relocations: samples(text, 'svc_engine_memory_relocations_total').get('') ?? -1,
    discarded: samples(text, 'svc_engine_memory_discarded_bytes_total').get('') ?? -1,
    compacted: samples(text, 'svc_engine_heap_compacted_bytes_total').get('') ?? -1,
    compactedType: /^# TYPE svc_engine_heap_compacted_bytes_total counter$/m.test(text),
    types: [...text.matchAll(/^# TYPE (svc_engine_memory_\w+_total) (\w+)$/gm)].map((m) => `${m[1]} ${m[2]}`),
  };
}

const docs = benchRecords<{ id: string; text: string }>('wiki-pool', 'corpus.jsonl', 9000);

t.test('a deleted store is given back once the engine is idle; the other searches as before', async (t) => {
  const { api, server } = await startTestServer(t, { env: { SVC_ENGINE_RELOCATE_MB: '1', SVC_ENGINE_DISCARD: '0' } });
  await api.post('/stores', { name: 'kept' });
  await api.post('/stores', { name: 'gone' });
  await api.post('/stores/kept/documents', { documents: docs.slice(0, 400) });
  for (let i = 400; i < docs.length; i += 1000) await api.post('/stores/gone/documents', { documents: docs.slice(i, i + 1000) });
  const queries = docs
    .slice(0, 400)
    .filter((_, i) => i % 80 === 0)
    .map((d) => d.text.split('\n')[0]);
  const search = () => Promise.all(queries.map((query) => api.post('/stores/kept/search', { query, max_results: 5, return_trace: true })));
  // times aside
  const strip = (rs: unknown[]) => JSON.parse(JSON.stringify(rs, (k, v) => (k === 'ms' || k === 'latency_ms' ? 0 : v)));
  const before = strip(await search());
  const full = await scrape(server.url);
  t.same(full.types, ['svc_engine_memory_relocations_total counter', 'svc_engine_memory_discarded_bytes_total counter']);
  await api.delete('/stores/gone');
  let after = await scrape(server.url);
  for (let waited = 0; after.relocations < 1 && waited < 20_000; waited += 250) {
    await new Promise((r) => setTimeout(r, 250));
    after = await scrape(server.url);
  }
  t.equal(after.discarded, 0, 'SVC_ENGINE_DISCARD=0: no page dropped in place');
  t.ok(after.relocations >= 1, `relocated (${after.relocations})`);
  t.ok(
    after.compactedType && after.compacted >= full.compacted && full.compacted >= 0,
    `heaps compacted before the move: ${after.compacted} bytes`,
  );
  t.ok(after.reserved < full.reserved, `the memory shrank: ${full.reserved} -> ${after.reserved} bytes`);
  t.ok(after.written < full.written, `less of it written: ${full.written} -> ${after.written} bytes`);
  t.ok(after.allocated <= after.written && after.written <= after.reserved, 'allocated <= written <= reserved');
  t.same(strip(await search()), before, 'the store left answers exactly as before');
  await api.post('/stores/kept/documents', { documents: docs.slice(400, 500) });
  const added = await api.post('/stores/kept/search', { query: docs[450].text.split('\n')[0], max_results: 5 });
  t.ok(
    added.passages.some((p: { doc_id: string }) => p.doc_id === docs[450].id),
    'and what is written after the move is found',
  );
});

t.test("a deleted store's free pages are dropped in place once the engine is idle: no move, the same memory", async (t) => {
  const { api, server } = await startTestServer(t);
  await api.post('/stores', { name: 'kept' });
  await api.post('/stores', { name: 'gone' });
  await api.post('/stores/kept/documents', { documents: docs.slice(0, 400) });
  for (let i = 400; i < docs.length; i += 1000) await api.post('/stores/gone/documents', { documents: docs.slice(i, i + 1000) });
  const query = docs[120].text.split('\n')[0];
  const strip = (r: unknown) => JSON.parse(JSON.stringify(r, (k, v) => (k === 'ms' || k === 'latency_ms' ? 0 : v)));
  const before = strip(await api.post('/stores/kept/search', { query, max_results: 5, return_trace: true }));
  const full = await scrape(server.url);
  await api.delete('/stores/gone');
  let after = await scrape(server.url);
  for (let waited = 0; after.written > full.written - 2 ** 20 && waited < 10_000; waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
    after = await scrape(server.url);
  }
  t.ok(after.discarded > full.discarded, `pages dropped: ${full.discarded} -> ${after.discarded} bytes`);
  t.ok(full.written - after.written > 4 * 2 ** 20, `the memory written fell: ${full.written} -> ${after.written} bytes`);
  t.equal(after.relocations, 0, 'no relocation needed');
  t.equal(after.reserved, full.reserved, 'the same memory');
  t.same(
    strip(await api.post('/stores/kept/search', { query, max_results: 5, return_trace: true })),
    before,
    'the store left answers as before',
  );
});
