// The backup procedure of docs/deploying.md: stop the server, copy SVC_DATA_DIR (any copy tool; here a
// recursive copy to another path), start a server on the copy. The copy answers every search
// exactly as the original did (passages, scores, offsets, confidence, hops), lists the same
// stores and documents, needs no rebuild, and is independent of the original afterwards.

import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { rejectsApi } from './helpers/rejects-api.js';
import { startTestServer, tempDir } from './helpers/server.js';
import { verifyDataDir, walkDocs } from './helpers/store-check.js';
import { untimed } from './helpers/untimed.js';

const QUERIES = ['Who directed Devotion?', 'river through Vienna', 'zqk7 marker', 'mountains and glaciers', 'father of the actress'];
const texts = [
  'Devotion (1929 film)\nDevotion is a 1929 Italian silent drama film directed by Guido Brignone.',
  'Guido Brignone\nGuido Brignone was an Italian film director, father of the actress Lilla Brignone.',
  'The Danube\nThe Danube flows through Vienna and Budapest on its way to the Black Sea.',
  'The Alps\nThe Alps are mountains with glaciers, stretching across eight countries. Marker zqk7.',
];

async function answers(api: any, stores: string[]) {
  const out: unknown[] = [];
  for (const s of stores) {
    for (const query of QUERIES) {
      out.push(untimed(await api.post(`/stores/${s}/search`, { query, return_trace: true, max_hops: 3 })));
    }
  }
  return out;
}

/** A search answer without its floats, which must match exactly, and the floats. */
const shape = (a: any) => ({ ...a, confidence: undefined, passages: a.passages.map((p: any) => ({ ...p, score: undefined })) });
const floats = (a: any) => [a.confidence, ...a.passages.map((p: any) => p.score)];

t.test('a copied data dir of a stopped server serves identical results', async (t) => {
  const first = await startTestServer(t);
  const other = first.api.with({ 'X-Svc-Project': 'other' });
  await first.api.post('/stores', { name: 'kb' });
  await other.post('/stores', { name: 'kb2' });
  const docs = Array.from({ length: 40 }, (_, i) => ({
    id: `d${i}`,
    text: `${texts[i % 4]} Copy ${i}.`,
    metadata: { n: i, team: i % 2 ? 'odd' : 'even' },
  }));
  await first.api.post('/stores/kb/documents', { documents: docs });
  await other.post('/stores/kb2/documents', { documents: docs.slice(0, 10) });
  await first.api.post('/stores/kb/documents', { documents: [{ id: 'd3', text: 'Replaced text about the Danube in Vienna.' }] });
  await first.api.delete('/stores/kb/documents/d7');
  const live = {
    kb: await answers(first.api, ['kb']),
    kb2: await answers(other, ['kb2']),
    docs: await walkDocs(first.api, 'kb'),
    stores: await first.api.get('/stores'),
  };
  await first.server.close();

  const copy = path.join(tempDir(t, 'svc-copy-'), 'data');
  fs.cpSync(first.dataDir, copy, { recursive: true });
  t.same(await verifyDataDir(copy), [], 'the copy passes StoreDb.verify');
  const second = await startTestServer(t, { dataDir: copy });
  const restored = await answers(second.api, ['kb']);
  t.same(restored.map(shape), live.kb.map(shape), 'same passages, offsets, hops and traces as the original served');
  const drift = Math.max(...restored.flatMap((a, i) => floats(a).map((x, j) => Math.abs(x - floats(live.kb[i])[j]))));
  t.ok(drift < 1e-3, `scores and confidence within 1e-3 of what the original served (largest difference ${drift})`);
  t.same(await answers(second.api.with({ 'X-Svc-Project': 'other' }), ['kb2']), live.kb2, 'identical in the other project (never updated)');
  t.same(await walkDocs(second.api, 'kb'), live.docs, 'same documents, order and metadata');
  t.same(await second.api.get('/stores'), live.stores, 'same stores, ids and stats');

  const original = await startTestServer(t, { dataDir: first.dataDir });
  t.same(restored, await answers(original.api, ['kb']), 'bit-identical to the original restarted on its own data dir');
  t.same(
    restored,
    live.kb,
    'the live index (replaced and deleted passages still flagged dead) scores exactly like the index rebuilt from disk',
  );

  await second.api.post('/stores/kb/documents', { documents: [{ id: 'only-in-copy', text: 'Written to the copy only.' }] });
  await rejectsApi(
    t,
    original.api.get('/stores/kb/documents/only-in-copy'),
    { status: 404, type: 'document_not_found' },
    'the copy is independent',
  );
});
