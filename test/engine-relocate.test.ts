// The engine memory's relocation (runtime/memory.ts relocate, runtime/pool.ts): the live blocks
// move, at the same addresses and byte for byte, into a fresh memory that spans only up to the
// highest; workers follow the heap's generation, so a scan after the move reads what the main thread
// wrote before and after it; a relocation waits for no task in flight, has every worker collect its
// heap before it writes the new memory, and is given up if a task comes meanwhile (the next then
// waits for a longer idle time, up to a bound, until a move is made), as it is when the process
// could not hold both memories under its memory bound; the ranges written, which decide whether
// one is worth its copy, are the union of what was allocated.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { engineWorkerUrl } from '../src/engine/index.js';
import { MEMORY } from '../src/engine/params.js';
import {
  collectGarbage,
  createEngineRuntime,
  createSharedMemory,
  EnginePool,
  InvalidPointerError,
  PAGE_BYTES,
  relocationWorthIt,
  scanTopK,
  WasmHeap,
} from '../src/engine/runtime/index.js';
import { TouchedRanges } from '../src/engine/runtime/touched.js';
import { memoryLimitBytes } from '../src/memory-limit.js';
import { randI8, rng, throwsTyped } from './helpers/engine.js';

t.test('the ranges written are the union of the ranges added', async (t) => {
  const r = rng(5);
  for (let round = 0; round < 20; round++) {
    const ranges = new TouchedRanges();
    const bits = new Uint8Array(4096);
    for (let i = 0; i < 60; i++) {
      const s = Math.floor(r() * 4000);
      const e = s + Math.floor(r() * (r() < 0.8 ? 40 : 400));
      ranges.add(s, Math.min(e, 4096));
      bits.fill(1, s, Math.min(e, 4096));
      const want = bits.reduce((n, b) => n + b, 0);
      if (ranges.bytes !== want) t.fail(`round ${round}, step ${i}: ${ranges.bytes} bytes, the union has ${want}`);
    }
  }
  t.pass('every step of 20 random rounds');
});

t.test('a move is worth its copy past both bounds: the bytes given back and their share of what was written', async (t) => {
  const { minFreeShare, maxCopyBytes } = MEMORY.relocate;
  const MiB = 2 ** 20;
  const min = 32 * MiB;
  // a large store after its idle merge: about a quarter of what was written is idle
  t.ok(relocationWorthIt(350 * MiB, 1130 * MiB, min), 'about a quarter of 1.5 GB idle');
  t.ok(relocationWorthIt(92 * MiB, 66 * MiB, min), 'the wiki-pool after its ingest');
  t.notOk(relocationWorthIt(31 * MiB, 1 * MiB, min), 'under the bytes bound, whatever the share');
  t.notOk(relocationWorthIt(100 * MiB, 1000 * MiB, min), 'under the share bound, whatever the bytes');
  const atShare = (minFreeShare / (1 - minFreeShare)) * 1000 * MiB;
  t.ok(relocationWorthIt(atShare + MiB, 1000 * MiB, min), 'just past the share');
  t.notOk(relocationWorthIt(atShare - MiB, 1000 * MiB, min), 'just short of it');
  t.notOk(relocationWorthIt(maxCopyBytes, maxCopyBytes + 1, min), 'live blocks too large to copy with the engine stopped');
  t.notOk(relocationWorthIt(0, 0, 0), 'nothing idle');
});

t.test('relocate keeps every live block, at its address, in a memory that ends at the highest', async (t) => {
  const heap = new WasmHeap(createSharedMemory(), { heapBase: 1024 });
  heap.views.u8At(0, 1024).fill(9); // the module's static data
  const r = rng(7);
  const live = new Map<number, Uint8Array>();
  const all: number[] = [];
  for (let i = 0; i < 400; i++) {
    const size = 1 + Math.floor(r() * (r() < 0.9 ? 2000 : 200_000));
    const p = heap.alloc(size);
    const bytes = randI8(r, size);
    heap.views.write(p, bytes);
    live.set(p, new Uint8Array(bytes.buffer));
    all.push(p);
  }
  for (const p of all) {
    if (r() < 0.6) {
      heap.free(p);
      live.delete(p);
    }
  }
  const highest = heap.alloc(PAGE_BYTES * 300); // grows the memory past what stays
  heap.free(highest);
  const before = heap.memory;
  const written = heap.idleBytes + heap.bytesInUse;
  t.ok(heap.idleBytes > 0, 'freed blocks were written in');
  const next = heap.relocate();
  t.not(next, before, 'a fresh memory');
  t.equal(heap.memory, next);
  t.equal(heap.generation, 1);
  const spans = () => Math.max(16, Math.ceil(heap.stats().top / PAGE_BYTES)) * PAGE_BYTES;
  t.equal(next.buffer.byteLength, spans(), 'it spans up to the highest live block');
  t.ok(next.buffer.byteLength < before.buffer.byteLength, `smaller: ${next.buffer.byteLength} < ${before.buffer.byteLength} bytes`);
  t.equal(heap.idleBytes, 0, 'nothing written in it but the live blocks');
  t.ok(written > heap.bytesInUse);
  let same = 0;
  for (const [p, bytes] of live) if (Buffer.compare(heap.views.u8At(p, bytes.length), bytes) === 0) same++;
  t.equal(same, live.size, 'every live block holds its bytes');
  t.ok(
    heap.views.u8At(0, 1024).every((b) => b === 9),
    'and the static data below the heap base',
  );
  const more = heap.alloc(PAGE_BYTES * 4);
  heap.views.u8At(more, PAGE_BYTES * 4).fill(3);
  t.equal(new Uint8Array(next.buffer)[more], 3, 'the views follow the new memory as it grows');
  const pin = heap.pin();
  throwsTyped(t, () => heap.relocate(), InvalidPointerError, 'ERR_INVALID_POINTER', 'refused while a task is pinned');
  heap.unpin(pin);
  heap.retire(more);
  const again = heap.relocate();
  t.equal(heap.generation, 2);
  t.equal(again.buffer.byteLength, spans(), 'a retired block, reclaimed, is not copied');
});

