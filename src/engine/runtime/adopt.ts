// A worker's side of the heap's relocation (memory.ts relocate): every task names the heap's
// generation and memory, and a worker instantiates its kernels afresh on that memory when the
// generation changed, before the task's op runs, then collects its heap so that its references to
// the old memory go. The `adopt` op does nothing else: the pool sends one per worker after a
// relocation (a barrier holds each until all have arrived, so no worker takes two), so that an
// idle worker lets the old memory go too. The `collect` op, sent the same way before a move writes
// its new memory (and when the engine is idle with no move to make), compacts each worker's heap, so
// that the garbage the heaps hold (an ingest's buffers) is not resident beside both memories at the
// move's peak, nor left resident afterwards.
// Invariants: a task's op only ever sees kernels on the memory its task named; generations only
// grow (the pool relocates with no task in flight).
import { AssistBoard } from './assist.js';
import { collectGarbage, compactHeap } from './collect.js';
import { WasmKernels } from './kernels.js';
import type { OpContext } from './op-registry.js';
import type { EngineWorkerData, TaskEnvelope } from './types.js';
import { MemoryViews } from './views.js';

export class WorkerKernels {
  private gen = -1;
  private ctx: OpContext | undefined;
  /** The board this worker's tasks spread work over, and whose jobs it joins between them (assist.ts). */
  private readonly board: AssistBoard | undefined;

  constructor(private readonly data: EngineWorkerData) {
    this.board = data.assist ? new AssistBoard(data.assist, () => this.current()) : undefined;
    this.board?.listen();
  }

  /** The kernels and regions of the last task, with their heap generation (undefined before the first). */
  current(): { gen: number; ctx: OpContext } | undefined {
    return this.ctx && { gen: this.gen, ctx: this.ctx };
  }

  /** The context a task runs in: kernels on the memory of the task's heap generation, and views of every region. */
  contextFor(task: TaskEnvelope): OpContext {
    if (!this.ctx || task.gen !== this.gen) {
      const moved = this.ctx !== undefined;
      const kernels = new WasmKernels(this.data.module, task.memory);
      // the regions past the main memory are never moved (regions.ts): their views carry over
      this.ctx = { kernels, regions: [kernels.views, ...(this.ctx?.regions.slice(1) ?? [])], shared: this.data.shared, assist: this.board };
      this.gen = task.gen;
      if (moved) collectGarbage();
    }
    const { regions } = this.ctx;
    for (let r = regions.length - 1; r < task.regions.length; r++) regions.push(new MemoryViews(task.regions[r]));
    return this.ctx;
  }
}

export interface AdoptArgs {
  /** an Int32Array's buffer: how many workers have arrived */
  barrier: SharedArrayBuffer;
  workers: number;
  waitMs: number;
}

/** Arrives at the barrier and waits (at most waitMs) for the other workers. */
export function adoptOp(_ctx: OpContext, { barrier, workers, waitMs }: AdoptArgs): number {
  const count = new Int32Array(barrier);
  Atomics.add(count, 0, 1);
  Atomics.notify(count, 0);
  const until = performance.now() + waitMs;
  for (let seen = Atomics.load(count, 0); seen < workers; seen = Atomics.load(count, 0)) {
    const left = until - performance.now();
    if (left <= 0) break;
    Atomics.wait(count, 0, seen, left);
  }
  return Atomics.load(count, 0);
}

/**
 * adoptOp, then this worker's heap collected and compacted (pool.ts collectEveryThread: before a
 * relocation writes its new memory, and once idle with no move); returns the heap bytes given back.
 */
export function collectOp(ctx: OpContext, args: AdoptArgs): number {
  adoptOp(ctx, args);
  return compactHeap();
}
