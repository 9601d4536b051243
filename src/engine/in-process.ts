// An in-process store: the real engine (encoder, segments, worker pool for encoding) over a
// corpus, searched on the main thread through the same Searcher, stages and loop the workers run,
// so what training fits and what serving computes are the same features and results. A store can
// hide documents (the "answer not in the store" runs), or some passages of a document (a paragraph
// its answer is in), as if they had been deleted: no hidden row is returned or counted in the
// statistics. Segments are loaded as a store is opened (fixed chunks, no
// background merges), so the row order, and with it every tie between equal scores, never depends
// on timing.
import { startEngine } from './engine.js';
import type { EngineContext, MemoryStoreIndex, Segment } from './index/index.js';
import { denseScratchBytes, type LoopParams, type ModelDescriptor, type ModelParams, placeModel } from './model/index.js';
import { HOPS } from './params.js';
import {
  type CorpusStats,
  type HopBuffers,
  hopBuffers,
  hopScratchBytes,
  type LoopOutput,
  runLoop,
  SearchCorpus,
  Searcher,
  snapshotOf,
} from './ranking/index.js';
import { createEngineRuntime, type EngineRuntime } from './runtime/index.js';
import type { Engine, Metadata, StoredDocument } from './types.js';

/** A document of an in-process store. */
export interface InProcessDoc {
  id: string;
  text: string;
  metadata?: Metadata;
}

export class InProcessStore {
  private readonly segments: Segment[];
  private readonly stats: CorpusStats;
  private readonly buf: HopBuffers;
  /** per segment, the dead flags of a view with hidden documents (allocated when first needed) */
  private readonly shadows: number[] = [];
  private readonly segBase: number[] = [];
  readonly totalRows: number;
  private readonly docRows = new Map<string, number[]>();
  private readonly rowDoc: string[] = [];
  private readonly rowSpan: Array<[number, number]> = [];
  private readonly texts = new Map<string, string>();

  private constructor(
    private readonly runtime: EngineRuntime,
    readonly model: ModelDescriptor,
    private readonly engine: Engine,
    private readonly ctx: EngineContext,
    private readonly index: MemoryStoreIndex,
  ) {
    ({ segments: this.segments, stats: this.stats } = index.snapshot());
    this.totalRows = this.segments.reduce((n, s) => n + s.nRows, 0);
    const heap = runtime.heap;
    const block = heap.alloc(hopScratchBytes(this.totalRows, HOPS.rankCap, denseScratchBytes(model.params.dense?.dim ?? 0)));
    this.buf = hopBuffers(block, this.totalRows, HOPS.rankCap);
    this.segments.reduce((b, s) => {
      this.segBase.push(b);
      return b + s.nRows;
    }, 0);
    for (let r = 0; r < this.totalRows; r++) {
      const id = index.docIdOf(r, this.segments) ?? '';
      this.rowDoc.push(id);
      const rows = this.docRows.get(id) ?? [];
      rows.push(r);
      this.docRows.set(id, rows);
    }
    for (const s of this.segments) for (let r = 0; r < s.nRows; r++) this.rowSpan.push([s.rowStart[r], s.rowEnd[r]]);
  }

  private remember(docs: InProcessDoc[]): this {
    for (const d of docs) this.texts.set(d.id, d.text);
    return this;
  }

  /** The text of a passage. */
  passageText(row: number): string {
    const [s, e] = this.rowSpan[row];
    return (this.texts.get(this.rowDoc[row]) ?? '').slice(s, e);
  }

  /** Builds the model (name, params, table files) in a fresh memory and ingests `docs` into one store. */
  static async open(
    docs: InProcessDoc[],
    model: { name: string; version: string; params: ModelParams; files?: Map<string, Uint8Array> },
    threads?: number,
  ): Promise<InProcessStore> {
    const runtime = await createEngineRuntime();
    const descriptor = placeModel(model.name, model.version, model.params, model.files ?? new Map(), runtime.heap);
    const { engine, ctx } = startEngine(runtime, descriptor, { threads });
    const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
    const stored: StoredDocument[] = [];
    for (let i = 0; i < docs.length; i += 1000)
      for (const d of (await engine.encode(docs.slice(i, i + 1000))).docs)
        stored.push({ id: d.id, metadata: d.metadata, encoding: d.encoding });
    await index.load(stored);
    return new InProcessStore(runtime, descriptor, engine, ctx, index).remember(docs);
  }