t.test('workers scan the relocated memory, what was written before and after the move, and a move given up changes nothing', async (t) => {
  const rt = await createEngineRuntime();
  const pool = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl: engineWorkerUrl(), threads: 2 });
  t.teardown(() => pool.close());
  const r = rng(31);
  const n = 20_000;
  const dim = 64;
  const matrix = () => {
    const data = randI8(r, n * dim);
    const rows = rt.heap.alloc(n * dim);
    const scales = rt.heap.alloc(n * 4);
    const flags = rt.heap.alloc(n);
    rt.heap.views.write(rows, data);
    rt.heap.views.f32At(scales, n).fill(1);
    rt.heap.views.fill(flags, n, 0);
    return { rows, scales, flags, dim, rowStart: 0, rowEnd: n, alpha: 1 };
  };
  const kept = matrix();
  const dropped = matrix();
  const q = randI8(r, dim);
  const scan = (m: typeof kept) => scanTopK(pool, { ...m, query: q, k: 10 });
  const both = async (m: typeof kept) => (await Promise.all([scan(m), scan(m)])).map((x) => [...x.ids]);
  const want = await both(kept);
  await both(dropped);
  for (const p of [dropped.rows, dropped.scales, dropped.flags]) rt.heap.free(p);
  const old = rt.heap.memory;
  const busy = scan(kept);
  t.equal(await pool.relocate(), false, 'not while a task is in flight');
  await busy;
  t.equal(await pool.relocate(), true, 'relocated once idle');
  t.equal(pool.relocations, 1);
  t.not(rt.heap.memory, old);
  t.ok(rt.heap.memory.buffer.byteLength < old.buffer.byteLength, 'the dropped matrix is no longer spanned');
  t.same(await both(kept), want, 'both workers scan the moved rows alike');
  const later = matrix();
  const reference = await both(later);
  t.equal(reference[0].length, 10);
  t.same(reference[1], reference[0], 'rows written after the move are seen by every worker');
  t.equal(await pool.relocate(), true);
  t.same(await both(later), reference, 'and after a second move');
  t.same(await both(kept), want);

  // a move given up while the threads collect, or while its new pages are written (a task came), changes nothing
  const bigBytes = 24 * 2 ** 20; // three slices of new pages: the move yields between them
  const big = rt.heap.alloc(bigBytes);
  rt.heap.views.fill(big, bigBytes, 7);
  const [memory, generation, moves] = [rt.heap.memory, rt.heap.generation, pool.relocations];
  // a task that stays in flight until released: an adopt waiting at its barrier for a second worker
  const hold = () => {
    const barrier = new Int32Array(new SharedArrayBuffer(4));
    const done = pool.run('adopt', { barrier: barrier.buffer, workers: 2, waitMs: 30_000 }, { background: true });
    return async () => {
      Atomics.add(barrier, 0, 1);
      Atomics.notify(barrier, 0);
      await done;
    };
  };
  const collecting = pool.relocate();
  t.equal(pool.pending, 2, 'every worker collects its heap before the new pages are written');
  const release = hold();
  t.equal(await collecting, false, 'given up: a task came while the threads collected');
  await release();
  t.equal(rt.heap.memory, memory);
  const { idleMs, maxIdleMs } = MEMORY.relocate;
  t.equal(pool.relocationIdleMs, 2 * idleMs, 'a move given up doubles the idle time the next one waits for');
  const moving = pool.relocate();
  // the collections done (their tasks settled), the move writes its new pages, yielding between slices
  while (pool.pending > 0) await new Promise((r) => setImmediate(r));
  const releaseAgain = hold();
  const meanwhile = scan(kept);
  t.equal(await moving, false, 'given up: a task came while the pages were written');
  await releaseAgain();
  t.equal(pool.relocationIdleMs, 4 * idleMs);
  const during = await meanwhile;
  t.equal(rt.heap.memory, memory);
  t.equal(rt.heap.generation, generation);
  t.equal(pool.relocations, moves);
  t.same([...during.ids], want[0], 'the task that came meanwhile scanned the memory as it was');
  t.same(await both(kept), want);
  t.same(await both(later), reference);
  t.equal(rt.heap.views.u8[big + bigBytes - 1], 7, 'a block written before stays');
  for (let i = 0; i < Math.log2(maxIdleMs / idleMs); i++) {
    const again = pool.relocate();
    const releaseOnce = hold();
    t.equal(await again, false);
    await releaseOnce();
  }
  t.equal(pool.relocationIdleMs, maxIdleMs, 'up to maxIdleMs');
  t.equal(await pool.relocate(), true, 'a later move goes ahead');
  t.equal(pool.relocationIdleMs, idleMs, 'and the idle time is back to idleMs');
  t.same(await both(kept), want);
  t.equal(rt.heap.views.u8[big + bigBytes / 2], 7);
});

