// A search's scan spread over an idle worker (runtime/assist.ts, ranking/scan-segments.ts): the
// same answers, to the float, as the scan run by one thread, for a store in the kernels' memory and
// for one spread over regions (each lane copies postings into a stage of its own), and the helper
// did run units; a pool of one thread runs every unit itself; a touching job, costlier a posting,
// spreads from fewer postings.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { type Engine, loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { SCAN } from '../src/engine/params.js';
import { spreads } from '../src/engine/ranking/index.js';
import { benchRecords } from './helpers/server.js';

const docs = benchRecords<{ id: string; text: string }>('wiki-pool', 'corpus.jsonl', 3000);
const questions = benchRecords<{ query: string }>('hotpotqa-dev', 'queries.jsonl', 30).map((q) => q.query);
const model = readModelFolder(defaultModelUri());

/** A store of several segments (no merge: compaction off), so a scan has units to spread. */
async function storeOn(t: { teardown(f: () => void): void }, engine: Engine): Promise<MemoryStoreIndex> {
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  t.teardown(() => index.close());
  for (let i = 0; i < docs.length; i += 500) index.apply(await engine.encode(docs.slice(i, i + 500).map((d) => ({ ...d, metadata: {} }))));
  return index;
}

/**
 * Every answer to the float, searched with scans spread from `spreadPostings` postings on. The scans
 * are approximate on a small budget, as a large store's are: their common terms add to the rows the
 * rare ones touched, the terms a job spreads.
 */
async function answers(index: MemoryStoreIndex, spreadPostings: number): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of questions) {
    const r = await index.search(
      { query, maxHops: 4, maxResults: 10, trace: false, scan: 'approximate', scanBudget: 50, spreadPostings },
      () => undefined,
    );
    out.push({ passages: r.passages.map((p) => [p.docId, p.start, p.score, p.hop]), confidence: r.confidence, hops: r.hopsUsed });
  }
  return out;
}

for (const [name, layout] of [
  ['the kernels memory', {}],
  ['regions', { mainImageBytes: 0, regionBytes: 4 * 2 ** 20 }],
] as const) {
  t.test(`a scan spread over two workers answers as one thread's, images in ${name}`, async (t) => {
    const engine = await loadEngine({ model, threads: 2, ...layout });
    t.teardown(() => engine.close());
    const index = await storeOn(t, engine);
    t.ok(index.snapshot().segments.length >= 2, `a store of ${index.snapshot().segments.length} segments`);
    const alone = await answers(index, Number.POSITIVE_INFINITY);
    t.same(engine.assisted, { jobs: 0, helped: 0 }, 'no job is spread under its postings');
    const spread = await answers(index, 0);
    const { jobs, helped } = engine.assisted;
    t.ok(jobs > questions.length, `every search spread its scans (${jobs} jobs)`);
    t.ok(helped > 0, `the idle worker ran some of their units (${helped})`);
    t.same(spread, alone, 'the same answers, scores and confidences');
  });
}

t.test('a touching job spreads from fewer postings than one adding to marked rows', async (t) => {
  const from = SCAN.spreadPostings;
  const cost = SCAN.touchSpreadCost;
  const two = { assist: {}, segs: [0, 1], spreadPostings: from };
  t.ok(spreads(two, from, false), 'marked rows: from spreadPostings on');
  t.notOk(spreads(two, from - 1, false), 'marked rows: not below');
  t.ok(spreads(two, Math.ceil(from / cost), true), 'touching: from spreadPostings / touchSpreadCost on');
  t.notOk(spreads(two, Math.ceil(from / cost) - 1, true), 'touching: not below');
  t.notOk(spreads({ ...two, segs: [0] }, from * cost, true), 'one segment: never');
  t.notOk(spreads({ ...two, assist: undefined }, from * cost, true), 'no board (a main thread): never');
});

t.test('a pool of one thread runs every unit of a spread scan itself', async (t) => {
  const one = await loadEngine({ model, threads: 1 });
  const two = await loadEngine({ model, threads: 2 });
  t.teardown(() => Promise.all([one.close(), two.close()]));
  const [a, b] = [await storeOn(t, one), await storeOn(t, two)];
  t.same(await answers(a, 0), await answers(b, Number.POSITIVE_INFINITY), 'the same answers');
  t.ok(one.assisted.jobs > 0, 'its scans were posted');
  t.equal(one.assisted.helped, 0, 'and no other thread ran a unit');
});
