// Registry of task handlers run by the pool's workers, keyed by op name.
// Invariants: names are unique; handlers receive the worker's kernels and the
// task arguments (plain structured-clone data: numbers as pointers, typed
// arrays) and return structured-clone data; they must not keep pointers past
// the task, since blocks may be reclaimed once the task finished.

import { UnknownOpError } from './errors.js';
import type { WasmKernels } from './kernels.js';

export interface OpContext {
  kernels: WasmKernels;
  /** The pool's `shared` data (the model descriptor), the same in every worker. */
  shared?: unknown;
}

/** `args` is typed by each handler; the registry cannot know it. */
// biome-ignore lint/suspicious/noExplicitAny: each registered handler types its own args (ScanArgs, EncodeArgs, ...); with `unknown` no typed handler would be assignable to OpHandler
export type OpHandler = (ctx: OpContext, args: any) => unknown;

const handlers = new Map<string, OpHandler>();

export function registerOp(name: string, handler: OpHandler): void {
  if (handlers.has(name)) throw new Error(`engine op "${name}" is already registered`);
  handlers.set(name, handler);
}

export function getOp(name: string): OpHandler {
  const h = handlers.get(name);
  if (!h) throw new UnknownOpError(`unknown engine op "${name}" (known: ${[...handlers.keys()].join(', ')})`);
  return h;
}

export function opNames(): string[] {
  return [...handlers.keys()];
}
