// The engine in-process, without HTTP or LMDB, for profiling: the shipped (or a given) model in a
// fresh runtime, documents encoded by the worker pool and applied to one index, then searches run
// by the same `search` op the workers run, on the main thread, with kernels wrapped by
// kernel-profile.ts (or not: profileKernels). Invariants: uses only the engine's exported entry points (runtime, model
// loader, engine, index snapshot, search op), so what it measures is what a worker executes; the
// index is settled (no merge running) before any search.
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import type { Engine } from '../src/engine/index.js';
import { startEngine } from '../src/engine/index.js';
import { loadModel, type ModelDescriptor, readModelFolder } from '../src/engine/model/index.js';
import { cleanTag, type SearchTask, searchOp, searchScratchBytes, snapshotOf } from '../src/engine/ranking/index.js';
import { createEngineRuntime, type EngineRuntime } from '../src/engine/runtime/index.js';
import type { Doc } from './bench-util.js';
import { KernelProfile } from './kernel-profile.js';

/** Resolves once no merge of `index` is running. */
export async function settleIndex(index: MemoryStoreIndex): Promise<void> {
  while (index.mergeRunning) await new Promise((r) => setTimeout(r, 20));
}

export class EngineHarness {
  readonly profile: KernelProfile;
  /** Whether searches call the kernels through the profile's wrapper (it times each call, and allocates for it). */
  profileKernels = true;

  private constructor(
    readonly runtime: EngineRuntime,
    readonly model: ModelDescriptor,
    readonly engine: Engine,
    readonly index: MemoryStoreIndex,
  ) {
    this.profile = new KernelProfile(runtime.kernels);
  }

  static async open(opts: { model?: string; threads?: number } = {}): Promise<EngineHarness> {
    const runtime = await createEngineRuntime();
    const { descriptor } = loadModel(readModelFolder(opts.model ?? defaultModelUri()), runtime.heap);
    const { engine } = startEngine(runtime, descriptor, { threads: opts.threads });
    return new EngineHarness(runtime, descriptor, engine, engine.createIndex() as MemoryStoreIndex);
  }

  async add(docs: Doc[]): Promise<void> {
    this.index.apply(await this.engine.encode(docs));
  }

  async settle(): Promise<void> {
    await settleIndex(this.index);
  }

  /** One search through the search op on this thread; returns document ids best first (and each passage's span), its confidence and its time. */
  search(
    query: string,
    maxResults = 10,
    maxHops = 4,
    scan?: 'exact' | 'approximate',
    scanBudget?: number,
  ): { docIds: string[]; spans: Array<[number, number]>; confidence: number; ms: number; hops: number } {
    const { segments, stats } = this.index.snapshot();
    const totalRows = segments.reduce((n, s) => n + s.nRows, 0);
    const dim = this.model.params.dense?.dim ?? 0;
    const heap = this.runtime.heap;
    const tag = cleanTag(totalRows);
    const scratch = heap.allocScratch(searchScratchBytes(totalRows, dim, maxResults), tag);
    let clean = false;
    try {
      const task: SearchTask = {
        query,
        maxHops,
        maxResults,
        trace: false,
        segments: segments.map(snapshotOf),
        stats,
        blocked: 0,
        scratch,
        scan,
        scanBudget,
        scratchClean: heap.isClean(scratch, tag),
      };
      const t0 = performance.now();
      const kernels = this.profileKernels ? this.profile.kernels : this.runtime.kernels;
      const out = searchOp({ kernels, regions: [kernels.views], shared: this.model }, task);
      const ms = performance.now() - t0;
      clean = out.scratchClean;
      const bases: number[] = [];
      segments.reduce((b, s) => {
        bases.push(b);
        return b + s.nRows;
      }, 0);
      const docIds = out.hits.map((h) => this.index.docIdOf(bases[h.seg] + h.row, segments) ?? '');
      const spans = out.hits.map((h): [number, number] => [segments[h.seg].rowStart[h.row], segments[h.seg].rowEnd[h.row]]);
      return { docIds, spans, confidence: out.confidence, ms, hops: out.hopsUsed };
    } finally {
      heap.freeScratch(scratch, clean ? tag : undefined);
    }
  }

  get totalRows(): number {
    return this.index.snapshot().segments.reduce((n, s) => n + s.nRows, 0);
  }

  heapStats(): Record<string, number> {
    const h = this.runtime.heap as unknown as { stats?: () => Record<string, number> };
    const s = h.stats?.() ?? {};
    return { wasmMemoryBytes: this.runtime.memory.buffer.byteLength, indexBytes: this.index.memoryBytes, bytesInUse: s.bytesInUse ?? 0 };
  }

  async close(): Promise<void> {
    this.index.close();
    await this.engine.close();
  }
}
