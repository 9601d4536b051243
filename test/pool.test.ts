// The worker pool: scans in workers over shared memory written by the main
// thread (also after growth), typed errors across threads, saturation, the
// foreground lane ahead of queued background tasks,
// deferred reclamation while a task is in flight, and draining close().

import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { queueOptionsSymbol } from 'piscina';
import t from 'tap';
import { engineWorkerUrl } from '../src/engine/index.js';
import {
  createEngineRuntime,
  EnginePool,
  KernelBoundsError,
  LaneQueue,
  PoolBrokenError,
  PoolBusyError,
  PoolClosedError,
  type ScanResult,
  scanTopK,
  UnknownOpError,
} from '../src/engine/runtime/index.js';
import { randI8, rejectsTyped, rng } from './helpers/engine.js';

const rt = await createEngineRuntime();
const pool = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl: engineWorkerUrl(), threads: 2 });
t.teardown(() => pool.close());

interface Matrix {
  rows: number;
  scales: number;
  flags: number;
  data: Int8Array;
  dead: Uint8Array;
  n: number;
  dim: number;
}

function makeMatrix(seed: number, n: number, dim: number): Matrix {
  const r = rng(seed);
  const data = randI8(r, n * dim),
    dead = Uint8Array.from({ length: n }, () => (r() < 0.1 ? 1 : 0));
  const rows = rt.heap.alloc(n * dim),
    scales = rt.heap.alloc(n * 4),
    flags = rt.heap.alloc(n);
  rt.heap.views.write(rows, data);
  rt.heap.views.f32At(scales, n).fill(1);
  rt.heap.views.write(flags, dead);
  return { rows, scales, flags, data, dead, n, dim };
}

function refScan(m: Matrix, q: Int8Array, start: number, end: number, k: number, alpha: number): { ids: number[]; scores: number[] } {
  const all: [number, number][] = [];
  for (let i = start; i < end; i++) {
    if (m.dead[i]) continue;
    let s = 0;
    for (let j = 0; j < m.dim; j++) s += m.data[i * m.dim + j] * q[j];
    all.push([alpha * s, i]);
  }
  all.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const top = all.slice(0, k);
  return { ids: top.map((x) => x[1]), scores: top.map((x) => x[0]) };
}

const scanOf = (m: Matrix, q: Int8Array, rowStart: number, rowEnd: number, k: number, alpha = 0.5): Promise<ScanResult> =>
  scanTopK(pool, { rows: m.rows, dim: m.dim, rowStart, rowEnd, scales: m.scales, flags: m.flags, query: q, k, alpha });

t.test('worker file follows the source extension', async (t) => {
  t.match(engineWorkerUrl().pathname, /\/src\/engine\/worker\.ts$/, 'worker.ts under TypeScript sources');
});

t.test('scan in a worker over rows written by the main thread', async (t) => {
  const m = makeMatrix(21, 10_000, 100);
  const q = randI8(rng(22), 100);
  for (const [start, end, k] of [
    [0, 10_000, 10],
    [1234, 9001, 37],
    [4096, 4097, 5],
    [500, 500, 3],
    [0, 10_000, 0],
  ]) {
    const got = await scanOf(m, q, start, end, k);
    const want = refScan(m, q, start, end, k, 0.5);
    t.same([...got.ids], want.ids, `rows [${start}, ${end}) k ${k}: ids`);
    t.same([...got.scores], want.scores, `rows [${start}, ${end}) k ${k}: scores`);
  }
  const results = await Promise.all([0, 1, 2, 3].map((i) => scanOf(m, q, i * 2500, (i + 1) * 2500, 8)));
  t.same(
    results.map((r) => [...r.ids]),
    [0, 1, 2, 3].map((i) => refScan(m, q, i * 2500, (i + 1) * 2500, 8, 0.5).ids),
    'concurrent scans on both workers',
  );
});

