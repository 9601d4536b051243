// Free pages of the engine's memory given back in place (runtime/page-discard.ts, the native helper
// of native/pages.c; memory.ts discardIdle, MEMORY.discard): the helper is built and works here
// (Linux); a discard drops only whole pages of free ranges, never one a live block touches, so every
// live block keeps its bytes; the pages dropped read as zero (the kernel took them) and leave the
// process's RSS; freeing enough triggers it without a call; memory dropped is allocated and written
// again; the ranges written lose exactly what was taken out; a block's end given back (shrink) is
// dropped with the rest, never the block itself; a large pass goes a slice at a time over turns of
// the event loop; once idle after enough was dropped,
// every thread collects its heap (no move needed), and workers read the memory as before. Without the
// helper nothing is dropped.
import t from 'tap';
import { engineWorkerUrl } from '../src/engine/index.js';
import { MEMORY } from '../src/engine/params.js';
import { createEngineRuntime, createSharedMemory, EnginePool, PAGE_BYTES, scanTopK, WasmHeap } from '../src/engine/runtime/index.js';
import { DISCARD_PAGE_BYTES, pageDiscard } from '../src/engine/runtime/page-discard.js';
import { TouchedRanges } from '../src/engine/runtime/touched.js';
import type { PageDiscard } from '../src/engine/runtime/types.js';
import { randI8, rng } from './helpers/engine.js';

const MiB = 2 ** 20;

/** A heap whose discard only records the ranges it is asked to drop (and counts them all as dropped). */
function countingHeap(): { heap: WasmHeap; calls: Array<[number, number]> } {
  const calls: Array<[number, number]> = [];
  const heap = new WasmHeap(createSharedMemory(), {
    heapBase: 1024,
    discard: (_view, start, end) => {
      calls.push([start, end]);
      return end - start;
    },
  });
  return { heap, calls };
}

t.test('the native helper is built and drops pages here', async (t) => {
  const helper = pageDiscard();
  if (process.platform !== 'linux') {
    t.equal(helper.discard, undefined, `not on ${process.platform}: ${helper.why}`);
    return;
  }
  t.ok(helper.discard, helper.why);
  t.match(helper.why, /in place/);
  const u8 = new Uint8Array(new WebAssembly.Memory({ initial: 2, maximum: 2, shared: true }).buffer);
  u8.fill(5);
  const discard = helper.discard as PageDiscard;
  t.equal(discard(u8, 100, 100 + DISCARD_PAGE_BYTES), 0, 'no whole page inside: nothing dropped');
  t.equal(discard(u8, 1, 3 * DISCARD_PAGE_BYTES + 7), 2 * DISCARD_PAGE_BYTES, 'only the whole pages inside');
  t.ok(
    u8.subarray(DISCARD_PAGE_BYTES, 3 * DISCARD_PAGE_BYTES).every((b) => b === 0),
    'they read as zero',
  );
  t.ok(u8.subarray(0, DISCARD_PAGE_BYTES).every((b) => b === 5) && u8[3 * DISCARD_PAGE_BYTES] === 5, 'the pages around keep their bytes');
  t.throws(() => discard(u8, 10, 5), RangeError, 'end before start');
  t.throws(() => discard(u8, 0, u8.length + 1), RangeError, 'past the view');
  t.throws(() => discard(new Float32Array(4) as unknown as Uint8Array, 0, 4), TypeError, 'not a Uint8Array');
});

t.test('taking a range out of the ranges written leaves exactly the rest', async (t) => {
  const r = rng(11);
  for (let round = 0; round < 200; round++) {
    const ranges = new TouchedRanges();
    const ref = new Uint8Array(8192);
    for (let i = 0; i < 30; i++) {
      const s = Math.floor(r() * 4000);
      const e = s + Math.floor(r() * 200);
      ranges.add(s, e);
      ref.fill(1, s, e);
      if (r() < 0.4) {
        const a = Math.floor(r() * 4000);
        const b = a + Math.floor(r() * 600);
        const taken = ranges.take(a, b);
        const want: Array<[number, number]> = [];
        for (let x = a; x < Math.min(b, ref.length); x++) {
          if (!ref[x]) continue;
          const last = want[want.length - 1];
          if (last && last[1] === x) last[1] = x + 1;
          else want.push([x, x + 1]);
        }
        // pieces of separate ranges may touch (ranges added adjacently merge, taken pieces need not)
        const flat = (xs: Array<[number, number]>) => xs.flatMap(([s, e]) => Array.from({ length: e - s }, (_, k) => s + k));
        if (JSON.stringify(flat(taken)) !== JSON.stringify(flat(want))) t.fail(`round ${round}: took ${JSON.stringify(taken)}`);
        ref.fill(0, a, b);
      }
    }
    if (ranges.bytes !== ref.reduce((n, x) => n + x, 0)) t.fail(`round ${round}: ${ranges.bytes} bytes left`);
  }
  t.pass('200 rounds match a byte map');
});

