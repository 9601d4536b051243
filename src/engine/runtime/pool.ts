// Piscina worker pool running engine ops over the shared memory.
// Invariants: background tasks (builds, merges, encodes) wait behind every foreground one
// (task-queue.ts), so a search waits at most for the tasks already running; every task is pinned
// in the heap from dispatch until it settled, so blocks retired meanwhile outlive it; at most
// threads + maxQueue tasks are in flight, beyond that run() rejects at once with PoolBusyError;
// tasks are never cancelled mid-flight (a kernel may be writing shared memory); if no worker is
// left alive (start-up failure) every task fails with PoolBrokenError rather than waiting
// forever; close() waits for in-flight tasks, then stops.

import { availableParallelism } from 'node:os';
import { Piscina, queueOptionsSymbol } from 'piscina';
import { WORKERS } from '../params.js';
import { errorFromWire, PoolBrokenError, PoolBusyError, PoolClosedError } from './errors.js';
import type { WasmHeap } from './memory.js';
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
}

export class EnginePool {
  readonly threads: number;
  readonly maxQueue: number;
  readonly heap: WasmHeap;
  private readonly piscina: Piscina;
  private readonly inflight = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;
  private broken: PoolBrokenError | undefined;
  private lastWorkerError: Error | undefined;

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
    const workerData: EngineWorkerData = { module: opts.module, memory: opts.heap.memory, shared: opts.shared };
    this.piscina = new Piscina({
      filename: opts.workerUrl.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      maxQueue: Infinity, // admission is done in run(), which bounds what reaches Piscina
      taskQueue: new LaneQueue(),
      // a task taken from the queue while no worker could run it goes back to the front of its lane (by default, to the tail)
      stricterFIFO: true,
      idleTimeout: Infinity,
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: WORKERS.youngGenMb },
    });
    this.piscina.on('error', (err: Error) => {
      this.lastWorkerError = err;
      opts.onWorkerError?.(err);
    });
    this.piscina.on('workerDestroy', () => setImmediate(() => this.checkAlive()));
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
    const task = this.dispatch<R>({ op, args }, lane, transfer).finally(() => {
      this.inflight.delete(task);
      this.heap.unpin(token);
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
      while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
      await this.piscina.destroy();
    })();
    return this.closing;
  }
}