t.test('workers see memory grown after they started', async (t) => {
  const before = rt.memory.buffer.byteLength;
  const m = makeMatrix(23, 200_000, 200);
  t.ok(rt.memory.buffer.byteLength > before, `memory grew from ${before} to ${rt.memory.buffer.byteLength} bytes`);
  t.ok(m.rows + m.n * m.dim > before, 'matrix lies beyond the size the workers started with');
  const q = randI8(rng(24), 200);
  const got = await scanOf(m, q, 150_000, 200_000, 10, 1);
  t.same([...got.ids], refScan(m, q, 150_000, 200_000, 10, 1).ids, 'scan of the grown region is exact');
});

t.test('errors from workers keep their class and code', async (t) => {
  await rejectsTyped(t, pool.run('nope', {}), UnknownOpError, 'ERR_UNKNOWN_OP', 'unknown op');
  const end = rt.memory.buffer.byteLength;
  await rejectsTyped(
    t,
    pool.run('scan', { rows: end, dim: 16, rowStart: 0, rowEnd: 4, scales: 1024, q: 1024, k: 1, scratch: 1024 }),
    KernelBoundsError,
    'ERR_KERNEL_BOUNDS',
    'scan past the end of memory',
  );
});

t.test('a saturated pool answers PoolBusyError at once and recovers', async (t) => {
  const small = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl: engineWorkerUrl(), threads: 1, maxQueue: 1 });
  const m = makeMatrix(25, 20_000, 64);
  const q = randI8(rng(26), 64);
  const args = (qp: number, scratch: number) => ({
    rows: m.rows,
    dim: 64,
    rowStart: 0,
    rowEnd: 20_000,
    scales: m.scales,
    q: qp,
    k: 4,
    scratch,
  });
  const qp = rt.heap.alloc(64),
    s1 = rt.heap.alloc(32768),
    s2 = rt.heap.alloc(32768),
    s3 = rt.heap.alloc(32768);
  rt.heap.views.write(qp, q);
  const a = small.run<ScanResult>('scan', args(qp, s1)),
    b = small.run<ScanResult>('scan', args(qp, s2));
  t.equal(small.pending, 2, 'one running and one queued');
  await rejectsTyped(t, small.run('scan', args(qp, s3)), PoolBusyError, 'ERR_POOL_BUSY', 'third task while saturated');
  const want = refScan({ ...m, dead: new Uint8Array(m.n) }, q, 0, 20_000, 4, 1).ids;
  t.same([...(await a).ids], want, 'running task completes');
  t.same([...(await b).ids], want, 'queued task completes');
  t.same([...(await small.run<ScanResult>('scan', args(qp, s3))).ids], want, 'accepts work again once drained');
  await small.close();
  await rejectsTyped(t, small.run('scan', args(qp, s3)), PoolClosedError, 'ERR_POOL_CLOSED', 'run after close');
});

t.test('the lane queue: foreground first, each lane in order, back to the front when not run', async (t) => {
  const q = new LaneQueue();
  const task = (name: string, background: boolean) => ({ name, [queueOptionsSymbol]: { background } });
  const [b1, b2, f1, f2, b3] = [task('b1', true), task('b2', true), task('f1', false), task('f2', false), task('b3', true)];
  for (const x of [b1, b2, f1, f2, b3]) q.push(x);
  t.equal(q.size, 5);
  q.remove(b2);
  const first = q.shift();
  t.equal(first, f1, 'a foreground task first');
  q.unshift(first!);
  const names: string[] = [];
  for (let x = q.shift(); x; x = q.shift()) names.push((x as unknown as { name: string }).name);
  t.same(names, ['f1', 'f2', 'b1', 'b3'], 'f1 back in front; b2 removed');
  t.equal(q.size, 0);
  t.equal(q.shift(), null);
});

