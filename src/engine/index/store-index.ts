// The in-memory index of one store (main thread side). It owns a list of immutable segments in the
// shared memory, each with a mutable block of dead flags and a block of its rows' tie keys (the
// hash of each live row's document id), and a document table mapping ids to the rows that hold them.
// Invariants:
// - the blocks reserve() sets aside for a batch are its segments' own until apply() installs them
//   or release() (or close()) frees them; a reservation that would leave less than MEMORY's
//   headroom is refused whole;
// - a document's live rows are all in one segment; an upsert marks the old rows dead and installs the
//   new ones in the same synchronous step, so every search sees exactly one version of a document;
// - a search task gets a snapshot of the segment list at dispatch; segment blocks leave the list only
//   through `heap.retire`, so a snapshot stays readable until its task has finished; rows that die
//   while a task is in flight are flagged in a copy of the flags a snapshot handed out, so a search
//   reads every row's flag as at its snapshot (segment-blocks.ts ownDeadFlags);
// - a search returns rows of documents as they are when it returns: one whose rows' documents were
//   replaced or deleted while it ran, or whose metadata stopped matching its filter, runs again on a
//   fresh snapshot (INDEX.staleRetries);
// - a merge moves documents without flagging their source rows dead: a search that snapshot the
//   sources still sees every document there, and a row maps back to its document while the document's
//   version (set by each upsert, kept by a merge) is the row's;
// - live-row statistics (count, summed lengths) always equal those of the rows not flagged dead
//   (live-stats.ts: every flag change is accounted there);
// - segments are merged in the background (merges.ts): by the tiered policy after each write, and
//   once a store has seen no write for a moment, its smallest segments into one;
// - persist() writes the state as it is at the call, restore() takes one into a new index only
//   (persist.ts).
import { INDEX, SEGMENTS } from '../params.js';
import type { CorpusStats } from '../ranking/index.js';
import type { BuiltSegment, PlacedSegment } from '../segment/index.js';
import type {
  EncodedBatch,
  Filter,
  Metadata,
  RestoreOutcome,
  SearchOutcome,
  SearchParams,
  StoredDocument,
  StoreIndex,
  TextReader,
} from '../types.js';
import { runSearch } from './dispatch.js';
import { DocFilters } from './doc-filters.js';
import { DocTable } from './doc-table.js';
import { compileFilter } from './filter.js';
import { LiveStats } from './live-stats.js';
import { SegmentMerges } from './merges.js';
import { readIndex, writeIndex } from './persist.js';
import {
  allocateBlocks,
  blocksBytes,
  freeBlocks,
  ownDeadFlags,
  Reservations,
  retireBlocks,
  type SegmentBlocks,
  writeTieKeys,
} from './segment-blocks.js';
import type { EngineContext, IndexSink, IndexSource, Segment, SegmentBatch } from './types.js';

/** Segment ids are unique in the process, across stores: searches key what they remember of a segment by it (term-ranges.ts). */
let nextSegmentId = 1;

/** What install() is given for each document of a merge (the moved ones keep their own). */
const MERGED: { metadata: Metadata } = { metadata: {} };

export class MemoryStoreIndex implements StoreIndex {
  private segments: Segment[] = [];
  private readonly table = new DocTable();
  private readonly filters = new DocFilters(this.table);
  private nextVersion = 1;
  private readonly live = new LiveStats();
  private closed = false;
  /** The blocks reserve() set aside, per batch, until apply() or release() */
  private readonly reserved: Reservations<EncodedBatch>;
  private readonly merges: SegmentMerges;

  /** `compactWhenIdle: false` keeps the segments as written and loaded (training needs a fixed layout). */
  constructor(
    private readonly ctx: EngineContext,
    opts: { compactWhenIdle?: boolean } = {},
  ) {
    this.reserved = new Reservations(ctx);
    this.merges = new SegmentMerges(
      {
        ctx,
        closed: () => this.closed,
        segments: () => this.segments,
        installMerged: (plan, built, rowSource, blocks) => this.installMerged(plan, built, rowSource, blocks),
      },
      opts.compactWhenIdle !== false,
    );
  }

  get passageCount(): number {
    return this.live.liveRows;
  }

  get documentCount(): number {
    return this.table.size;
  }

