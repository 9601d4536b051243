// Allocator properties: alignment, no overlap, reuse and coalescing, growth with
// refreshed views, out-of-memory without corruption, deferred reclamation.

import t from 'tap';
import {
  AllocSizeError,
  createEngineRuntime,
  createSharedMemory,
  InvalidPointerError,
  MAX_MEMORY_BYTES,
  PAGE_BYTES,
  WasmHeap,
  WasmOutOfMemoryError,
} from '../src/engine/runtime/index.js';
import { rng, throwsTyped } from './helpers/engine.js';

const newHeap = (maxBytes?: number): WasmHeap => new WasmHeap(createSharedMemory(), { heapBase: 1024, maxBytes });

t.test('blocks are aligned, above the heap base, disjoint and keep their contents', async (t) => {
  const rt = await createEngineRuntime();
  const heap = rt.heap;
  const r = rng(11);
  const live = new Map<number, { size: number; tag: number }>();
  let tag = 1;
  for (let step = 0; step < 3000; step++) {
    if (live.size > 0 && r() < 0.45) {
      const keys = [...live.keys()];
      const p = keys[Math.floor(r() * keys.length)];
      heap.free(p);
      live.delete(p);
    } else {
      const size = r() < 0.1 ? 0 : Math.floor(r() * (r() < 0.9 ? 300 : 40000));
      const p = heap.alloc(size);
      if (p % 16 !== 0 || p < rt.kernels.heapBase) t.fail(`bad block ${p}`);
      const tg = tag++ & 0xff;
      heap.views.u8At(p, size).fill(tg);
      live.set(p, { size, tag: tg });
    }
  }
  const spans = [...live].map(([p, b]) => [p, p + Math.max(b.size, 1)]).sort((a, b) => a[0] - b[0]);
  t.ok(
    spans.every((s, i) => i === 0 || spans[i - 1][1] <= s[0]),
    'live blocks never overlap',
  );
  t.ok(
    [...live].every(([p, b]) => heap.views.u8At(p, b.size).every((x) => x === b.tag)),
    'every block kept its bytes',
  );
  t.equal(heap.stats().liveBlocks, live.size, 'live block count');
  for (const p of live.keys()) heap.free(p);
  t.equal(heap.bytesInUse, 0, 'all freed: nothing in use');
  t.equal(heap.stats().top, 1024, 'all freed: bump pointer back at the heap base');
});

t.test('freed space is reused and coalesced', async (t) => {
  const heap = newHeap();
  const a = heap.alloc(1000),
    b = heap.alloc(1000),
    c = heap.alloc(1000),
    guard = heap.alloc(16);
  t.equal(heap.sizeOf(a), 1008, 'size rounded up to 16');
  heap.free(b);
  t.equal(heap.alloc(1000), b, 'same-size block reuses the hole');
  heap.free(a);
  heap.free(b);
  t.equal(heap.stats().bytesFree, 2016, 'adjacent holes merge');
  t.equal(heap.alloc(2000), a, 'merged hole serves a larger block');
  const inUse = heap.bytesInUse;
  heap.free(guard);
  heap.free(c);
  t.equal(heap.bytesInUse, inUse - 1008 - 16, 'bytes in use drop on free');
  t.equal(heap.stats().top, a + 2000, 'freeing the last blocks lowers the bump pointer past merged holes');
  const p = heap.alloc(64);
  heap.views.u8At(p, 64).fill(0xff);
  heap.free(p);
  t.ok(
    heap.views.u8At(heap.alloc(64, { zero: true }), 64).every((x) => x === 0),
    'zero option clears reused memory',
  );
});

t.test('memory grows on demand and views follow it', async (t) => {
  const heap = newHeap();
  const before = heap.memory.buffer.byteLength;
  const oldView = heap.views.u8;
  const p = heap.alloc(20 * PAGE_BYTES + 3);
  t.ok(heap.memory.buffer.byteLength >= p + 20 * PAGE_BYTES + 3, 'memory grew to hold the block');
  t.ok(heap.memory.buffer.byteLength > before, 'capacity increased');
  t.equal(heap.views.byteLength, heap.memory.buffer.byteLength, 'views report the new size');
  t.equal(oldView.length, before, 'an old view keeps the old length (why views must be re-read)');
  heap.views.u8At(p, 20 * PAGE_BYTES + 3).fill(3);
  t.equal(heap.views.u8[p + 20 * PAGE_BYTES + 2], 3, 'last byte writable through refreshed views');
  t.equal(heap.stats().capacity, heap.memory.buffer.byteLength, 'stats report capacity');
});

