// What a thread remembers of a snapshot's segments across searches (term-ranges.ts): the table is
// shared only by snapshots of the very same segments, is never stale, and searches that use it
// answer exactly as a store built afresh from the same documents, through writes, replacements,
// deletions and merges.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { rememberedSnapshots, termTable } from '../src/engine/ranking/index.js';

t.test('a table is shared by the snapshots of the same segments only', async (t) => {
  const a = termTable([1, 2, 3]);
  t.equal(termTable([1, 2, 3]), a, 'the same segments: the same table');
  t.not(termTable([1, 2, 4]), a, 'another segment: another table');
  t.not(termTable([2, 1, 3]), a, 'the same segments in another order: another table (ranges are per position)');
  const before = rememberedSnapshots();
  t.not(termTable([1, undefined]), termTable([1, undefined]), 'a segment without an id: a table for one search');
  t.not(termTable([7]), termTable([7]), 'a single segment: a table for one search');
  t.equal(rememberedSnapshots(), before, 'neither is remembered');
  for (let i = 0; i < 20; i++) termTable([1000 + i, 2000 + i]);
  t.equal(rememberedSnapshots(), 8, 'at most eight snapshots are remembered');
  t.not(termTable([1, 2, 3]), a, 'the least recently used went first');
});

const engine = await loadEngine({ model: readModelFolder(defaultModelUri()), threads: 1 });
t.teardown(() => engine.close());

const towns = ['Harare', 'Lusaka', 'Maputo', 'Gaborone', 'Windhoek', 'Lilongwe', 'Maseru', 'Mbabane'];
const doc = (i: number, v = 0) => ({
  id: `d${i}`,
  text: `${towns[i % towns.length]} Museum ${i}\nThe museum of ${towns[i % towns.length]} was founded by the architect Ada Kiyemba ${v ? 'after the flood' : `in 19${10 + i}`}; it holds ${i} galleries of river pottery and copper work.`,
  metadata: {},
});
const queries = [
  'who founded the museum of Lusaka',
  'river pottery galleries in Maputo',
  'Where was the architect of the Harare museum born?',
  'copper work after the flood',
];

async function answers(index: MemoryStoreIndex): Promise<string[]> {
  const out: string[] = [];
  for (const query of queries) {
    const r = await index.search({ query, maxHops: 4, maxResults: 10, trace: false }, () => undefined);
    out.push(JSON.stringify([r.passages.map((p) => [p.docId, p.score.toFixed(6), p.hop]), r.confidence.toFixed(6), r.hopsUsed]));
  }
  return out;
}

async function fresh(docs: ReturnType<typeof doc>[]): Promise<MemoryStoreIndex> {
  const index = engine.createIndex() as MemoryStoreIndex;
  index.apply(await engine.encode(docs));
  return index;
}

t.test('searches that share a table answer as a store built afresh', async (t) => {
  const index = engine.createIndex() as MemoryStoreIndex;
  t.teardown(() => index.close());
  let docs = Array.from({ length: 24 }, (_, i) => doc(i));
  for (let i = 0; i < 24; i += 6) index.apply(await engine.encode(docs.slice(i, i + 6)));
  t.ok(index.segmentCount > 1, 'several segments');
  const check = async (what: string) => {
    const first = await answers(index);
    t.same(await answers(index), first, `${what}: a second search answers as the first`);
    const other = await fresh(docs);
    t.same(first, await answers(other), `${what}: as a store built at once`);
    other.close();
  };
  await check('written in batches');
  docs = docs.map((d, i) => (i % 5 === 0 ? doc(i, 1) : d));
  index.apply(await engine.encode(docs.filter((_, i) => i % 5 === 0)));
  await check('documents replaced');
  index.remove('d3');
  docs = docs.filter((d) => d.id !== 'd3');
  await check('a document deleted');
  const before = index.segmentCount;
  do await new Promise((r) => setTimeout(r, 50));
  while (!index.settled);
  t.ok(index.segmentCount < before, `the idle merge folded ${before} segments into ${index.segmentCount}`);
  await check('merged');
});
