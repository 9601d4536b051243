// Piscina worker pool running engine ops over the shared memory.
// Invariants: background tasks (builds, merges, encodes) wait behind every foreground one
// (task-queue.ts), so a search waits at most for the tasks already running; every task is pinned
// in the heap from dispatch until it settled, so blocks retired meanwhile outlive it; at most
// threads + maxQueue tasks are in flight, beyond that run() rejects at once with PoolBusyError;
// tasks are never cancelled mid-flight (a kernel may be writing shared memory); if no worker is
// left alive (start-up failure) every task fails with PoolBrokenError rather than waiting
// forever; close() waits for in-flight tasks, then stops. Every task names the heap's memory and
// generation, and the memories of the regions of segment images past it (regions.ts), whose heaps
// it pins as it pins the heap; the pool relocates the heap (memory.ts relocate) only with no task
// in flight, once it has been idle and much more of the memory was written in than its live blocks hold
// (MEMORY.relocate): each worker and this thread collect their heaps first (a `collect` task to
// each), then the new memory is written, then one `adopt` task goes to each worker and this thread
// collects again, so that the old memory's pages go back to the system. A move that would not fit
// under the process's memory bound (src/memory-limit.ts) with both memories is given up. When idle, the
// heap first drops the free pages it can in place (memory.ts discardWhenIdle); after enough were
// dropped, or once this thread's heap grew, with no move worth making, every thread collects all the
// same (collectAll, MEMORY.compact). With relocation on or off, the task scratch the heap keeps for
// the next task (memory.ts freeScratch) goes back once the engine is idle. Every such collection is a compaction: full
// collections until the heap stops shrinking (collect.ts HeapCompaction).

import { availableParallelism } from 'node:os';
import { Piscina, queueOptionsSymbol } from 'piscina';
import { memoryLimitBytes } from '../../memory-limit.js';
import { MEMORY, WORKERS } from '../params.js';
import type { AdoptArgs } from './adopt.js';
import { assistCounts, createAssistBuffer } from './assist.js';
import { collectGarbage, committedHeapBytes, compactHeapBetween } from './collect.js';
import { errorFromWire, PoolBrokenError, PoolBusyError, PoolClosedError } from './errors.js';
import { touchPages, type WasmHeap } from './memory.js';
import type { ImageSpace } from './regions.js';
import { type LaneOptions, LaneQueue } from './task-queue.js';
import type { EngineWorkerData, TaskEnvelope, TaskReply } from './types.js';

export interface EnginePoolOptions {
  module: WebAssembly.Module;
  heap: WasmHeap;
  /** Worker threads (default os.availableParallelism()). */
  threads?: number;
  /** Tasks that may wait for a thread before run() answers PoolBusyError (default 16 per thread). */
  maxQueue?: number;
  /** Worker module: one that registers the ops the pool runs (the engine's worker.ts; engineWorkerUrl()). */
  workerUrl: URL;
  /** Plain (structured-clone) data handed to every worker as `ctx.shared`. */
  shared?: unknown;
  /** Called when a worker fails outside any task (e.g. at start-up); such errors never crash the process. */
  onWorkerError?: (err: Error) => void;
  /**
   * The heap is relocated when idle once this many bytes of it were written and are no longer in
   * use (and MEMORY.relocate's share); 0 or unset: never when idle (a runtime whose main-thread
   * kernels are in use must keep its memory), though relocate() works either way.
   */
  relocateMinBytes?: number;
  /** The most memory the process may hold (default: src/memory-limit.ts, its control group's or the machine's); a move that would pass MEMORY.relocate.maxPeakShare of it is given up. */
  memoryLimitBytes?: number;
  /** The regions segment images may lie in besides the heap (regions.ts): each task names their memories and pins them. */
  regions?: ImageSpace;
}

/**
 * Whether a move is worth its copy (MEMORY.relocate): the memory written exceeds its live blocks
 * by at least minBytes and minFreeShare of what was written, and the live blocks are few enough to
 * copy with the engine stopped.
 */
