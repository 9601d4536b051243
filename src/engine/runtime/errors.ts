// Typed errors of the engine runtime, each with a stable `code`.
// Invariants: errors raised inside a worker cross the thread boundary as a plain
// WireError and are rebuilt here into the same class with the same code, so
// callers can test `instanceof` / `code` whichever thread raised them.

import type { WireError } from './types.js';
export class KernelBoundsError extends RangeError {
  readonly code = 'ERR_KERNEL_BOUNDS';
  override name = 'KernelBoundsError';
}

export class WasmOutOfMemoryError extends Error {
  readonly code = 'ERR_WASM_OOM';
  override name = 'WasmOutOfMemoryError';
  constructor(
    message: string,
    readonly requestedBytes = 0,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Whether `err` says the engine's memory had no room (by name, so that any copy of the error counts). */
export function isOutOfEngineMemory(err: unknown): boolean {
  return (err as { name?: string } | undefined)?.name === 'WasmOutOfMemoryError';
}

export class InvalidPointerError extends Error {
  readonly code = 'ERR_INVALID_POINTER';
  override name = 'InvalidPointerError';
}

export class AllocSizeError extends RangeError {
  readonly code = 'ERR_ALLOC_SIZE';
  override name = 'AllocSizeError';
}

export class KernelModuleError extends Error {
  readonly code = 'ERR_KERNEL_MODULE';
  override name = 'KernelModuleError';
}

export class PoolBusyError extends Error {
  readonly code = 'ERR_POOL_BUSY';
  override name = 'PoolBusyError';
}

export class PoolClosedError extends Error {
  readonly code = 'ERR_POOL_CLOSED';
  override name = 'PoolClosedError';
}

/** No worker could start (e.g. the worker module fails to load): the pool fails fast instead of queueing forever. */
export class PoolBrokenError extends Error {
  readonly code = 'ERR_POOL_BROKEN';
  override name = 'PoolBrokenError';
}

export class UnknownOpError extends Error {
  readonly code = 'ERR_UNKNOWN_OP';
  override name = 'UnknownOpError';
}

/** An error thrown by a task handler that is none of the engine's own classes. */
export class TaskFailedError extends Error {
  readonly code = 'ERR_TASK_FAILED';
  override name = 'TaskFailedError';
  constructor(
    message: string,
    readonly remoteName: string,
    readonly remoteCode?: string,
  ) {
    super(message);
  }
}

const rebuild: Record<string, (message: string) => Error> = {
  KernelBoundsError: (m) => new KernelBoundsError(m),
  WasmOutOfMemoryError: (m) => new WasmOutOfMemoryError(m),
  InvalidPointerError: (m) => new InvalidPointerError(m),
  AllocSizeError: (m) => new AllocSizeError(m),
  KernelModuleError: (m) => new KernelModuleError(m),
  UnknownOpError: (m) => new UnknownOpError(m),
  RangeError: (m) => new RangeError(m),
  TypeError: (m) => new TypeError(m),
};

export function errorToWire(err: unknown): WireError {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { name: err.name, message: err.message, code: typeof code === 'string' ? code : undefined, stack: err.stack };
  }
  return { name: 'Error', message: String(err) };
}

export function errorFromWire(wire: WireError): Error {
  const make = rebuild[wire.name];
  const err = make ? make(wire.message) : new TaskFailedError(wire.message, wire.name, wire.code);
  if (wire.stack) err.stack = `${err.name}: ${wire.message}\n    [in worker]\n${wire.stack.split('\n').slice(1).join('\n')}`;
  return err;
}
