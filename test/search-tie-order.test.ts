// What a search returns does not depend on where a store's rows lie: the same documents ingested in
// another order, in other batches (other segments, merged in the background), rebuilt from their
// encodings, or restored from a persisted index answer every question identically (ids, scores,
// confidence, hops), with ties between exact copies under other ids broken by id, never by row
// (ranking/corpus.ts tieOrder). Real engine, shipped model, WASM kernels and workers.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import type { StoredDocument } from '../src/engine/index.js';
import { loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { HOPS } from '../src/engine/params.js';
import { rng } from './helpers/engine.js';

const engine = await loadEngine({ model: readModelFolder(defaultModelUri()), threads: 2 });
t.teardown(() => engine.close());

const r = rng(83);
const name = () => Math.floor(r() * 2 ** 32).toString(36);
// more exact copies of one paragraph than hop 1 takes from the top of its scan, so the cut falls
// inside a run of equal scores; copies of a second and third paragraph; documents that lead on
const copies = (text: string, n: number) => Array.from({ length: n }, () => ({ id: `copy-${name()}`, text, metadata: {} }));
const docs = [
  ...copies('Harbor Lights\nThe Harbor Lights lighthouse stands on the northern cape of the island of Varo.', HOPS.topTake + 40),
  ...copies('Varo\nVaro is an island in the Quendle Sea, governed from the town of Marisport.', 3),
  ...copies('Marisport\nMarisport is a port town founded in 1623 by the merchant Ada Quill.', 2),
  ...Array.from({ length: 60 }, (_, i) => ({
    id: `other-${name()}`,
    text: `Cape ${i}\nThe cape number ${i} of the Quendle Sea has a lighthouse built in ${1800 + i} by the merchant guild.`,
    metadata: { n: i },
  })),
];
const questions = [
  'Which lighthouse stands on the island governed from Marisport?',
  'Who founded the town that governs the island with the Harbor Lights lighthouse?',
  'Harbor Lights lighthouse',
  'lighthouse built by the merchant guild on the Quendle Sea',
];

const stored = new Map<string, StoredDocument>();
for (const d of (await engine.encode(docs)).docs) stored.set(d.id, { id: d.id, metadata: d.metadata, encoding: d.encoding });

/** Every question's results, as one comparable value. */
async function answers(index: MemoryStoreIndex): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of questions)
    for (const maxResults of [10, 50]) {
      const got = await index.search({ query, maxHops: 4, maxResults, trace: false }, () => undefined);
      out.push({
        query,
        maxResults,
        confidence: got.confidence,
        hops: got.hopsUsed,
        passages: got.passages.map((p) => [p.docId, p.score]),
      });
    }
  return out;
}

async function settled(index: MemoryStoreIndex): Promise<void> {
  for (let n = 0; n < 500 && !index.settled; n++) await new Promise((res) => setTimeout(res, 20));
}

/** An index of the documents in `order`, ingested in batches of `batch` (each its own segment). */
async function ingested(order: typeof docs, batch: number): Promise<MemoryStoreIndex> {
  const index = engine.createIndex() as MemoryStoreIndex;
  for (let i = 0; i < order.length; i += batch) index.apply(await engine.encode(order.slice(i, i + batch)));
  await settled(index);
  return index;
}

const shuffled = <T>(a: readonly T[]) => {
  const b = [...a];
  for (let i = b.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [b[i], b[j]] = [b[j], b[i]];
  }
  return b;
};

t.test('the same documents in any order, batches, rebuild or restore answer identically', async (t) => {
  const first = await ingested(docs, docs.length);
  const want = await answers(first);
  const tied = (want as Array<{ passages: Array<[string, number]> }>).some((a) =>
    a.passages.some(([id, s], i) => i > 0 && s === a.passages[i - 1][1] && id !== a.passages[i - 1][0]),
  );
  t.ok(tied, 'the questions meet ties between documents');

  const reversed = await ingested([...docs].reverse(), docs.length);
  t.same(await answers(reversed), want, 'ingested in reverse order');
  reversed.close();

  const small = await ingested(shuffled(docs), 7);
  t.same(await answers(small), want, 'shuffled, in batches of 7, merged in the background');

  const rebuilt = engine.createIndex() as MemoryStoreIndex;
  await rebuilt.load([...stored.values()].sort((a, b) => (a.id < b.id ? -1 : 1)));
  t.same(await answers(rebuilt), want, 'rebuilt from the encodings in id order');
  rebuilt.close();

  const parts: Uint8Array[] = [];
  await small.persist(async (bytes) => {
    parts.push(bytes.slice());
  });
  small.close();
  const all = Buffer.concat(parts);
  let at = 0;
  const restored = engine.createIndex() as MemoryStoreIndex;
  t.ok(
    await restored.restore((into) => {
      into.set(all.subarray(at, at + into.length));
      at += into.length;
    }),
    'restored',
  );
  t.same(await answers(restored), want, 'restored from a persisted index');
  restored.close();
  first.close();
});

t.test('an upsert that moves a document to the end of the rows leaves every answer as it was', async (t) => {
  const index = await ingested(docs, docs.length);
  const want = await answers(index);
  for (const d of docs.slice(0, 5)) index.apply(await engine.encode([d]));
  await settled(index);
  t.same(await answers(index), want);
  index.close();
});