export function relocationWorthIt(idleBytes: number, bytesInUse: number, minBytes: number): boolean {
  const r = MEMORY.relocate;
  return idleBytes > 0 && idleBytes >= Math.max(minBytes, r.minFreeShare * (idleBytes + bytesInUse)) && bytesInUse <= r.maxCopyBytes;
}

export class EnginePool {
  readonly threads: number;
  readonly maxQueue: number;
  readonly heap: WasmHeap;
  private readonly regions: ImageSpace | undefined;
  private readonly piscina: Piscina;
  private readonly inflight = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;
  private broken: PoolBrokenError | undefined;
  private lastWorkerError: Error | undefined;
  private lastActive = performance.now();
  private readonly idleTimer: NodeJS.Timeout;
  private relocating = false;
  /** The board the workers spread a task's work over (assist.ts). */
  private readonly board = createAssistBuffer();
  /** Relocations of the heap so far. */
  relocations = 0;
  /** Collections of every thread's heap once idle, with no move (collectAll): after pages were given back in place, or this thread's heap grew. */
  collections = 0;
  /** Bytes of the threads' JavaScript heaps given back by their idle collections (collect.ts compactHeap). */
  heapBytesCompacted = 0;
  /** The jobs tasks spread over the workers so far, and the units of theirs an idle worker ran (assist.ts). */
  get assisted(): { jobs: number; helped: number } {
    return assistCounts(this.board);
  }

  /**
   * How long the pool must have been idle before it tries a move by itself: MEMORY.relocate.idleMs,
   * doubled by each move given up (a task came) up to maxIdleMs, and back once a move is made, so
   * that light steady traffic does not have every thread collect and a new memory written every
   * few seconds only to be given up.
   */
  get relocationIdleMs(): number {
    return this.idleNeededMs;
  }
  private idleNeededMs: number = MEMORY.relocate.idleMs;
  /** The heap's bytesDiscarded when every thread last collected (collectAll, or a move). */
  private collectedAt = 0;
  /**
   * This thread's committed heap after every thread last collected; 0 until the first collection,
   * so that the engine's first idle spell collects what starting left (the model loaded, the first
   * stores opened from their snapshots): no merge drops pages then, and the heap may not grow by
   * MEMORY.compact.afterGrowthBytes again after it.
   */
  private heapAfterCollection = 0;
  /** The process's memory bound (src/memory-limit.ts): a move must leave room under it for both memories. */
  private readonly memoryLimit: number;

