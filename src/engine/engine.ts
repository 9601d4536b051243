// The engine facade: loads the model into a fresh shared memory, starts the worker pool with the
// model descriptor, and implements the Engine contract (encode batches, create store indexes).
// Encoding (index/encode.ts) splits a batch into chunks run in parallel on the workers, and a very
// large document into pieces; each comes back with its prebuilt index segment. A model is read
// here only through loadModelFolder, which refuses a folder whose weights do not fit this engine's
// features.
import { VERSION } from '../version.js';
import { createContext, type EngineContext, encodeBatch, MemoryStoreIndex } from './index/index.js';
import { type LoadedModelFolder, loadModel, type ModelDescriptor, ModelError, readModelFolder } from './model/index.js';
import { MEMORY } from './params.js';
import { modelFitProblem } from './ranking/index.js';
import { createEngineRuntime, EnginePool, type EngineRuntime } from './runtime/index.js';
import { decodeBlob } from './segment/index.js';
import { analyzerId } from './text/index.js';
import type { EncodedBatch, Engine, EngineMemory, Metadata, StoreIndex } from './types.js';

export interface EngineOptions {
  /** The verified model folder (read once by whoever starts the engine: loadModelFolder). */
  model: LoadedModelFolder;
  threads?: number;
  /** Tasks that may wait for a worker before the pool answers busy. */
  maxQueue?: number;
  /**
   * The most bytes the engine's memories may span in all (the kernels' own, at most 4 GiB, and the
   * regions of segment images past it: runtime/regions.ts; default REGIONS.defaultShare of the
   * process's memory bound, at least 4 GiB); past it an allocation throws WasmOutOfMemoryError.
   */
  memoryBytes?: number;
  /** The most bytes of one region past the kernels' memory (default and at most 4 GiB; tests set less). */
  regionBytes?: number;
  /** Images the kernels' memory takes before regions are made (default REGIONS.mainShare of its bound; tests set less). */
  mainImageBytes?: number;
  /** Whether free pages of the engine's memory are given back in place (MEMORY.discard; default true, where the native helper is built). */
  discard?: boolean;
  /** Whether blocks of MEMORY.hugePagesFrom bytes or more ask for huge pages (default true, where the native helper is built). */
  hugePages?: boolean;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /**
   * The idle memory (written, no longer in use) worth relocating the engine's memory for when the
   * pool is idle, giving back the pages of merges and deleted stores (MEMORY.relocate); 0: never.
   * loadEngine's default is MEMORY.relocate.minFreeBytes; startEngine's is 0, since its caller may
   * keep using the runtime's main-thread kernels (the in-process store).
   */
  relocateMinBytes?: number;
}

/**
 * Reads and verifies a model folder (manifest schema, every file's size and SHA-256) and checks that
 * its weights were fitted on the features this engine computes; a ModelError (with a `fix`) names
 * what is wrong.
 */
export function loadModelFolder(dir: string): LoadedModelFolder {
  const folder = readModelFolder(dir);
  const { manifest } = folder;
  const misfit = manifest.params.search && modelFitProblem(manifest.params.search);
  if (misfit) {
    throw new ModelError(
      `model ${manifest.name}@${manifest.version} was trained for another version of svc: ${misfit}`,
      'Use the model this version of svc ships (models/DEFAULT), or train one with `svc train`.',
    );
  }
  return folder;
}

/** The worker module of the engine's pool: worker.ts beside this file under TypeScript, worker.js in dist. */
export function engineWorkerUrl(): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./worker${ext}`, import.meta.url);
}

class SvcEngine implements Engine {
  readonly id: string;
  readonly model: string;
  readonly encoder: string;
  readonly analyzer = analyzerId();

  constructor(
    private readonly ctx: EngineContext,
    private readonly givesBack: string,
  ) {
    const m = ctx.model;
    this.model = `${m.name}@${m.version}`;
    this.encoder = m.encoder;
    this.id = `svc-engine/${VERSION} model=${this.model}`;
  }

  encode(docs: Array<{ id: string; text: string; metadata?: Metadata }>): Promise<EncodedBatch> {
    return encodeBatch(this.ctx, docs);
  }

  passagesOf(encoding: Uint8Array): Array<{ start: number; end: number }> {
    return decodeBlob(encoding, this.ctx.model.fingerprint).passages.map(({ start, end }) => ({ start, end }));
  }

  get pending(): number {
    return this.ctx.pool.pending;
  }

  get assisted(): { jobs: number; helped: number } {
    return this.ctx.pool.assisted;
  }

  get memory(): EngineMemory {
    const { images, pool } = this.ctx;
    const all = images.heaps.map((h) => ({ s: h.stats(), idle: h.idleBytes }));
    const sum = (f: (x: (typeof all)[number]) => number) => all.reduce((n, x) => n + f(x), 0);
    return {
      reserved: sum((x) => x.s.capacity),
      written: sum((x) => x.idle + x.s.bytesInUse),
      allocated: sum((x) => x.s.bytesInUse),
      retired: sum((x) => x.s.bytesRetired),
      limit: images.maxBytes,
      regions: images.heaps.length,
      relocations: pool.relocations,
      discarded: sum((x) => x.s.bytesDiscarded),
      heapCompacted: pool.heapBytesCompacted,
      givesBack: this.givesBack,
      hugePages: images.heaps[0].advisesHugePages,
    };
  }

  createIndex(opts: { compactWhenIdle?: boolean } = {}): StoreIndex {
    return new MemoryStoreIndex(this.ctx, opts);
  }

  close(): Promise<void> {
    return this.ctx.pool.close();
  }
}

/** The engine on a model folder read by loadModelFolder. */
export async function loadEngine(opts: EngineOptions): Promise<Engine> {
  const { memoryBytes: maxBytes, regionBytes, mainImageBytes, discard, hugePages } = opts;
  const runtime = await createEngineRuntime({ maxBytes, regionBytes, mainImageBytes, discard, hugePages });
  const { descriptor } = loadModel(opts.model, runtime.heap);
  return startEngine(runtime, descriptor, { ...opts, relocateMinBytes: opts.relocateMinBytes ?? MEMORY.relocate.minFreeBytes }).engine;
}

/** An engine over a model already placed in `runtime`'s memory; also hands out its internals (the in-process store). */
export function startEngine(
  runtime: EngineRuntime,
  descriptor: ModelDescriptor,
  opts: Omit<EngineOptions, 'model'> = {},
): { engine: Engine; ctx: EngineContext } {
  const log = opts.log ?? (() => {});
  const pool = new EnginePool({
    module: runtime.module,
    heap: runtime.heap,
    regions: runtime.regions,
    workerUrl: engineWorkerUrl(),
    threads: opts.threads,
    maxQueue: opts.maxQueue,
    shared: descriptor,
    relocateMinBytes: opts.relocateMinBytes,
    onWorkerError: (err) => log('engine worker failed', { err: String(err) }),
  });
  const ctx = createContext(runtime.heap, runtime.regions, pool, descriptor, log);
  return { engine: new SvcEngine(ctx, runtime.givesBack), ctx };
}
