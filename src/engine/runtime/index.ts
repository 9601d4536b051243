// The engine's runtime room: the compiled WebAssembly kernels, the shared memory they run on with
// its allocator (free list and epoch-based reclamation), the regions of index segments past it
// (regions.ts), typed views over them, the worker pool and the
// registry of the ops workers run, and the runtime's typed errors. Only this room touches
// WebAssembly memory directly; every other room reads and writes it through WasmKernels and
// MemoryViews.
export { type AdoptArgs, adoptOp, collectOp, WorkerKernels } from './adopt.js';
export { registerAssist, runAlone } from './assist.js';
export { createEngineRuntime, type EngineRuntime, type RuntimeOptions } from './bootstrap.js';
export { collectGarbage } from './collect.js';
export * from './errors.js';
export { ALIGN, alignUp, FreeList } from './free-list.js';
export { MAX_I8_DIM, MAX_POSTING_ROWS, WasmKernels } from './kernels.js';
export { createSharedMemory, MAX_MEMORY_BYTES, MIN_PAGES, PAGE_BYTES, PinToken, WasmHeap } from './memory.js';
export { compileKernels, DEFAULT_KERNELS_URL, instantiateRaw, verifyModule } from './module.js';
export {
  type AssistKind,
  type AssistUnit,
  getOp,
  type OpContext,
  type OpHandler,
  opNames,
  registerOp,
} from './op-registry.js';
export { EnginePool, type EnginePoolOptions, relocationWorthIt } from './pool.js';
export { ImageSpace, type ImageSpaceOptions, offsetOf, REGION_SPAN, regionOf } from './regions.js';
export { scanOp, scanRange, scanScratchBytes, scanTopK } from './scan-op.js';
export { type LaneOptions, LaneQueue } from './task-queue.js';
export type * from './types.js';
export { MAX_I32, MemoryViews } from './views.js';
