// Clean scratch (ranking/buffers.ts, SCAN.cleanRows): hop 1 scans into buffers already zero, sums,
// masks and copies only the rows it listed, and zeroes them when the search ends, instead of doing
// so over every row. Checked: the same candidates and features as the search that zeroes and masks
// every row, from a dirty block and from the clean block the last search left; the buffers zero again
// after end(); no dead or filtered-out row among the candidates; the heap's clean tags; and the same
// answers through the engine (worker, heap and clean tags) with and without it.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { loadEngine, type SearchParams } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { Searcher } from '../src/engine/ranking/index.js';
import type { HopBuffers } from '../src/engine/ranking/types.js';
import { createEngineRuntime } from '../src/engine/runtime/index.js';
import { NAMED_ROWS, openShippedStore } from './helpers/shipped-store.js';

const docs = NAMED_ROWS;
const questions = ['Who guarded the glacier of Cato Lind 14?', 'Which painter mapped the harbour near Fenn Holt 35?', 'opera treaty 1822'];
const store = await openShippedStore(docs);
t.teardown(() => store.close());
const search = store.model.params.search;
if (!search) throw new Error('the shipped model has search parameters');

/** Every hop's candidates and features for each question, hop 1 then a later hop from each of its first rows. */
function hopsOf(s: Searcher): string[] {
  const out: string[] = [];
  for (const question of questions) {
    const q = s.query(question);
    const h1 = s.hop1(q);
    out.push(JSON.stringify([h1.rows, h1.features.map((f) => Array.from(f))]));
    const beam = new Set(q.order.slice(0, 3));
    for (const p of q.order.slice(0, 4)) {
      const next = s.hopNext(q, [p], beam, search!.exp);
      out.push(JSON.stringify([next.rows, next.features.map((f) => Array.from(f))]));
    }
  }
  return out;
}

const zeroBuffers = (s: Searcher, b: HopBuffers) => {
  const views = s.c.kernels.views;
  return (
    [b.sBody, b.sTitle, b.s, b.s2].every((p) => views.u8At(p, b.rowBytes).every((v) => v === 0)) &&
    [b.mark, b.mark2].every((p) => views.u8At(p, b.markBytes).every((v) => v === 0))
  );
};

for (const budget of [0, 60])
  t.test(`${budget ? 'approximate' : 'exact'} scans: clean scratch gives what zeroing every row gives`, async (t) => {
    const base = store.searcher([]);
    const make = (mode: 'fill' | 'clean' | 'dirty') =>
      new Searcher(base.c, base.stop, base.buf, base.theta, base.denseTables, budget, mode);
    const want = hopsOf(make('fill'));
    const b = base.buf;
    base.c.kernels.views.u8At(b.sBody, b.topIdx - b.sBody).fill(0x5a);
    const dirty = make('dirty');
    t.notOk(dirty.end(), 'a dirty block is not clean before a scan');
    t.same(hopsOf(dirty), want, 'from a dirty block');
    t.ok(dirty.end(), 'end() hands the block back clean');
    t.ok(zeroBuffers(dirty, b), 'every per-row buffer is zero again');
    const clean = make('clean');
    t.same(hopsOf(clean), want, 'from the clean block');
    t.ok(clean.end() && zeroBuffers(clean, b), 'clean again');
    t.notOk(make('fill').end(), 'the whole-row mode never says clean');
  });

t.test('rows filtered out are masked wherever a scan touches them', async (t) => {
  const hidden = docs.filter((_, i) => i % 3 === 0).map((d) => d.id);
  const base = store.searcher(hidden);
  const s = new Searcher(base.c, base.stop, base.buf, base.theta, base.denseTables, 0, 'dirty');
  const hiddenRows = new Set(hidden.flatMap((id) => store.rowsOf(id)));
  let candidates = 0;
  for (const question of questions) {
    const q = s.query(question);
    const rows = [...s.hop1(q).rows];
    for (const p of q.order.slice(0, 4)) rows.push(...s.hopNext(q, [p], new Set(q.order.slice(0, 3)), search.exp).rows);
    t.notOk(
      rows.some((r) => hiddenRows.has(r)),
      `${question}: no hidden row among the candidates`,
    );
    candidates += rows.length;
  }
  t.ok(candidates > 20, 'the questions have candidates');
  t.ok(s.end() && zeroBuffers(s, base.buf), 'the buffers are zero again');
});

t.test('the heap keeps a clean tag per scratch block until it is ended dirty or freed', async (t) => {
  const { heap } = await createEngineRuntime();
  const a = heap.allocScratch(4096, 'x');
  const other = heap.allocScratch(4096);
  t.notOk(heap.isClean(a, 'x'), 'a fresh block is not clean');
  heap.freeScratch(a, 'x');
  heap.freeScratch(other);
  t.equal(heap.allocScratch(4096, 'x'), a, 'a task of the tag takes the block kept clean under it first');
  t.ok(heap.isClean(a, 'x'), 'and is told it is clean');
  t.notOk(heap.isClean(a, 'y'), 'under its tag only');
  heap.freeScratch(a);
  t.notOk(heap.isClean(a, 'x'), 'ended without a tag, it is dirty');
  const b = heap.allocScratch(4096, 'x');
  heap.freeScratch(b, 'x');
  heap.releaseScratch();
  const c = heap.alloc(4096);
  t.notOk(heap.isClean(c, 'x'), 'a block freed and allocated again is not clean');
});

t.test('through the engine: the same answers, and the scratch kept clean between searches', async (t) => {
  const engine = await loadEngine({ model: readModelFolder(defaultModelUri()), threads: 1 });
  t.teardown(() => engine.close());
  const index = engine.createIndex() as MemoryStoreIndex;
  t.teardown(() => index.close());
  index.apply(await engine.encode(docs));
  for (const id of docs.filter((_, i) => i % 5 === 0).map((d) => d.id)) index.remove(id);
  const run = async (extra: Partial<SearchParams>) => {
    const out: unknown[] = [];
    for (const query of questions) {
      const r = await index.search(
        { query, maxHops: 4, maxResults: 10, trace: false, scan: 'approximate', scanBudget: 40, ...extra },
        () => undefined,
      );
      out.push([r.passages.map((p) => [p.docId, p.score]), r.confidence]);
      t.notOk(
        r.passages.some((p) => Number(p.docId.slice(1)) % 5 === 0),
        `${query}: no deleted document`,
      );
    }
    return out;
  };
  const want = await run({ keepClean: false });
  t.same(await run({ keepClean: true }), want, 'first clean run (the block zeroed first)');
  t.same(await run({ keepClean: true }), want, 'again, from the blocks kept clean');
  t.same(await run({ keepClean: false }), want, 'and zeroing every row again after them');
});
