// A pool worker for test/engine-assist-board.test.ts: the engine's worker (worker.ts) with one more
// op, `probe`, that spreads a job of `n` units over the board. Each unit
// records in the kernels' memory which lane ran it (lane + 1 at ptr + 4 · i), after sleeping
// `sleepMs` (so that an idle worker has time to join); a unit run in lane `failLane` throws.
import { type AssistKind, type OpContext, registerAssist, registerOp } from '../../src/engine/runtime/index.js';
import handleTask from '../../src/engine/worker.js';

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
  if (!ctx.assist) throw new Error('a pool worker has a board');
  ctx.assist.spread(PROBE, a.n, 3, (p) => {
    p[0] = a.ptr;
    p[1] = a.sleepMs;
    p[2] = a.failLane ?? -1;
  });
  return a.n;
});

export default handleTask;
