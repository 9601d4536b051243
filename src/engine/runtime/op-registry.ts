// Registry of task handlers run by the pool's workers, keyed by op name.
// Invariants: names are unique; handlers receive the worker's kernels and the
// task arguments (plain structured-clone data: numbers as pointers, typed
// arrays) and return structured-clone data; they must not keep pointers past
// the task, since blocks may be reclaimed once the task finished. An op that
// declares `moves` hands the buffers it names to the main thread instead of
// copying them: they must be fresh (made by this task, never reused by the
// worker, never the shared memory). The kinds of job an op may spread over idle workers
// (assist.ts) are typed here too: a unit runs on any worker's context, in a lane of its own.

import { UnknownOpError } from './errors.js';
import type { WasmKernels } from './kernels.js';
import type { MemoryViews } from './views.js';

export interface OpContext {
  kernels: WasmKernels;
  /** Views of every region's memory (regions.ts): [0] is the kernels' own, the others hold segment images only. */
  regions: MemoryViews[];
  /** The pool's `shared` data (the model descriptor), the same in every worker. */
  shared?: unknown;
  /** The board a task's op spreads its work over to idle workers (assist.ts AssistBoard; none on a main thread). */
  assist?: {
    /** Runs a job (units 0..n-1 of a kind, a payload of `size` numbers written by `write`), spread over the idle workers. */
    spread(kind: AssistKind, n: number, size: number, write: (payload: Float64Array) => void): void;
  };
}

/** Runs unit `i` of a job of its kind, in `lane`, on the thread's context. */
export type AssistUnit = (ctx: OpContext, payload: Float64Array, i: number, lane: number) => void;

/** A kind of job: its unit, under a name every worker registers it by (worker.ts). */
export interface AssistKind {
  name: string;
  unit: AssistUnit;
}

/** `args` is typed by each handler; the registry cannot know it. */
// biome-ignore lint/suspicious/noExplicitAny: each registered handler types its own args (ScanArgs, EncodeArgs, ...); with `unknown` no typed handler would be assignable to OpHandler
export type OpHandler = (ctx: OpContext, args: any) => unknown;

/** The buffers of an op's result that move to the main thread (typed by each op, like its args). */
// biome-ignore lint/suspicious/noExplicitAny: typed by each op for its own result, as OpHandler's args
export type OpMoves = (result: any) => ArrayBufferLike[];

interface OpEntry {
  handler: OpHandler;
  moves?: OpMoves;
}

const handlers = new Map<string, OpEntry>();

/**
 * `moves` names the result's buffers that the worker gives up: the main thread receives them without a
 * copy, and the worker holds no garbage of that size until its next collection (an idle worker may
 * not collect for a long time).
 */
export function registerOp(name: string, handler: OpHandler, moves?: OpMoves): void {
  if (handlers.has(name)) throw new Error(`engine op "${name}" is already registered`);
  handlers.set(name, { handler, moves });
}

export function getOp(name: string): OpEntry {
  const h = handlers.get(name);
  if (!h) throw new UnknownOpError(`unknown engine op "${name}" (known: ${[...handlers.keys()].join(', ')})`);
  return h;
}

export function opNames(): string[] {
  return [...handlers.keys()];
}
