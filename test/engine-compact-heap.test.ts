// A thread's heap compacted when the engine is idle (runtime/collect.ts compactHeap, MEMORY.compact):
// after a spell that left most old-space pages nearly empty (an ingest's garbage), the collections
// give those pages back, leaving the heap's committed old space close to what is live, and report
// the bytes given back; a heap with nothing to give back costs one collection and reports nothing
// (or next to nothing); a caller stepping through the collections sees at most maxRounds of them;
// an idle pool has every thread collect and compact once after it starts, and again once its
// thread's heap grew since, not otherwise. With the native
// helper (Linux), the compaction also shrinks the young generation a busy spell grew, and gives
// back the malloc arenas' free pages that the collection left (native/heap.cc).
import v8 from 'node:v8';
import t from 'tap';
import { engineWorkerUrl } from '../src/engine/index.js';
import { MEMORY } from '../src/engine/params.js';
import { collectGarbage, committedHeapBytes, compactHeap, HeapCompaction } from '../src/engine/runtime/collect.js';
import { createEngineRuntime, EnginePool } from '../src/engine/runtime/index.js';
import { nativeHelper } from '../src/engine/runtime/native-helper.js';

const MiB = 2 ** 20;
const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!;
const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!;

/** Objects spread over many old-space pages, one in twenty kept: the rest is garbage on the same pages. */
function fragment(): Array<{ i: number; s: string }> {
  let all: Array<{ i: number; s: string }> | undefined = [];
  for (let i = 0; i < 3_000_000; i++) all.push({ i, s: `x${i}` });
  const kept = all.filter((_, i) => i % 20 === 0);
  all = undefined;
  return kept;
}

t.test('the emptied old-space pages are given back, and the live objects kept', async (t) => {
  const kept = fragment();
  const before = committedHeapBytes();
  const given = compactHeap();
  const after = committedHeapBytes();
  const old = oldSpace();
  // within a MiB: the test's own allocations after the last collection may commit a page (seen in CI: 256 KiB)
  t.ok(Math.abs(given - (before - after)) <= MiB, `gave back ${given}: the committed heap before less after (${before - after})`);
  t.ok(given > 64 * MiB, `gave back ${(given / MiB).toFixed(0)} MiB`);
  t.ok(
    old.space_size - old.space_used_size < 16 * MiB,
    `old space: ${(old.space_size / MiB).toFixed(0)} MiB committed for ${(old.space_used_size / MiB).toFixed(0)} MiB live`,
  );
  t.equal(kept.length, 150_000);
  t.ok(
    kept.every((o, j) => o.i === 20 * j && o.s === `x${20 * j}`),
    'every kept object intact',
  );
});

t.test('step by step: at most maxRounds collections, each of them counted in what was given back', async (t) => {
  const kept = fragment();
  const before = committedHeapBytes();
  const c = new HeapCompaction();
  let rounds = 1;
  while (c.step()) rounds++;
  const after = committedHeapBytes();
  t.ok(rounds >= 2 && rounds <= MEMORY.compact.maxRounds, `${rounds} collections`);
  // within a MiB: between the steps the test's own allocations may commit a page or so (seen in CI: 256 KiB)
  t.ok(Math.abs(c.given - (before - after)) <= MiB, `given ${c.given}: the committed heap before less after (${before - after})`);
  t.ok(c.given > 64 * MiB, `gave back ${(c.given / MiB).toFixed(0)} MiB`);
  t.equal(kept.length, 150_000);
});

t.test('a compacted heap has next to nothing more to give back', async (t) => {
  compactHeap();
  t.ok(compactHeap() < MEMORY.compact.minGainBytes * MEMORY.compact.maxRounds, 'a second pass finds nothing to give back');
});

