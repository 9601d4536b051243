// Huge pages under large blocks (runtime/memory.ts, MEMORY.hugePagesFrom; the native helper's
// hugePages, native/pages.c): the helper advises only the whole 2 MiB pages inside a range, leaves the
// bytes as they were and refuses bad ranges; the heap advises a block of hugePagesFrom bytes or more
// once when it is allocated (not a kept scratch block taken again, never a smaller one), advises it
// in a relocation's new memory, and takes the advice back from what is freed, shrunk or reclaimed;
// SVC_ENGINE_HUGE_PAGES=0 turns it off.
import fs from 'node:fs';
import t from 'tap';
import { ConfigError, loadConfig } from '../src/config.js';
import { MEMORY } from '../src/engine/params.js';
import { createEngineRuntime, createSharedMemory, WasmHeap } from '../src/engine/runtime/index.js';
import { nativeHelper } from '../src/engine/runtime/native-helper.js';
import type { HugePages } from '../src/engine/runtime/types.js';

const MiB = 2 ** 20;

t.test('the native helper advises the whole huge pages inside a range, and nothing else changes', async (t) => {
  const hugePages = nativeHelper().helper?.hugePages;
  if (process.platform !== 'linux') {
    t.pass(`not on ${process.platform}`);
    return;
  }
  t.ok(hugePages, 'built here');
  const advise = hugePages as HugePages;
  const u8 = new Uint8Array(new WebAssembly.Memory({ initial: 160, maximum: 160, shared: true }).buffer);
  u8.fill(9);
  t.equal(advise(u8, 100, 100 + MiB, true), 0, 'no whole 2 MiB page inside: nothing advised');
  const on = advise(u8, 1, u8.length, true);
  t.ok(on >= 6 * MiB && on <= u8.length && on % (2 * MiB) === 0, `whole 2 MiB pages advised: ${on / MiB} MiB of ${u8.length / MiB}`);
  t.equal(advise(u8, 1, u8.length, false), on, 'and taken back alike');
  t.ok(
    u8.every((b) => b === 9),
    'every byte as it was',
  );
  t.throws(() => advise(u8, 0, u8.length + 1, true), RangeError, 'a range past the view is refused');
  t.throws(
    () => (advise as unknown as (v: unknown, s: number, e: number, o: boolean) => number)([1, 2], 0, 1, true),
    TypeError,
    'a view that is not a Uint8Array is refused',
  );
  const thp = fs.existsSync('/sys/kernel/mm/transparent_hugepage/enabled')
    ? fs.readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8').trim()
    : 'absent';
  t.comment(`transparent huge pages here: ${thp}`);
});

/** A heap whose hugePages only records its calls (the view's memory, the range, on or off). */
function recordingHeap(): { heap: WasmHeap; calls: Array<[ArrayBufferLike, number, number, boolean]> } {
  const calls: Array<[ArrayBufferLike, number, number, boolean]> = [];
  const heap = new WasmHeap(createSharedMemory(), {
    heapBase: 1024,
    hugePages: (view, start, end, on) => {
      calls.push([view.buffer, start, end, on]);
      return end - start;
    },
  });
  return { heap, calls };
}

t.test('a block past the bound is advised once while it lives; what is freed of it is no longer', async (t) => {
  const { heap, calls } = recordingHeap();
  const big = MEMORY.hugePagesFrom;
  const mem = () => heap.memory.buffer;
  const small = heap.allocScratch(big / 4);
  heap.free(heap.alloc(big / 2));
  t.same(calls, [], 'no block under the bound');
  const p = heap.allocScratch(big);
  t.same(calls, [[mem(), p, p + big, true]], 'a scratch block at the bound, over its bytes');
  heap.views.u8At(p, big).fill(3);
  heap.freeScratch(p);
  t.equal(heap.allocScratch(big), p, 'kept and taken again');
  t.equal(calls.length, 1, 'not advised again');
  heap.freeScratch(p);
  heap.freeScratch(small);
  heap.releaseScratch();
  t.same(calls.slice(1), [[mem(), p, p + big, false]], 'freed: the advice taken back, once');
  const q = heap.alloc(2 * big);
  t.same(calls[2], [mem(), q, q + 2 * big, true], 'any block past the bound');
  heap.shrink(q, big);
  t.same(calls[3], [mem(), q + big, q + 2 * big, false], 'its end given back: not advised there');
  const into = heap.relocationTarget();
  t.same(calls[4], [into.buffer, q, q + big, true], "a relocation's new memory advised where the block lies, before it is written");
  heap.retire(q);
  t.same(calls[5], [mem(), q, q + big, false], 'retired and reclaimed: the rest taken back');
  t.equal(calls.length, 6, 'nothing else');
});

t.test('SVC_ENGINE_HUGE_PAGES: 1 (the default) or 0, and an engine runtime started with 0 advises none', async (t) => {
  t.equal(loadConfig({}).engineHugePages, true);
  t.equal(loadConfig({ SVC_ENGINE_HUGE_PAGES: '0' }).engineHugePages, false);
  for (const bad of ['yes', '2', ''])
    t.throws(() => loadConfig({ SVC_ENGINE_HUGE_PAGES: bad }), { name: ConfigError.name, message: /^SVC_ENGINE_HUGE_PAGES=/ }, bad);
  const off = await createEngineRuntime({ hugePages: false });
  t.equal(off.heap.advisesHugePages, false, 'off: none');
  const on = await createEngineRuntime();
  t.equal(on.heap.advisesHugePages, nativeHelper().helper?.hugePages !== undefined, 'by default: wherever the helper has the call');
});