t.test('out of memory raises a typed error and leaves the heap intact', async (t) => {
  const heap = newHeap(4 * 1024 * 1024);
  const keep = heap.alloc(1000);
  heap.views.u8At(keep, 1000).fill(9);
  const before = heap.stats();
  throwsTyped(t, () => heap.alloc(8 * 1024 * 1024), WasmOutOfMemoryError, 'ERR_WASM_OOM', 'alloc above maxBytes');
  t.same(heap.stats(), before, 'bookkeeping unchanged after OOM');
  t.ok(
    heap.views.u8At(keep, 1000).every((x) => x === 9),
    'existing block untouched',
  );
  t.ok(heap.alloc(1024 * 1024) > keep, 'smaller allocations still succeed');
  const big = newHeap();
  const initial = big.memory.buffer.byteLength;
  throwsTyped(t, () => big.alloc(MAX_MEMORY_BYTES), WasmOutOfMemoryError, 'ERR_WASM_OOM', 'alloc of 4 GiB');
  t.equal(big.memory.buffer.byteLength, initial, 'a refused request does not grow the memory');
  const huge = big.alloc(3.5 * 1024 ** 3);
  t.ok(huge > 0, '3.5 GiB block fits under the 4 GiB limit');
  throwsTyped(t, () => big.alloc(1024 ** 3), WasmOutOfMemoryError, 'ERR_WASM_OOM', 'no room for 1 GiB more');
  big.free(huge);
  t.ok(big.alloc(1024 ** 3) >= 1024, 'freed space is available again');
});

t.test('bad sizes and pointers raise typed errors', async (t) => {
  const heap = newHeap();
  for (const bad of [-1, 1.5, NaN, Infinity]) throwsTyped(t, () => heap.alloc(bad), AllocSizeError, 'ERR_ALLOC_SIZE', `alloc(${bad})`);
  const p = heap.alloc(32);
  heap.free(p);
  throwsTyped(t, () => heap.free(p), InvalidPointerError, 'ERR_INVALID_POINTER', 'double free');
  throwsTyped(t, () => heap.free(12345), InvalidPointerError, 'ERR_INVALID_POINTER', 'free of a non-block');
  const q = heap.alloc(32);
  const pin = heap.pin();
  heap.retire(q);
  throwsTyped(t, () => heap.retire(q), InvalidPointerError, 'ERR_INVALID_POINTER', 'double retire');
  throwsTyped(t, () => heap.free(q), InvalidPointerError, 'ERR_INVALID_POINTER', 'free after retire');
  heap.unpin(pin);
  t.throws(() => heap.unpin(pin), /released twice/, 'double unpin');
});

t.test('retired blocks outlive every task pinned before the retire', async (t) => {
  const heap = newHeap();
  const x = heap.alloc(4096),
    y = heap.alloc(4096);
  heap.alloc(16);
  const early = heap.pin();
  heap.retire(x);
  const late = heap.pin();
  heap.retire(y);
  t.equal(heap.stats().retiredBlocks, 2, 'both retired blocks pending');
  t.equal(heap.stats().bytesRetired, 8192, 'retired bytes reported');
  const other = heap.alloc(4096);
  t.not(other, x, 'a pending block is not handed out again');
  t.not(other, y, 'a pending block is not handed out again');
  const unrelated = heap.pin();
  heap.unpin(unrelated);
  t.equal(heap.sizeOf(x), 4096, 'x still live: a task pinned before its retire is running');
  heap.unpin(early);
  t.equal(heap.sizeOf(x), undefined, 'x reclaimed once the early task finished');
  t.equal(heap.sizeOf(y), 4096, 'y still live: the late task was pinned before y was retired');
  heap.unpin(late);
  t.equal(heap.sizeOf(y), undefined, 'y reclaimed after the late task');
  t.equal(heap.stats().retiredBlocks, 0, 'nothing pending');
  t.equal(heap.alloc(4096), x, 'reclaimed space is reused');
  const z = heap.alloc(64);
  heap.retire(z);
  t.equal(heap.sizeOf(z), undefined, 'with no task pinned, retire frees at once');
  const p = heap.pin();
  const w = heap.alloc(64);
  heap.unpin(p);
  heap.retire(w);
  t.equal(heap.sizeOf(w), undefined, 'tasks that finished before the retire do not delay it');
});