  /** Global rows of a document in this store's snapshot. */
  rowsOf(docId: string): number[] {
    return this.docRows.get(docId) ?? [];
  }

  docIdOf(row: number): string {
    return this.rowDoc[row];
  }

  /** Global rows of a document whose passage overlaps [start, end) of its text. */
  rowsWithin(docId: string, start: number, end: number): number[] {
    if (end <= start) return [];
    return this.rowsOf(docId).filter((r) => this.rowSpan[r][0] < end && this.rowSpan[r][1] > start);
  }

  /**
   * A search view of the store without the `hidden` documents and the `hiddenRows` (none by
   * default). Their rows read as deleted ones (dead in a copy of their segments' dead flags) and the
   * statistics leave them out, so document frequencies, idf and average lengths are those of a store
   * that never held them, as in a store asked a question whose answer it lacks (a document some of
   * whose rows are hidden still counts as one). One view with hidden rows at a time: the next call
   * rewrites the copies.
   */
  corpus(hidden: string[] = [], hiddenRows: readonly number[] = []): SearchCorpus {
    const snap = this.segments.map(snapshotOf);
    const held = [...new Set(hidden)].filter((id) => this.rowsOf(id).length > 0);
    const rows = [...new Set([...held.flatMap((id) => this.rowsOf(id)), ...hiddenRows])];
    if (rows.length === 0) return new SearchCorpus(this.runtime.kernels, snap, this.stats, this.model.params.lexical, 0);
    const views = this.runtime.heap.views;
    const { rows: n, avgBody, avgTitle } = this.stats;
    let body = avgBody * n;
    let title = avgTitle * n;
    const docs = this.docRows.size - held.length;
    const bySeg = new Map<number, number[]>();
    for (const r of rows) {
      let si = 0;
      while (r >= this.segBase[si] + this.segments[si].nRows) si++;
      const local = r - this.segBase[si];
      if (!bySeg.has(si)) bySeg.set(si, []);
      bySeg.get(si)!.push(local);
      body -= this.segments[si].blen[local];
      title -= this.segments[si].tlen[local];
    }
    for (const [si, locals] of bySeg) {
      const seg = this.segments[si];
      let shadow: number | undefined = this.shadows[si];
      if (shadow === undefined) {
        shadow = this.runtime.heap.alloc(Math.max(seg.nRows, 1));
        this.shadows[si] = shadow;
      }
      views.write(shadow, views.u8At(seg.dead, seg.nRows).slice());
      const flags = views.u8At(shadow, seg.nRows);
      let added = 0;
      for (const l of locals) {
        if (flags[l] === 0) {
          flags[l] = 1;
          added++;
        }
      }
      snap[si] = { ...snap[si], dead: shadow, deadRows: (snap[si].deadRows ?? 0) + added };
    }
    const live = Math.max(n - rows.length, 0);
    const stats: CorpusStats = {
      rows: live,
      avgBody: body / Math.max(live, 1) || 1,
      avgTitle: title / Math.max(live, 1) || 1,
      avgDoc: body / Math.max(docs, 1) || 1,
    };
    return new SearchCorpus(this.runtime.kernels, snap, stats, this.model.params.lexical, 0);
  }

  searcher(hidden: string[] = [], theta?: ReadonlyMap<number, number>): Searcher {
    return new Searcher(this.corpus(hidden), new Set(this.model.params.stop), this.buf, theta, this.model.dense);
  }

  /** A whole search (stop rule included) with the given learned parameters. */
  search(
    text: string,
    search: LoopParams,
    opts: { maxHops?: number; maxResults?: number; hidden?: string[]; hiddenRows?: readonly number[] } = {},
  ): LoopOutput & { corpus: SearchCorpus } {
    const corpus = this.corpus(opts.hidden, opts.hiddenRows);
    const model = { ...this.model, params: { ...this.model.params, search } };
    const out = runLoop(corpus, model, { query: text, maxHops: opts.maxHops ?? 4, maxResults: opts.maxResults ?? 10 }, this.buf);
    return { ...out, corpus };
  }

  async close(): Promise<void> {
    this.index.close();
    await this.engine.close();
    void this.ctx;
  }
}
