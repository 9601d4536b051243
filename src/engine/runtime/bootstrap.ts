// Main-thread bootstrap of the engine runtime: module, shared memory, allocator, kernels.
// Invariants: one runtime owns one shared memory for its kernels (and the regions of segment
// images past it: regions.ts); the allocator starts above the module's heap base; the same
// compiled module and memory are what the worker pool hands to its workers, so every thread runs
// identical kernels on it.

import { memoryLimitBytes } from '../../memory-limit.js';
import { REGIONS } from '../params.js';
import { WasmKernels } from './kernels.js';
import { createSharedMemory, MAX_MEMORY_BYTES, WasmHeap } from './memory.js';
import { compileKernels } from './module.js';
import { nativeHelper } from './native-helper.js';
import { pageDiscard } from './page-discard.js';
import { ImageSpace } from './regions.js';

export interface EngineRuntime {
  module: WebAssembly.Module;
  /** The heap's memory now (another once the heap is relocated). */
  readonly memory: WebAssembly.Memory;
  heap: WasmHeap;
  /** Where segment images lie: the heap's memory, then regions past it (regions.ts). */
  regions: ImageSpace;
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
  /**
   * Cap on the engine's memories in all: the main one (at most 4 GiB) and the regions segment
   * images spill into past it (default: REGIONS.defaultShare of the process's memory bound, at least 4 GiB).
   */
  maxBytes?: number;
  /** Cap on one region past the main memory (default and at most 4 GiB). */
  regionBytes?: number;
  /** Images the main memory takes before regions are made (default REGIONS.mainShare of its bound). */
  mainImageBytes?: number;
  /** Whether free pages are given back in place when the native helper is built (default true). */
  discard?: boolean;
  /** Whether blocks of MEMORY.hugePagesFrom bytes or more ask for huge pages when the native helper is built (default true). */
  hugePages?: boolean;
}

export async function createEngineRuntime(opts: RuntimeOptions = {}): Promise<EngineRuntime> {
  const module = opts.module ?? (await compileKernels(opts.kernelsUrl));
  const memory = createSharedMemory(opts.initialBytes);
  const kernels = new WasmKernels(module, memory);
  const helper = opts.discard === false ? { why: 'free pages not given back in place (off)' } : pageDiscard();
  const total = opts.maxBytes ?? Math.max(MAX_MEMORY_BYTES, REGIONS.defaultShare * memoryLimitBytes());
  const hugePages = opts.hugePages === false ? undefined : nativeHelper().helper?.hugePages;
  const heap = new WasmHeap(memory, {
    heapBase: kernels.heapBase,
    maxBytes: Math.min(total, MAX_MEMORY_BYTES),
    discard: helper.discard,
    hugePages,
  });
  const regions = new ImageSpace(heap, {
    maxBytes: total,
    regionBytes: opts.regionBytes,
    mainImageBytes: opts.mainImageBytes,
    discard: helper.discard,
    hugePages,
  });
  return {
    module,
    get memory() {
      return heap.memory;
    },
    heap,
    regions,
    kernels,
    givesBack: helper.why,
  };
}