  /** Segments in the index, and whether a merge is running (for stats and tests). */
  get segmentCount(): number {
    return this.segments.length;
  }

  get mergeRunning(): boolean {
    return this.merges.running;
  }

  /** No merge running and none due: the segments stay as they are until the next write. */
  get settled(): boolean {
    return this.merges.settled;
  }

  get memoryBytes(): number {
    return this.segments.reduce((n, s) => n + blocksBytes(this.ctx, s), 0);
  }

  /**
   * Builds the index of stored documents, SEGMENTS.loadChunk documents per segment, reading `stored`
   * as it goes: at most one chunk per worker (plus one) is in flight, so what a load holds outside the
   * index stays bounded however large the store. Segments are installed in the order read. A failure
   * leaves the segments already installed in place; the caller closes the index.
   */
  async load(stored: Iterable<StoredDocument>): Promise<void> {
    const inFlight: Array<{ docs: Array<{ id: string; metadata: Metadata }>; built: Promise<BuiltSegment> }> = [];
    const installOldest = async () => {
      const next = inFlight.shift() as (typeof inFlight)[number];
      this.install({ built: await next.built, docs: next.docs });
    };
    const dispatch = (docs: StoredDocument[]) => {
      const built = this.ctx.buildFromBlobs(docs.map((d) => d.encoding));
      built.catch(() => {}); // awaited in order by installOldest; a later chunk's failure must not go unhandled meanwhile
      // the encodings are in the task now: only what install needs is kept
      inFlight.push({ docs: docs.map(({ id, metadata }) => ({ id, metadata })), built });
    };
    let cur: StoredDocument[] = [];
    for (const d of stored) {
      cur.push(d);
      if (cur.length < SEGMENTS.loadChunk) continue;
      dispatch(cur);
      cur = [];
      if (inFlight.length > this.ctx.pool.threads) await installOldest();
    }
    if (cur.length) dispatch(cur);
    while (inFlight.length) await installOldest();
    this.merges.armIdle();
  }

  reserve(batch: EncodedBatch): void {
    this.reserved.reserve(
      batch,
      (batch.segments as SegmentBatch[]).map((seg) => seg.built),
    );
  }

  release(batch: EncodedBatch): void {
    this.reserved.release(batch);
  }

  apply(batch: EncodedBatch): void {
    const held = this.reserved.take(batch);
    (batch.segments as SegmentBatch[]).forEach((seg, i) => {
      this.install(seg, undefined, held?.[i]);
    });
    this.merges.afterWrite();
  }

  remove(docId: string): void {
    const slot = this.table.slotOf(docId);
    if (slot === undefined) return;
    this.kill(slot);
    this.filters.remove(slot, this.table.metadataOf(slot)!);
    this.table.free(slot);
    this.merges.armIdle();
  }

  /** Replaces a document's metadata (its rows stay as they are). False when the document is not in the index. */
  setMetadata(docId: string, metadata: Metadata): boolean {
    const slot = this.table.slotOf(docId);
    if (slot === undefined) return false;
    this.filters.remove(slot, this.table.metadataOf(slot)!);
    this.table.setMetadata(slot, metadata);
    this.filters.add(slot, metadata);
    return true;
  }

  /** Ids of the documents the filter matches (every document for an empty filter). */
  idsMatching(filter: Filter): string[] {
    const slots = this.filters.matchSlots(filter);
    if (!slots) return [...this.table.keys()];
    return [...slots].map((slot) => this.table.idOf(slot)!);
  }