  constructor(opts: EnginePoolOptions) {
    this.threads = opts.threads ?? availableParallelism();
    this.maxQueue = opts.maxQueue ?? 16 * this.threads;
    if (!Number.isSafeInteger(this.threads) || this.threads < 1) {
      throw new RangeError(`threads must be a positive integer, got ${this.threads}`);
    }
    if (!Number.isSafeInteger(this.maxQueue) || this.maxQueue < 0) {
      throw new RangeError(`maxQueue must be a non-negative integer, got ${this.maxQueue}`);
    }
    this.heap = opts.heap;
    this.regions = opts.regions;
    this.memoryLimit = opts.memoryLimitBytes ?? memoryLimitBytes();
    // the memory travels with each task, never in workerData: Piscina keeps that for the workers it
    // starts later, which would keep a relocated memory alive
    const workerData: EngineWorkerData = { module: opts.module, shared: opts.shared, assist: this.board };
    this.piscina = new Piscina({
      filename: opts.workerUrl.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      maxQueue: Infinity, // admission is done in run(), which bounds what reaches Piscina
      taskQueue: new LaneQueue(),
      // a task taken from the queue while no worker could run it goes back to the front of its lane (by default, to the tail)
      stricterFIFO: true,
      idleTimeout: Infinity,
      // an idle worker waits for its next task on its event loop, not blocked in Atomics.wait: so it
      // hears the jobs other workers' tasks spread over the board (assist.ts)
      atomics: 'async',
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: WORKERS.youngGenMb },
    });
    this.piscina.on('error', (err: Error) => {
      this.lastWorkerError = err;
      opts.onWorkerError?.(err);
    });
    this.piscina.on('workerDestroy', () => setImmediate(() => this.checkAlive()));
    const minBytes = opts.relocateMinBytes ?? 0;
    // a relocation that fails (no memory for the new one) leaves the heap as it was: reported, never thrown
    const check = () => this.whenIdle(minBytes).catch((err: Error) => opts.onWorkerError?.(err));
    this.idleTimer = setInterval(check, MEMORY.relocate.checkMs);
    this.idleTimer.unref();
  }

  /** Once idle: the kept task scratch goes back (memory.ts freeScratch); with relocation on (minBytes > 0), free pages, collections and moves too. */
  private async whenIdle(minBytes: number): Promise<void> {
    const idle = this.inflight.size === 0 && performance.now() - this.lastActive >= this.idleNeededMs;
    if (!idle) return;
    if (minBytes === 0) {
      this.heap.releaseScratch();
      return;
    }
    // what was freed below MEMORY.discard's bound as blocks went goes back once the engine is idle
    this.heap.discardWhenIdle();
    this.regions?.discardWhenIdle();
    const { idleBytes, bytesInUse } = this.heap;
    if (relocationWorthIt(idleBytes, bytesInUse, minBytes)) await this.relocate();
    else if (this.collectionDue()) await this.collectAll();
  }

  /**
   * Whether every thread should collect now that the engine is idle: pages were dropped in place
   * since the last collection (the garbage of the merges that freed them), or this thread's heap
   * grew since (a spell of searches and writes whose garbage V8 left in place).
   */
  private collectionDue(): boolean {
    return (
      this.heap.stats().bytesDiscarded - this.collectedAt >= MEMORY.compact.afterDiscardedBytes ||
      committedHeapBytes() - this.heapAfterCollection >= MEMORY.compact.afterGrowthBytes
    );
  }

  /**
   * Every thread collects its heap (a `collect` task to each worker, then this thread): after a
   * busy spell whose merges were given back in place, the garbage of what the workers decoded and
   * built is otherwise resident until V8 next collects each heap by itself, which an idle heap
   * never does. A move collects the same way first.
   */
  private async collectAll(): Promise<void> {
    if (this.relocating || this.closing !== undefined || this.broken !== undefined) return;
    this.relocating = true;
    try {
      await this.collectEveryThread();
      this.collections++;
    } finally {
      this.relocating = false;
    }
  }

  /**
   * Relocates the heap now when no task is in flight (false otherwise, or while closing or
   * relocating): the blocks move to a fresh memory, each worker adopts it, and this thread
   * collects, so that the old memory can be freed.
   */
  async relocate(): Promise<boolean> {
    const busy = () => {
      const s = this.heap.stats();
      return (
        this.closing !== undefined || this.broken !== undefined || this.inflight.size > 0 || s.outstandingPins > 0 || s.retiredBlocks > 0
      );
    };
    if (busy() || this.relocating) return false;
    this.relocating = true;
    try {
      // every thread's garbage goes first, or it stays resident beside both memories while the new
      // one is written (the move's peak)
      await this.collectEveryThread();
      if (busy()) return this.givenUp();
      // the new memory's pages come on top of everything the process holds now, the old memory included
      if (process.memoryUsage.rss() + this.heap.bytesInUse > MEMORY.relocate.maxPeakShare * this.memoryLimit) return this.givenUp();
      // the new memory's pages are first written a slice at a time, between other work: only the
      // copy itself stops the engine, and it is given up if a task came meanwhile
      const into = this.heap.relocationTarget();
      for (const [start, end] of this.heap.liveRanges()) {
        for (let at = start; at < end; at += MEMORY.relocate.touchSliceBytes) {
          touchPages(into, at, Math.min(end, at + MEMORY.relocate.touchSliceBytes));
          await new Promise((r) => setImmediate(r));
          if (busy()) {
            collectGarbage(); // the pages written in the memory given up
            return this.givenUp();
          }
        }
      }
      this.heap.relocate(into);
      this.relocations++;
      this.idleNeededMs = MEMORY.relocate.idleMs;
      await this.everyWorker('adopt');
      collectGarbage();
      return true;
    } finally {
      this.relocating = false;
    }
  }

  /**
   * A `collect` task to each worker (each compacts its heap: collect.ts compactHeap), then this
   * thread's compaction, which yields to the event loop between its collections and stops when a
   * task is dispatched meanwhile (this thread holds the largest heap: the stores' document tables);
   * notes the pages dropped by then and the heap bytes given back.
   */
  private async collectEveryThread(): Promise<void> {
    this.collectedAt = this.heap.stats().bytesDiscarded;
    const workers = await this.everyWorker<number>('collect');
    const own = await compactHeapBetween(() => this.inflight.size > 0);
    this.heapBytesCompacted += workers.reduce((a, b) => a + b, 0) + own;
    this.heapAfterCollection = committedHeapBytes();
  }

  /** A move given up: the next one waits for a longer idle time (relocationIdleMs). */
  private givenUp(): false {
    this.idleNeededMs = Math.min(2 * this.idleNeededMs, MEMORY.relocate.maxIdleMs);
    return false;
  }

  /** Runs `op` (adopt.ts) once on each worker: a barrier holds each task until all have arrived, so that no worker takes two. */
  private async everyWorker<R>(op: 'adopt' | 'collect'): Promise<R[]> {
    const args: AdoptArgs = { barrier: new SharedArrayBuffer(4), workers: this.threads, waitMs: MEMORY.relocate.adoptWaitMs };
    const settled = await Promise.allSettled(Array.from({ length: this.threads }, () => this.run<R>(op, args, { background: true })));
    return settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }

  /** Piscina does not respawn workers that fail while starting; with none left, fail instead of hanging. */
  private checkAlive(): void {
    if (this.closing || this.broken || this.piscina.threads.length > 0) return;
    const why = this.lastWorkerError ? `: ${this.lastWorkerError.message}` : '';
    this.broken = new PoolBrokenError(`engine pool has no live worker${why}`, { cause: this.lastWorkerError });
    void this.piscina.destroy();
  }

  /** Tasks dispatched and not yet settled. */
  get pending(): number {
    return this.inflight.size;
  }

  /**
   * Runs op `op` in a worker (`background`: after every waiting foreground task); rejects with
   * PoolBusyError when saturated, PoolClosedError after close(). The buffers in `transfer` (of
   * `args`) move to the worker instead of being copied: the caller gives them up.
   */
  run<R>(op: string, args: unknown, lane: LaneOptions = {}, transfer: ArrayBuffer[] = []): Promise<R> {
    if (this.closing) return Promise.reject(new PoolClosedError('engine pool is closed'));
    if (this.broken) return Promise.reject(this.broken);
    if (this.inflight.size >= this.threads + this.maxQueue) {
      return Promise.reject(
        new PoolBusyError(`engine pool busy: ${this.inflight.size} tasks in flight (${this.threads} threads + queue of ${this.maxQueue})`),
      );
    }
    const token = this.heap.pin();
    const regionTokens = this.regions?.pin() ?? [];
    this.lastActive = performance.now();
    const envelope: TaskEnvelope = { op, args, gen: this.heap.generation, memory: this.heap.memory, regions: this.regions?.memories ?? [] };
    const task = this.dispatch<R>(envelope, lane, transfer).finally(() => {
      this.inflight.delete(task);
      this.heap.unpin(token);
      this.regions?.unpin(regionTokens);
      this.lastActive = performance.now();
    });
    this.inflight.add(task);
    return task;
  }

  private async dispatch<R>(envelope: TaskEnvelope, lane: LaneOptions, transferList: ArrayBuffer[]): Promise<R> {
    let reply: TaskReply;
    try {
      // the lane travels as Piscina's queue options: a symbol key, which the structured clone to the worker leaves out
      reply = (await this.piscina.run({ ...envelope, [queueOptionsSymbol]: lane }, { transferList })) as TaskReply;
    } catch (err) {
      throw this.broken ?? err;
    }
    if (!reply.ok) throw errorFromWire(reply.error);
    return reply.value as R;
  }

  /** Refuses new tasks, waits for in-flight ones, then stops the workers. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.idleTimer);
      while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
      await this.piscina.destroy();
    })();
    return this.closing;
  }
}
