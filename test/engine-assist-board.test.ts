// The board a task spreads its work over (runtime/assist.ts), with real pool workers
// (helpers/assist-worker.ts): an idle worker joins a job and every unit runs exactly once; two
// tasks spreading at once both finish, whatever each worker is doing; a pool of one thread runs
// every unit itself; a unit failing in a helper fails the task that spread it, and the board is
// free for the next.
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { createEngineRuntime, EnginePool, TaskFailedError } from '../src/engine/runtime/index.js';
import { rejectsTyped } from './helpers/engine.js';

const workerUrl = pathToFileURL(new URL('./helpers/assist-worker.ts', import.meta.url).pathname);
const rt = await createEngineRuntime();

/** Runs a probe job of n units; returns the lane that ran each (1: the owner, 2: a helper; 0: none). */
async function probe(pool: EnginePool, n: number, sleepMs: number, failLane?: number): Promise<number[]> {
  const ptr = rt.heap.alloc(4 * n);
  try {
    rt.heap.views.u32At(ptr, n).fill(0);
    await pool.run('probe', { n, ptr, sleepMs, failLane });
    return [...rt.heap.views.u32At(ptr, n)];
  } finally {
    rt.heap.free(ptr);
  }
}

t.test('an idle worker joins a job; each unit runs once', async (t) => {
  const pool = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl, threads: 2 });
  t.teardown(() => pool.close());
  await Promise.all([probe(pool, 2, 0), probe(pool, 2, 0)]); // both workers have run a task
  const before = pool.assisted.helped;
  const lanes = await probe(pool, 12, 20);
  t.ok(
    lanes.every((l) => l === 1 || l === 2),
    `every unit ran in a lane: ${lanes}`,
  );
  t.ok(lanes.includes(2), 'the idle worker ran some');
  t.ok(lanes.includes(1), 'the owner ran some');
  t.equal(pool.assisted.helped - before, lanes.filter((l) => l === 2).length, 'the board counts the units helped');
});

t.test('two tasks spreading at once both finish', async (t) => {
  const pool = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl, threads: 2 });
  t.teardown(() => pool.close());
  const runs = await Promise.all(Array.from({ length: 6 }, () => probe(pool, 8, 3)));
  for (const lanes of runs)
    t.ok(
      lanes.every((l) => l === 1 || l === 2),
      `${lanes}`,
    );
  t.equal(pool.assisted.jobs, 6, 'six jobs opened');
});

t.test('a pool of one thread runs every unit itself', async (t) => {
  const pool = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl, threads: 1 });
  t.teardown(() => pool.close());
  t.same(await probe(pool, 5, 1), [1, 1, 1, 1, 1]);
  t.same(pool.assisted, { jobs: 1, helped: 0 });
});

t.test("a unit failing in a helper fails the owner's task; the board is free afterwards", async (t) => {
  const pool = new EnginePool({ module: rt.module, heap: rt.heap, workerUrl, threads: 2 });
  t.teardown(() => pool.close());
  await Promise.all([probe(pool, 2, 0), probe(pool, 2, 0)]);
  await rejectsTyped(t, probe(pool, 12, 20, 1), TaskFailedError, 'ERR_TASK_FAILED', 'the task fails');
  await rejectsTyped(t, probe(pool, 12, 20, 0), TaskFailedError, 'ERR_TASK_FAILED', 'and fails when its own unit fails');
  for (let i = 0; i < 4; i++) {
    const lanes = await probe(pool, 12, 2);
    t.ok(
      lanes.every((l) => l === 1 || l === 2),
      'the next jobs run whole (every slot was freed)',
    );
  }
});