  /**
   * Places a built segment in shared memory and points its documents at it, replacing older
   * versions. Documents given without an id keep their rows dead. With `moved` (a merge), the
   * document of index i whose slot is moved[i] (-1: none, a merge leftover, dead) is the same
   * version moved from its source rows, which stay unflagged.
   */
  private install(
    { built, docs }: { built: BuiltSegment | PlacedSegment; docs: ReadonlyArray<{ id?: string; metadata: Metadata }> },
    moved?: Int32Array,
    blocks?: SegmentBlocks,
  ): void {
    if (this.closed) {
      if (blocks) freeBlocks(this.ctx, blocks);
      return;
    }
    this.filters.changed();
    const { heap } = this.ctx;
    const nRows = built.rowDoc.length;
    let placed = blocks;
    if ('image' in built) {
      placed ??= allocateBlocks(this.ctx, built);
      this.ctx.images.write(placed.base, new Uint8Array(built.image));
    }
    if (!placed) throw new Error('install: a segment written in place comes with its blocks');
    const { base, dead, keys, lens } = placed;
    heap.views.fill(dead, Math.max(nRows, 1), 1);
    const seg: Segment = {
      id: nextSegmentId++,
      base,
      dead,
      keys,
      lens,
      deadShared: false,
      nRows,
      liveRows: 0,
      rowSlot: new Uint32Array(nRows),
      rowVersion: new Uint32Array(nRows),
      rowStart: built.rowStart,
      rowEnd: built.rowEnd,
      blen: built.blen,
      tlen: built.tlen,
    };
    this.segments.push(seg);
    let r = 0;
    docs.forEach((doc, di) => {
      const first = r;
      while (r < nRows && built.rowDoc[r] === di) r++;
      const from = moved ? moved[di] : -1;
      let slot: number;
      let version: number;
      if (from >= 0) {
        const source = this.table.segOf(from)!;
        const start = this.table.first(from);
        for (let row = start; row < start + this.table.count(from); row++) this.live.account(source, row, -1);
        if (source.liveRows === 0) this.dropSegment(source);
        slot = from;
        version = this.table.version(from);
      } else {
        if (doc.id === undefined) return;
        this.remove(doc.id);
        slot = this.table.put(doc.id, doc.metadata);
        version = this.nextVersion++;
        this.filters.add(slot, doc.metadata);
      }
      seg.rowSlot.fill(slot, first, r);
      seg.rowVersion.fill(version, first, r);
      writeTieKeys(heap, seg, (s) => this.table.hashOf(s), first, r);
      this.table.place(slot, seg, first, r - first, version);
      this.revive(slot);
    });
    if (seg.liveRows === 0) this.dropSegment(seg);
  }

  /** Flags a slot's rows live. */
  private revive(slot: number): void {
    const seg = this.table.segOf(slot)!;
    const flags = this.ctx.heap.views.u8At(seg.dead, seg.nRows);
    for (let r = this.table.first(slot), end = r + this.table.count(slot); r < end; r++) {
      flags[r] = 0;
      this.live.account(seg, r, 1);
    }
  }

  /** Flags a slot's rows dead (dropping its segment when no live row is left there). */
  private kill(slot: number): void {
    const seg = this.table.segOf(slot)!;
    ownDeadFlags(this.ctx.heap, seg, this.ctx.log);
    const flags = this.ctx.heap.views.u8At(seg.dead, seg.nRows);
    for (let r = this.table.first(slot), end = r + this.table.count(slot); r < end; r++) {
      if (flags[r] === 0) {
        flags[r] = 1;
        this.live.account(seg, r, -1);
      }
    }
    if (seg.liveRows === 0) this.dropSegment(seg);
  }

  private dropSegment(seg: Segment): void {
    this.segments = this.segments.filter((s) => s !== seg);
    retireBlocks(this.ctx, seg);
  }

  /**
   * Installs a merge of `plan`. A merged document is kept only if it still lives, unchanged, in the
   * source row it was merged from; it moves (same slot and version) and its source rows leave the
   * live count unflagged, which empties (and so drops) every source segment. Documents replaced or
   * deleted during the merge stay dead in the result.
   */
  private installMerged(plan: Segment[], built: PlacedSegment, rowSource: Uint32Array, blocks: SegmentBlocks): void {
    const nRows = built.rowDoc.length;
    const moved = new Int32Array(nRows > 0 ? built.rowDoc[nRows - 1] + 1 : 0).fill(-1);
    for (let r = 0; r < nRows; r++) {
      const di = built.rowDoc[r];
      if (moved[di] >= 0) continue;
      const seg = plan[rowSource[r] >>> 24];
      const row = rowSource[r] & 0xffffff;
      const slot = seg.rowSlot[row];
      // the slot may have been freed, or reused by another document, since the merge began
      if (this.table.holds(slot, seg, row)) moved[di] = slot;
    }
    // a moved document keeps its slot's id and metadata: none is read here
    const docs = new Array<{ metadata: Metadata }>(moved.length).fill(MERGED);
    this.install({ built, docs }, moved, blocks);
  }

