// Main-thread bootstrap of the engine runtime: module, shared memory, allocator, kernels.
// Invariants: one runtime owns one shared memory; the allocator starts above the
// module's heap base; the same compiled module and memory are what the worker
// pool hands to its workers, so every thread runs identical kernels on it.

import { WasmKernels } from './kernels.js';
import { createSharedMemory, WasmHeap } from './memory.js';
import { compileKernels } from './module.js';
import { pageDiscard } from './page-discard.js';

export interface EngineRuntime {
  module: WebAssembly.Module;
  /** The heap's memory now (another once the heap is relocated). */
  readonly memory: WebAssembly.Memory;
  heap: WasmHeap;
  /**
   * Main-thread kernels (in-process ranking, tests): bound to the memory the runtime was created
   * with, so not for a heap a pool relocates (EnginePool's relocateMinBytes).
   */
  kernels: WasmKernels;
  /** How free memory goes back to the system: in place (the native helper), or why not (relocation only). */
  givesBack: string;
}

export interface RuntimeOptions {
  /** Location of kernels.wasm; default build/kernels.wasm. */
  kernelsUrl?: URL | string;
  /** Already compiled module (skips reading the file). */
  module?: WebAssembly.Module;
  /** Initial memory size in bytes (default 1 MiB). */
  initialBytes?: number;
  /** Cap on the memory size (default 4 GiB). */
  maxBytes?: number;
  /** Whether free pages are given back in place when the native helper is built (default true). */
  discard?: boolean;
}

export async function createEngineRuntime(opts: RuntimeOptions = {}): Promise<EngineRuntime> {
  const module = opts.module ?? (await compileKernels(opts.kernelsUrl));
  const memory = createSharedMemory(opts.initialBytes);
  const kernels = new WasmKernels(module, memory);
  const helper = opts.discard === false ? { why: 'free pages not given back in place (off)' } : pageDiscard();
  const heap = new WasmHeap(memory, { heapBase: kernels.heapBase, maxBytes: opts.maxBytes, discard: helper.discard });
  return {
    module,
    get memory() {
      return heap.memory;
    },
    heap,
    kernels,
    givesBack: helper.why,
  };
}
