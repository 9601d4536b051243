// The centroids of long documents' passage windows that a thread remembers across searches
// (window-centroids.ts): a search that reads them remembered answers exactly as one that sums them
// afresh, and a window is never taken for another store's window at the same rows. And a book of
// more passages than a window is searched passage by passage (SearchCorpus.docOf): the multi-hop
// loop goes on from its first hop, lists several of its passages, and is not certain of it.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { type Engine, loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { FEATURE_TEXT, RESULT_LIST } from '../src/engine/params.js';

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

t.test('a book of paragraphs is searched as its paragraphs: the loop goes on past a first hop it cannot judge whole', async (t) => {
  const engine = await loadEngine({ model, threads: 1 });
  t.teardown(() => engine.close());
  const n = FEATURE_TEXT.docWindow + 60;
  const [book] = store(n, 3);
  // long paragraphs are cut into passages that overlap: a list must not take two that overlap much
  const long = Array.from(
    { length: 12 },
    (_, i) => `The river pottery of Maputo ${i}, given by the Banda family in ${1850 + i}, was fired in kilns of copper work and clay.`,
  ).join(' ');
  book.text = book.text.replaceAll('\n\nChapter 5', `\n\n${long} ${long}\n\nChapter 5`);
  const index = engine.createIndex() as MemoryStoreIndex;
  t.teardown(() => index.close());
  index.apply(await engine.encode([book]));
  let hops = 0;
  for (const query of queries) {
    const r = await index.search({ query, maxHops: 4, maxResults: 10, trace: false }, () => undefined);
    t.ok(r.passages.length > 3, `${query}: several passages of the one book listed (${r.passages.length})`);
    t.ok(r.confidence < 0.99, `${query}: a confidence below certainty (${r.confidence.toFixed(3)})`);
    for (const [i, p] of r.passages.entries())
      for (const o of r.passages.slice(0, i)) {
        const shared = Math.min(p.end, o.end) - Math.max(p.start, o.start);
        if (shared > RESULT_LIST.maxOverlap * Math.min(p.end - p.start, o.end - o.start))
          t.fail(`${query}: passages ${o.start}-${o.end} and ${p.start}-${p.end} overlap`);
      }
    hops = Math.max(hops, r.hopsUsed);
  }
  t.ok(hops > 1, `a search went past its first hop (${hops})`);
});