  /**
   * Writes the index's state as it is now to `sink` (persist.ts), for restore() in a later process.
   * Everything it writes is taken before its first await: the document table's arrays copied, the
   * segments' fields copied and their dead flags marked shared (a later write copies them first,
   * ownDeadFlags, since the heap is pinned), and the heap pinned until it resolves so that no block
   * it reads moves or is freed (merges and drops retire them).
   */
  async persist(sink: IndexSink): Promise<void> {
    const { heap, images } = this.ctx;
    const token = heap.pin();
    const regionTokens = images.pin();
    try {
      for (const s of this.segments) s.deadShared = true;
      const segments = this.segments.map((s) => ({ ...s }));
      const { scalars, arrays } = this.table.parts(this.segments);
      const copies = Object.fromEntries(Object.entries(arrays).map(([k, a]) => [k, a.slice()])) as typeof arrays;
      const state = { nextVersion: this.nextVersion, ...this.live.totals(), segments };
      await writeIndex(sink, this.ctx, this.ctx.model.fingerprint, state, { scalars, arrays: copies });
    } finally {
      heap.unpin(token);
      images.unpin(regionTokens);
    }
  }

  /**
   * Takes the state persist() wrote into this empty index; false, with nothing changed, when it was
   * written in another format or by another model; 'upgraded' when read from the format before
   * (persist.ts). Throws (the index left empty) on a short stream, when the engine memory has no
   * room, or when an image does not upgrade.
   */
  async restore(read: IndexSource): Promise<RestoreOutcome> {
    if (this.segments.length || this.table.size || this.closed) throw new Error('restore: the index is not new');
    const got = await readIndex(read, this.ctx, this.ctx.model.fingerprint, () => nextSegmentId++);
    if (!got) return false;
    const { state, table, upgraded } = got;
    this.table.restoreParts(table, state.segments);
    this.segments = state.segments;
    this.nextVersion = state.nextVersion;
    this.live.restore(state);
    this.filters.changed();
    this.merges.armIdle();
    return upgraded ? 'upgraded' : true;
  }

  /** The live segments and statistics a search task reads (training searches in-process with it). */
  snapshot(): { segments: Segment[]; stats: CorpusStats } {
    const segments = this.segments.filter((s) => s.liveRows > 0);
    for (const s of segments) s.deadShared = true;
    return { segments, stats: this.live.corpus(this.table.size) };
  }

  /** Global rows (in `segments` order) of a document, or [] when it is not in them. */
  rowsOf(docId: string, segments: Segment[]): number[] {
    return this.table.rowsIn(docId, segments);
  }

  /** The document id of a global row of `segments`. */
  docIdOf(row: number, segments: Segment[]): string | undefined {
    return this.table.idOfRow(row, segments);
  }

  /**
   * Runs a search on a snapshot. When a row it returns (or traces) belongs to a document replaced or
   * deleted while it ran, or one whose metadata no longer matches the search's filter, it runs again
   * on a fresh one, up to INDEX.staleRetries times: the last run drops such rows. Its latency counts
   * every run.
   */
  async search(params: SearchParams, readText: TextReader): Promise<SearchOutcome> {
    const started = performance.now();
    const matches = params.filter ? compileFilter(params.filter) : () => true;
    for (let run = 0; ; run++) {
      const { segments: snapshot, stats } = this.snapshot();
      const blocked = this.filters.blockedRows(params.filter, snapshot);
      const pending = await runSearch(this.ctx, snapshot, stats, params, blocked, started);
      let stale = false;
      const outcome = pending.resolve((seg, row) => {
        const slot = seg.rowSlot[row];
        const id = this.table.idOf(slot);
        const metadata = id !== undefined && this.table.version(slot) === seg.rowVersion[row] ? this.table.metadataOf(slot)! : undefined;
        if (metadata && matches(metadata)) return { docId: id!, start: seg.rowStart[row], end: seg.rowEnd[row], metadata };
        stale = true;
        return undefined;
      }, readText);
      if (!stale || run >= INDEX.staleRetries || this.closed) return outcome;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.merges.stop();
    for (const s of this.segments) retireBlocks(this.ctx, s);
    this.segments = [];
    this.reserved.clear();
    this.table.clear();
  }
}
