// The centroids of long documents' passage windows that a thread remembers across searches
// (window-centroids.ts): a search that reads them remembered answers exactly as one that sums them
// afresh, and a window is never taken for another store's window at the same rows.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { type Engine, loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { FEATURE_TEXT } from '../src/engine/params.js';

const model = readModelFolder(defaultModelUri());
const towns = ['Harare', 'Lusaka', 'Maputo', 'Gaborone', 'Windhoek', 'Lilongwe', 'Maseru', 'Mbabane', 'Kigali', 'Dodoma'];
const crafts = ['river pottery', 'copper work', 'woven baskets', 'carved masks', 'glass beads', 'iron tools', 'printed cloth'];

/** A book of `n` paragraphs (each its own passage), its words drawn by `salt`, beside two short documents. */
function store(n: number, salt: number) {
  const paragraphs = Array.from({ length: n }, (_, i) => {
    const town = towns[(i * 7 + salt) % towns.length];
    const craft = crafts[(i * 3 + salt) % crafts.length];
    return `Chapter ${i}. The museum of ${town} keeps ${craft} from the year ${1800 + ((i * 13 + salt) % 200)}, given by the family of the potter ${towns[(i + salt) % towns.length]} Banda.`;
  });
  return [
    { id: 'book', text: `A History of Museums\n${paragraphs.join('\n\n')}`, metadata: {} },
    { id: 'lusaka', text: 'Lusaka Museum\nThe Lusaka museum was founded in 1996 and holds copper work.', metadata: {} },
    { id: 'harare', text: 'Harare Gallery\nThe Harare gallery holds carved masks and printed cloth.', metadata: {} },
  ];
}
const queries = [
  'which museum keeps river pottery from 1855',
  'copper work given by the Banda family',
  'Where were the carved masks of Maseru made?',
];

async function answers(engine: Engine, docs: ReturnType<typeof store>): Promise<string[]> {
  const index = engine.createIndex() as MemoryStoreIndex;
  try {
    index.apply(await engine.encode(docs));
    const out: string[] = [];
    for (const query of [...queries, ...queries]) {
      const r = await index.search({ query, maxHops: 4, maxResults: 10, trace: false }, () => undefined);
      out.push(JSON.stringify([r.passages.map((p) => [p.docId, p.start, p.score.toFixed(9), p.hop]), r.confidence.toFixed(9), r.hopsUsed]));
    }
    return out;
  } finally {
    index.close();
  }
}

t.test('remembered window centroids answer as centroids summed afresh, store by store', async (t) => {
  const n = FEATURE_TEXT.docWindow * 2 + 40;
  const a = store(n, 0);
  const b = store(n, 5);
  const warm = await loadEngine({ model, threads: 1 });
  t.teardown(() => warm.close());
  const fromA = await answers(warm, a);
  t.same(fromA.slice(3), fromA.slice(0, 3), 'a second search of a store answers as its first');
  t.ok(
    fromA.some((s) => s.includes('"book"')),
    'the book is listed',
  );
  const fromB = await answers(warm, b);
  const cold = await loadEngine({ model, threads: 1 });
  t.teardown(() => cold.close());
  t.same(fromB, await answers(cold, b), "a store with the same rows as one searched before reads its own windows, not the other's");
  t.not(fromB[0], fromA[0], 'the two stores answer differently');
});