t.test('a foreground task waits behind no queued background task', async (t) => {
  const one = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl: engineWorkerUrl(), threads: 1, maxQueue: 8 });
  const m = makeMatrix(31, 20_000, 64);
  const q = randI8(rng(32), 64);
  const qp = rt.heap.alloc(64);
  rt.heap.views.write(qp, q);
  const scratch = [0, 1, 2, 3, 4].map(() => rt.heap.alloc(32768));
  const args = (s: number) => ({ rows: m.rows, dim: 64, rowStart: 0, rowEnd: 20_000, scales: m.scales, q: qp, k: 4, scratch: scratch[s] });
  await one.run('scan', args(4)); // the worker is up: the first background task starts at once
  const order: string[] = [];
  const send = (name: string, s: number, background: boolean) => one.run('scan', args(s), { background }).then(() => order.push(name));
  await Promise.all([send('bg1', 0, true), send('bg2', 1, true), send('bg3', 2, true), send('fg', 3, false)]);
  t.same(order, ['bg1', 'fg', 'bg2', 'bg3'], 'the search goes next; background tasks keep their order');
  await one.close();
});

t.test('a block retired during a task is reclaimed only after it', async (t) => {
  const m = makeMatrix(27, 50_000, 128);
  const q = randI8(rng(28), 128);
  const size = rt.heap.sizeOf(m.rows);
  const running = scanOf(m, q, 0, 50_000, 10, 1);
  rt.heap.retire(m.rows);
  t.equal(rt.heap.sizeOf(m.rows), size, 'rows still allocated while the scan runs');
  const other = rt.heap.alloc(m.n * m.dim);
  t.not(other, m.rows, 'rows block not handed out again while pinned');
  rt.heap.views.u8At(other, m.n * m.dim).fill(0x7f);
  const got = await running;
  t.same([...got.ids], refScan(m, q, 0, 50_000, 10, 1).ids, 'scan result unaffected');
  t.equal(rt.heap.sizeOf(m.rows), undefined, 'rows reclaimed after the scan finished');
  t.equal(rt.heap.stats().outstandingPins, 0, 'no pins left');
});

t.test('close() drains in-flight tasks', async (t) => {
  const p2 = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl: engineWorkerUrl(), threads: 1, maxQueue: 8 });
  const m = makeMatrix(29, 5000, 32);
  const q = randI8(rng(30), 32);
  const tasks = [0, 1, 2, 3].map(() =>
    scanTopK(p2, { rows: m.rows, dim: 32, rowStart: 0, rowEnd: 5000, scales: m.scales, query: q, k: 3 }),
  );
  const closed = p2.close();
  const done = await Promise.allSettled(tasks);
  await closed;
  t.ok(
    done.every((d) => d.status === 'fulfilled'),
    'every task dispatched before close() completed',
  );
  t.equal(p2.pending, 0, 'nothing in flight after close');
});

t.test('a pool whose workers cannot start fails tasks instead of hanging', async (t) => {
  const dir = t.testdir();
  writeFileSync(`${dir}/bad-worker.mjs`, "throw new Error('worker cannot load');\n");
  const seen: Error[] = [];
  const bad = new EnginePool({
    module: rt.module,
    heap: rt.heap,
    threads: 1,
    workerUrl: pathToFileURL(`${dir}/bad-worker.mjs`),
    onWorkerError: (e) => seen.push(e),
  });
  const first = await Promise.allSettled([bad.run('scan', {}), bad.run('scan', {})]);
  t.ok(
    first.every((r) => r.status === 'rejected'),
    'tasks dispatched during start-up reject',
  );
  await rejectsTyped(t, bad.run('scan', {}), PoolBrokenError, 'ERR_POOL_BROKEN', 'later task');
  t.ok(
    seen.some((e) => /worker cannot load/.test(e.message)),
    'start-up error reported through onWorkerError',
  );
  t.equal(rt.heap.stats().outstandingPins, 0, 'no pins leaked');
  await bad.close();
});