t.test('a discard drops only whole free pages, never one a live block touches', async (t) => {
  const calls: Array<[number, number]> = [];
  const fake: PageDiscard = (_view, start, end) => {
    calls.push([start, end]);
    return end - start;
  };
  const heap = new WasmHeap(createSharedMemory(), { heapBase: 1024, discard: fake });
  const r = rng(3);
  const live = new Map<number, number>();
  for (let step = 0; step < 3000; step++) {
    if (live.size > 0 && r() < 0.45) {
      const ptrs = [...live.keys()];
      const p = ptrs[Math.floor(r() * ptrs.length)];
      heap.free(p);
      live.delete(p);
    } else {
      const size = 1 + Math.floor(r() * (r() < 0.8 ? 20_000 : 3 * MiB));
      live.set(heap.alloc(size), size);
    }
    if (step % 100 === 99) heap.discardIdle();
    for (const [s, e] of calls.splice(0)) {
      if (s % DISCARD_PAGE_BYTES !== 0 || e % DISCARD_PAGE_BYTES !== 0 || e <= s) t.fail(`step ${step}: [${s}, ${e}) is not whole pages`);
      for (const [p, size] of live) if (p < e && p + size > s) t.fail(`step ${step}: [${s}, ${e}) drops a page of block ${p}`);
    }
  }
  t.ok(heap.stats().bytesDiscarded > 0, `dropped ${heap.stats().bytesDiscarded} bytes over the run`);
});

t.test('pages dropped read as zero and leave the RSS; live blocks keep their bytes; freeing enough drops by itself', async (t) => {
  if (process.platform !== 'linux') {
    t.pass(`not on ${process.platform}: ${pageDiscard().why}`);
    return;
  }
  const { heap } = await createEngineRuntime();
  t.ok(heap.discards, 'the runtime gives pages back in place');
  const r = rng(5);
  const keep: Array<[number, Uint8Array]> = [];
  const big: number[] = [];
  for (let i = 0; i < 8; i++) {
    const small = heap.alloc(1000 + i);
    const bytes = new Uint8Array(randI8(r, 1000 + i).buffer);
    heap.views.write(small, bytes);
    keep.push([small, bytes]);
    const p = heap.alloc(12 * MiB);
    heap.views.u8At(p, 12 * MiB).fill(0xab);
    big.push(p);
  }
  const rssFull = process.memoryUsage.rss();
  const written = heap.idleBytes + heap.bytesInUse;
  t.ok(12 * MiB < MEMORY.discard.minBytes && 24 * MiB >= MEMORY.discard.minBytes, 'the bound lies between one block and two');
  heap.free(big[0]);
  t.equal(heap.stats().bytesDiscarded, 0, 'one freed block: below the bound, kept');
  for (const p of big.slice(1, 6)) heap.free(p);
  const dropped = heap.stats().bytesDiscarded;
  t.ok(dropped >= 5 * 12 * MiB, `freeing past the bound dropped ${dropped / MiB} MiB by itself`);
  t.ok(heap.idleBytes + heap.bytesInUse < written - 5 * 12 * MiB, 'the memory written falls by what was dropped');
  const zero = big
    .slice(0, 6)
    .every((p) => heap.views.u8At(p + DISCARD_PAGE_BYTES, 12 * MiB - 2 * DISCARD_PAGE_BYTES).every((b) => b === 0));
  t.ok(zero, 'the freed blocks read as zero: their pages were taken');
  const rssAfter = process.memoryUsage.rss();
  t.ok(rssFull - rssAfter > 48 * MiB, `the RSS fell by ${((rssFull - rssAfter) / MiB).toFixed(0)} MiB`);
  t.ok(
    keep.every(([p, bytes]) => Buffer.compare(heap.views.u8At(p, bytes.length), bytes) === 0),
    'every live block keeps its bytes',
  );
  t.ok(
    big.slice(6).every((p) => heap.views.u8At(p, 12 * MiB).every((b) => b === 0xab)),
    'and so do the large ones still live',
  );
  const again = heap.alloc(30 * MiB);
  heap.views.u8At(again, 30 * MiB).fill(7);
  t.ok(
    heap.views.u8At(again, 30 * MiB).every((b) => b === 7),
    'memory dropped is allocated and written again',
  );
  t.ok(heap.stats().capacity >= PAGE_BYTES, 'the memory keeps its size');
});