t.test('a move that would not fit under the memory bound with both memories is given up', async (t) => {
  const rt = await createEngineRuntime();
  // far more than a thread's heap can give back while the move collects (a worker's young generation alone may be 64 MB), so the bound below holds
  const liveBytes = 160 * 2 ** 20;
  const live = rt.heap.alloc(liveBytes);
  rt.heap.views.fill(live, liveBytes, 3);
  const room = (bytes: number) =>
    new EnginePool({ module: rt.module, heap: rt.heap, workerUrl: engineWorkerUrl(), threads: 1, memoryLimitBytes: bytes });
  // the bound leaves room for what the process holds (its garbage collected first, as a move does), but not for the live blocks' copy beside it
  collectGarbage();
  const tight = room((process.memoryUsage.rss() + 2 ** 20) / MEMORY.relocate.maxPeakShare);
  const memory = rt.heap.memory;
  t.equal(await tight.relocate(), false, 'given up');
  t.equal(rt.heap.memory, memory, 'the memory stays');
  t.equal(tight.relocations, 0);
  t.equal(tight.relocationIdleMs, 2 * MEMORY.relocate.idleMs, 'and the next one waits longer, as for any move given up');
  await tight.close();
  const roomy = room(64 * 2 ** 30);
  t.teardown(() => roomy.close());
  t.equal(await roomy.relocate(), true, 'with room for both, the move goes ahead');
  t.equal(rt.heap.views.u8[live + liveBytes - 1], 3, 'and keeps the live blocks');
});

t.test('the memory bound: the machine, or a lower control-group limit', async (t) => {
  const bound = memoryLimitBytes();
  t.ok(bound > 0 && bound <= os.totalmem(), `this process: at most the machine's memory (${bound} B)`);
  const GiB = 2 ** 30;
  /** A fake /proc and /sys: `cgroup` is /proc/self/cgroup's text, `files` the limit files under sys/fs/cgroup. */
  const tree = (cgroup: string, files: Record<string, string>) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cgroup-'));
    t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
    fs.mkdirSync(path.join(root, 'proc/self'), { recursive: true });
    fs.writeFileSync(path.join(root, 'proc/self/cgroup'), cgroup);
    for (const [f, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, 'sys/fs/cgroup', f)), { recursive: true });
      fs.writeFileSync(path.join(root, 'sys/fs/cgroup', f), text);
    }
    return root;
  };
  const v2 = tree('0::/app/svc\n', { 'app/svc/memory.max': 'max\n', 'app/memory.max': `${3 * GiB}\n` });
  t.equal(memoryLimitBytes(v2, 16 * GiB), 3 * GiB, "cgroup v2: a parent's limit bounds its child ('max' is none)");
  t.equal(memoryLimitBytes(v2, 2 * GiB), 2 * GiB, '... and the machine bounds both');
  const v2root = tree('0::/\n', { 'memory.max': `${5 * GiB}\n` });
  t.equal(memoryLimitBytes(v2root, 16 * GiB), 5 * GiB, "cgroup v2 in a container: the mount's root");
  const v1 = tree('4:memory:/job\n1:cpu,cpuacct:/job\n', {
    'memory/job/memory.limit_in_bytes': `${4 * GiB}\n`,
    'memory/memory.limit_in_bytes': '9223372036854771712\n',
  });
  t.equal(memoryLimitBytes(v1, 16 * GiB), 4 * GiB, 'cgroup v1: the memory hierarchy');
  t.equal(memoryLimitBytes(tree('', {}), 16 * GiB), 16 * GiB, 'no control group: the machine');
  t.equal(memoryLimitBytes(path.join(os.tmpdir(), 'svc-no-such-root'), 16 * GiB), 16 * GiB, 'nothing readable: the machine');
});
