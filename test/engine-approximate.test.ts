// The approximate scan (ranking/scan-budget.ts, SCAN.approximateRows) on the real engine: within its budget it
// answers exactly like the exact scan; past it, the common terms only add to rows the rare terms
// touched, so a passage holding only common terms is never scored, while the others are still found.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import type { SearchParams } from '../src/engine/index.js';
import { loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';

const engine = await loadEngine({ model: readModelFolder(defaultModelUri()), threads: 1 });
t.teardown(() => engine.close());

const index = engine.createIndex() as MemoryStoreIndex;
const docs = [
  ...['Harare', 'Lusaka', 'Maputo'].map((city, i) => ({
    id: `zebra-${i}`,
    text: `Zebra herd ${i}\nA zebra herd grazes the common grassland near ${city} every dry season.`,
  })),
  ...Array.from({ length: 60 }, (_, i) => ({
    id: `plain-${i}`,
    text: `Pasture ${i}\nThe common grassland of pasture ${i} is grazed by cattle in the dry season.`,
  })),
];
index.apply(await engine.encode(docs.map((d) => ({ ...d, metadata: {} }))));
t.teardown(() => index.close());

const run = async (extra: Partial<SearchParams>) => {
  const out = await index.search(
    { query: 'zebra common grassland dry season', maxHops: 1, maxResults: 10, trace: false, ...extra },
    () => undefined,
  );
  return out.passages.map((p) => [p.docId, p.score] as const);
};

t.test('within its budget the approximate scan answers as the exact one', async (t) => {
  for (const maxHops of [1, 4]) {
    const exact = await run({ maxHops, scan: 'exact' });
    t.ok(exact.length > 3, 'the exact scan finds plain pastures too');
    t.same(await run({ maxHops, scan: 'approximate', scanBudget: 1e9 }), exact, `max_hops ${maxHops}`);
    t.same(await run({ maxHops }), exact, 'a small store scans exactly by default');
  }
});

t.test('past its budget only rows holding the rarest term are scored', async (t) => {
  const exact = await run({ scan: 'exact' });
  const approx = await run({ scan: 'approximate', scanBudget: 1 });
  t.same(approx.map(([id]) => id).sort(), ['zebra-0', 'zebra-1', 'zebra-2'], 'the passages with the rare term, and only them');
  t.same(
    exact.filter(([id]) => id.startsWith('zebra')).map(([id]) => id),
    approx.map(([id]) => id),
    'in the exact order',
  );
});