t.test('once idle after pages were dropped, every thread collects; no move, and workers scan as before', async (t) => {
  if (process.platform !== 'linux') {
    t.pass(`not on ${process.platform}: ${pageDiscard().why}`);
    return;
  }
  const rt = await createEngineRuntime();
  const pool = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl: engineWorkerUrl(), threads: 2, relocateMinBytes: 2 ** 31 });
  t.teardown(() => pool.close());
  const r = rng(9);
  const n = 4096;
  const dim = 64;
  const rows = rt.heap.alloc(n * dim);
  const scales = rt.heap.alloc(n * 4);
  const flags = rt.heap.alloc(n);
  rt.heap.views.write(rows, randI8(r, n * dim));
  rt.heap.views.f32At(scales, n).fill(1);
  rt.heap.views.fill(flags, n, 0);
  const query = randI8(r, dim);
  const scan = async () => [...(await scanTopK(pool, { rows, scales, flags, dim, rowStart: 0, rowEnd: n, alpha: 1, query, k: 10 })).ids];
  const want = await scan();
  const big = [rt.heap.alloc(24 * MiB), rt.heap.alloc(24 * MiB)];
  for (const p of big) rt.heap.views.u8At(p, 24 * MiB).fill(1);
  for (const p of big) rt.heap.free(p);
  t.ok(rt.heap.stats().bytesDiscarded >= MEMORY.compact.afterDiscardedBytes, 'the freed blocks were dropped');
  t.equal(pool.collections, 0, 'not while the engine was busy');
  for (let waited = 0; pool.collections === 0 && waited < 8000; waited += 100) await new Promise((res) => setTimeout(res, 100));
  t.equal(pool.collections, 1, 'every thread collected once the engine was idle');
  t.ok(
    Number.isFinite(pool.heapBytesCompacted) && pool.heapBytesCompacted >= 0,
    `their heaps compacted: ${pool.heapBytesCompacted} bytes given back`,
  );
  t.equal(pool.relocations, 0, 'no move');
  t.same(await scan(), want, 'the workers scan the same memory as before');
  await new Promise((res) => setTimeout(res, 2500));
  t.equal(pool.collections, 1, 'and not again while nothing more was dropped');
});

t.test("a block's end given back (shrink) is free, and dropped with the rest", async (t) => {
  const { heap, calls } = countingHeap();
  const p = heap.alloc(8 * MiB);
  const guard = heap.alloc(16);
  heap.shrink(p, 1000);
  t.equal(heap.sizeOf(p), 1008, 'the block keeps what it was cut to (rounded up to 16)');
  t.equal(
    heap.discardIdle(),
    calls.reduce((n, [s, e]) => n + e - s, 0),
  );
  t.ok(
    calls.some(([s, e]) => s <= p + 8 * MiB - MiB && e >= p + DISCARD_PAGE_BYTES),
    'the pages past it were dropped',
  );
  t.ok(
    calls.every(([s]) => s >= p + 1008),
    'none of its own',
  );
  const pin = heap.pin();
  heap.retire(guard);
  t.throws(() => heap.shrink(guard, 16), { code: 'ERR_INVALID_POINTER', message: /retired/ }, 'not a retired block');
  heap.unpin(pin);
  t.throws(() => heap.shrink(p + 16, 16), { code: 'ERR_INVALID_POINTER' }, 'not inside a block');
});

t.test('a pass past MEMORY.discard.sliceBytes drops a slice at once and the rest on later turns of the event loop', async (t) => {
  const { heap, calls } = countingHeap();
  const size = MEMORY.discard.sliceBytes + 64 * MiB;
  const p = heap.alloc(size);
  heap.alloc(16); // a live block above it: the freed one is a free range
  heap.free(p);
  const first = heap.stats().bytesDiscarded;
  t.ok(first >= MEMORY.discard.sliceBytes && first < size - MiB, `a slice at once: ${first / MiB} MiB`);
  for (let turn = 0; turn < 4; turn++) await new Promise((r) => setImmediate(r));
  const all = heap.stats().bytesDiscarded;
  t.ok(all >= size - 2 * DISCARD_PAGE_BYTES, `the rest on the next turns: ${all / MiB} MiB in all`);
  t.ok(
    calls.every(([s, e]) => s >= p && e <= p + size),
    "only the freed block's pages",
  );
  const q = heap.alloc(12 * MiB);
  heap.alloc(16);
  heap.free(q); // below MEMORY.discard.minBytes: nothing dropped by itself
  const before = heap.stats().bytesDiscarded;
  const parts = [heap.discardIdle(4 * MiB), heap.discardIdle(4 * MiB), heap.discardIdle(4 * MiB), heap.discardIdle(4 * MiB)];
  t.same(parts.slice(0, 2), [4 * MiB, 4 * MiB], 'discardIdle stops at its budget');
  t.ok(parts[2] > 4 * MiB - 2 * DISCARD_PAGE_BYTES && parts[2] <= 4 * MiB, 'and goes on where it stopped (the whole pages of the block)');
  t.equal(parts[3], 0, 'until nothing is left');
  t.equal(heap.stats().bytesDiscarded - before, parts[0] + parts[1] + parts[2]);
});

