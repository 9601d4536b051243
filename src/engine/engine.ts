// The engine facade: loads the model into a fresh shared memory, starts the worker pool with the
// model descriptor, and implements the Engine contract (encode batches, create store indexes).
// Encoding splits a batch into chunks run in parallel on the workers; each chunk comes back with
// its prebuilt index segment.
import { VERSION } from '../version.js';
import { denseScratchBytes } from './model/dense-encoder.js';
import { createContext, type EngineContext } from './index/context.js';
import type { EncodeResult } from './segment/encode-op.js';
import { loadModel, type ModelDescriptor } from './model/place.js';
import type { LoadedModelFolder } from './model/folder.js';
import { EnginePool } from './runtime/pool.js';
import type { SegmentBatch } from './index/store-index.js';
import { MemoryStoreIndex } from './index/store-index.js';
import type { EncodedBatch, Engine, Metadata, StoreIndex } from './types.js';
import { createEngineRuntime, type EngineRuntime } from './runtime/bootstrap.js';

export interface EngineOptions {
  /** The verified model folder (read once by whoever starts the engine). */
  model: LoadedModelFolder;
  threads?: number;
  /** Tasks that may wait for a worker before the pool answers busy. */
  maxQueue?: number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

/** Documents per encode task: small enough to spread a batch over the workers. */
const ENCODE_CHUNK = 125;

class SvcEngine implements Engine {
  readonly id: string;
  readonly model: string;

  constructor(private readonly ctx: EngineContext) {
    const m = ctx.model;
    this.model = `${m.name}@${m.version}`;
    this.id = `svc-engine/${VERSION} model=${this.model}`;
  }

  async encode(docs: Array<{ id: string; text: string; metadata?: Metadata }>): Promise<EncodedBatch> {
    const chunks: (typeof docs)[] = [];
    for (let i = 0; i < docs.length; i += ENCODE_CHUNK) chunks.push(docs.slice(i, i + ENCODE_CHUNK));
    const dim = this.ctx.model.params.dense?.dim ?? 0;
    const results = await Promise.all(
      chunks.map((c) =>
        this.ctx.withScratch<EncodeResult>('encode', denseScratchBytes(dim), { docs: c.map((d) => ({ text: d.text, title: d.metadata?.title })) }),
      ),
    );
    const out: EncodedBatch = { docs: [], segments: [] };
    results.forEach((r, ci) => {
      const chunk = chunks[ci];
      r.docs.forEach((e, i) => out.docs.push({ id: chunk[i].id, metadata: chunk[i].metadata ?? {}, nTokens: e.nTokens, passages: e.passages, encoding: e.blob }));
      const seg: SegmentBatch = { built: r.built, docs: chunk.map((d) => ({ id: d.id, metadata: d.metadata ?? {} })) };
      out.segments.push(seg);
    });
    return out;
  }

  createIndex(opts: { compactWhenIdle?: boolean } = {}): StoreIndex {
    return new MemoryStoreIndex(this.ctx, opts);
  }

  close(): Promise<void> {
    return this.ctx.pool.close();
  }
}

export async function loadEngine(opts: EngineOptions): Promise<Engine> {
  const runtime = await createEngineRuntime();
  const { descriptor } = loadModel(opts.model, runtime.heap);
  return startEngine(runtime, descriptor, opts).engine;
}

/** An engine over a model already placed in `runtime`'s memory; also hands out its internals (for training). */
export function startEngine(runtime: EngineRuntime, descriptor: ModelDescriptor, opts: Omit<EngineOptions, 'model'> = {}): { engine: Engine; ctx: EngineContext } {
  const log = opts.log ?? (() => {});
  const pool = new EnginePool({
    module: runtime.module,
    heap: runtime.heap,
    threads: opts.threads,
    maxQueue: opts.maxQueue,
    shared: descriptor,
    onWorkerError: (err) => log('engine worker failed', { err: String(err) }),
  });
  const ctx = createContext(runtime.heap, pool, descriptor, log);
  return { engine: new SvcEngine(ctx), ctx };
}
