// What a store index needs from the engine: the shared heap and the regions of segment images, the
// worker pool, the model, and the worker round trips that build segments. Scratch blocks for a task are allocated here on the main
// thread and ended once the task settled (kept for the next task: WasmHeap.freeScratch; workers
// never allocate); with a clean tag, the task is told whether its block is clean under it and says
// whether it handed the block back so (`scratchClean` in its args and result). Building and merging
// segments run in the pool's background lane, behind every waiting search. The encodings a build reads are
// packed into one buffer that moves to the worker (the caller's copies are left untouched).
import type { ModelDescriptor } from '../model/index.js';
import type { EnginePool, ImageSpace, LaneOptions, WasmHeap } from '../runtime/index.js';
import { type BuildArgs, type BuiltSegment, type MergeArgs, type MergeResult, packBlobs } from '../segment/index.js';
import type { EngineContext } from './types.js';

const BACKGROUND: LaneOptions = { background: true };

export function createContext(
  heap: WasmHeap,
  images: ImageSpace,
  pool: EnginePool,
  model: ModelDescriptor,
  log: EngineContext['log'],
): EngineContext {
  const dim = model.params.dense?.dim ?? 0;
  const ctx: EngineContext = {
    heap,
    images,
    pool,
    model,
    log,
    buildFromBlobs: (stored) => {
      const { blobs, buffer } = packBlobs(stored);
      return pool.run<BuiltSegment>('build', { blobs, fingerprint: model.fingerprint, dim } satisfies BuildArgs, BACKGROUND, [buffer]);
    },
    mergeSegments: (sources, into) => pool.run<MergeResult>('merge', { sources, dim, into } satisfies MergeArgs, BACKGROUND),
    async withScratch<R>(op: string, bytes: number, args: Record<string, unknown>, lane: LaneOptions = {}, cleanTag?: string): Promise<R> {
      const scratch = heap.allocScratch(bytes, cleanTag);
      let clean = false;
      try {
        const scratchClean = cleanTag !== undefined && heap.isClean(scratch, cleanTag);
        const r = await pool.run<R>(op, { ...args, scratch, scratchClean }, lane);
        clean = (r as { scratchClean?: unknown }).scratchClean === true;
        return r;
      } finally {
        heap.freeScratch(scratch, clean ? cleanTag : undefined);
      }
    },
  };
  return ctx;
}