t.test('without the helper nothing is dropped', async (t) => {
  const { heap, givesBack } = await createEngineRuntime({ discard: false });
  t.notOk(heap.discards);
  t.match(givesBack, /off/);
  const p = heap.alloc(40 * MiB);
  heap.views.u8At(p, 40 * MiB).fill(1);
  heap.free(p);
  t.equal(heap.discardIdle(), 0);
  t.equal(heap.stats().bytesDiscarded, 0);
  t.ok(heap.idleBytes >= 40 * MiB, 'the memory written stays written');
});

t.test("a task's scratch is kept live for the next task, past the discard's bound, until the engine is idle", async (t) => {
  if (process.platform !== 'linux') {
    t.pass(`not on ${process.platform}: ${pageDiscard().why}`);
    return;
  }
  const { heap } = await createEngineRuntime();
  const size = 2 * MEMORY.discard.minBytes;
  heap.free(heap.alloc(2 * size)); // room, so that no allocation below needs the memory to grow
  const dropped = heap.stats().bytesDiscarded;
  const a = heap.allocScratch(size);
  heap.views.u8At(a, size).fill(7);
  heap.freeScratch(a);
  t.equal(heap.stats().bytesDiscarded, dropped, 'ended scratch larger than the bound: nothing dropped');
  t.equal(heap.stats().bytesScratchKept, heap.sizeOf(a), 'it is kept live');
  t.equal(heap.allocScratch(size - 4096), a, 'the next task of about its size takes it again');
  t.ok(
    heap.views.u8At(a, size).every((b) => b === 7),
    'with its pages still written',
  );
  heap.freeScratch(a);
  const other = heap.allocScratch(Math.floor(size / (MEMORY.scratch.maxOversize + 1)));
  t.not(other, a, 'a task needing far less takes a block of its own');
  heap.freeScratch(other);
  const avail = heap.bytesAvailable;
  t.equal(avail, heap.maxBytes - heap.bytesInUse + heap.stats().bytesScratchKept, 'kept scratch counts as available');
  const blocks: number[] = [];
  for (let i = 0; i < MEMORY.scratch.keep + 2; i++) blocks.push(heap.allocScratch(1000 * (i + 1)));
  for (const p of blocks) heap.freeScratch(p);
  t.ok(
    !blocks.slice(0, blocks.length - MEMORY.scratch.keep).some((p) => heap.sizeOf(p) !== undefined),
    'at most keep blocks are kept: the oldest are freed',
  );
  heap.discardWhenIdle();
  t.equal(heap.stats().bytesScratchKept, 0, 'idle: every kept block is freed');
  t.ok(heap.stats().bytesDiscarded - dropped >= size - 2 * DISCARD_PAGE_BYTES, 'and its pages dropped');
  t.throws(() => heap.freeScratch(a), /not a live block/, 'ending a block twice is refused');
  const kept = heap.allocScratch(size);
  heap.freeScratch(kept);
  const beyond = heap.alloc(heap.views.byteLength);
  t.equal(heap.stats().bytesScratchKept, 0, 'an allocation that would grow the memory frees the kept scratch first');
  heap.free(beyond);
});

t.test('a pool that never relocates still gives the kept scratch back once idle', async (t) => {
  const rt = await createEngineRuntime();
  const pool = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl: engineWorkerUrl(), threads: 1, relocateMinBytes: 0 });
  t.teardown(() => pool.close());
  rt.heap.freeScratch(rt.heap.allocScratch(MiB));
  t.ok(rt.heap.stats().bytesScratchKept >= MiB, 'kept after the task');
  const deadline = MEMORY.relocate.idleMs + 3 * MEMORY.relocate.checkMs;
  for (let waited = 0; rt.heap.stats().bytesScratchKept > 0 && waited < deadline; waited += 100)
    await new Promise((res) => setTimeout(res, 100));
  t.equal(rt.heap.stats().bytesScratchKept, 0, 'freed once the engine was idle');
  t.equal(pool.relocations, 0, 'and nothing moved');
});
