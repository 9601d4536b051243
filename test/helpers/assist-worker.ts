// A pool worker for test/engine-assist-board.test.ts: the runtime's task handling (as the engine's
// worker.ts) with one op, `probe`, that spreads a job of `n` units over the board. Each unit
// records in the kernels' memory which lane ran it (lane + 1 at ptr + 4 · i), after sleeping
// `sleepMs` (so that an idle worker has time to join); a unit run in lane `failLane` throws.
import { workerData } from 'node:worker_threads';
import {
  type AssistKind,
  type EngineWorkerData,
  errorToWire,
  getOp,
  type OpContext,
  registerAssist,
  registerOp,
  spreaderOf,
  type TaskEnvelope,
  type TaskReply,
  WorkerKernels,
} from '../../src/engine/runtime/index.js';

const nap = new Int32Array(new SharedArrayBuffer(4));

const PROBE: AssistKind = {
  name: 'probe',
  unit(ctx, p, i, lane) {
    Atomics.wait(nap, 0, 0, p[1]);
    if (lane === p[2]) throw new Error(`unit ${i} fails in lane ${lane}`);
    ctx.kernels.views.u32At(p[0] + 4 * i, 1)[0] = lane + 1;
  },
};

registerAssist(PROBE);
registerOp('probe', (ctx: OpContext, a: { n: number; ptr: number; sleepMs: number; failLane?: number }) => {
  spreaderOf(ctx)(PROBE, a.n, 3, (p) => {
    p[0] = a.ptr;
    p[1] = a.sleepMs;
    p[2] = a.failLane ?? -1;
  });
  return a.n;
});

const kernels = new WorkerKernels(workerData as EngineWorkerData);

export default function handleTask(task: TaskEnvelope): TaskReply {
  try {
    return { ok: true, value: getOp(task.op).handler(kernels.contextFor(task), task.args) };
  } catch (err) {
    return { ok: false, error: errorToWire(err) };
  }
}