t.test('the young generation a busy spell grew is shrunk, and the free malloc pages go back (native helper)', async (t) => {
  if (process.platform !== 'linux') {
    t.pass(`not on ${process.platform}: ${nativeHelper().why}`);
    return;
  }
  t.ok(nativeHelper().helper, 'the native helper is built (npm run build:native)');
  let young: unknown[] = [];
  for (let i = 0; i < 2_000_000; i++) {
    young.push({ i, s: `y${i}` });
    if (i % 1000 === 0) young = [];
  }
  const grown = newSpace().physical_space_size;
  t.ok(grown >= 8 * MiB, `a spell of short-lived objects grew the young generation to ${(grown / MiB).toFixed(0)} MiB`);
  // 200 MiB of malloc'd buffers, one in twenty kept: the freed ones cannot be trimmed from the top of the arena
  let buffers: Buffer[] | undefined = [];
  for (let i = 0; i < 3200; i++) buffers.push(Buffer.allocUnsafeSlow(64 * 1024).fill(1));
  const kept = buffers.filter((_, i) => i % 20 === 19);
  buffers = undefined;
  collectGarbage();
  collectGarbage();
  await new Promise((res) => setTimeout(res, 200));
  const afterPlain = process.memoryUsage.rss();
  compactHeap();
  const afterCompaction = process.memoryUsage.rss();
  t.ok(
    newSpace().physical_space_size <= 2 * MiB,
    `young generation ${(newSpace().physical_space_size / MiB).toFixed(1)} MiB after the compaction`,
  );
  t.ok(
    afterPlain - afterCompaction > 100 * MiB,
    `RSS ${(afterPlain / MiB).toFixed(0)} MiB after plain collections, ${(afterCompaction / MiB).toFixed(0)} MiB after the compaction`,
  );
  t.ok(
    kept.every((b) => b.length === 64 * 1024 && b[0] === 1 && b[b.length - 1] === 1),
    'every kept buffer intact',
  );
});

/** Waits (at most 8 s) until the pool's threads have collected `n` times in all. */
async function collected(pool: EnginePool, n: number): Promise<void> {
  for (let waited = 0; pool.collections < n && waited < 8000; waited += 100) await new Promise((res) => setTimeout(res, 100));
}

t.test("the engine's first idle spell has every thread collect what starting left; not again while nothing grew", async (t) => {
  const rt = await createEngineRuntime();
  const pool = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl: engineWorkerUrl(), threads: 2, relocateMinBytes: 2 ** 31 });
  t.teardown(() => pool.close());
  // what a start leaves: a young generation a spell of short-lived objects grew, old pages nearly empty
  const kept = fragment();
  await collected(pool, 1);
  t.equal(pool.collections, 1, 'every thread collected once the engine was idle');
  t.ok(pool.heapBytesCompacted > 32 * MiB, `and ${(pool.heapBytesCompacted / MiB).toFixed(0)} MiB of heap given back`);
  t.equal(rt.heap.stats().bytesDiscarded, 0, 'with no page of the engine memory dropped');
  await new Promise((res) => setTimeout(res, 2500));
  t.equal(pool.collections, 1, 'and not again while the heap did not grow');
  t.equal(kept.length, 150_000);
});

t.test("once idle after this thread's heap grew since the last collection, every thread collects and compacts again", async (t) => {
  const rt = await createEngineRuntime();
  const pool = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl: engineWorkerUrl(), threads: 2, relocateMinBytes: 2 ** 31 });
  t.teardown(() => pool.close());
  await collected(pool, 1);
  t.equal(pool.collections, 1, 'the first idle spell collected');
  const compacted = pool.heapBytesCompacted;
  const base = committedHeapBytes();
  const grown = fragment();
  t.ok(committedHeapBytes() - base >= MEMORY.compact.afterGrowthBytes, 'the heap grew past the bound since');
  await collected(pool, 2);
  t.equal(pool.collections, 2, 'every thread collected again once the engine was idle');
  const given = pool.heapBytesCompacted - compacted;
  t.ok(given > 32 * MiB, `and ${(given / MiB).toFixed(0)} MiB of heap given back`);
  t.equal(rt.heap.stats().bytesDiscarded, 0, 'with no page of the engine memory dropped');
  await new Promise((res) => setTimeout(res, 2500));
  t.equal(pool.collections, 2, 'and not again while the heap did not grow');
  t.equal(grown.length, 150_000);
});
