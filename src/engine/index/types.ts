// The types of the store index (main thread): its segments and the batches installed into them,
// the engine context it runs tasks through, and what a search dispatch hands back.
import type { ModelDescriptor } from '../model/index.js';
import type { EnginePool, ImageSpace, LaneOptions, WasmHeap } from '../runtime/index.js';
import type { BuiltSegment, MergeResult, MergeSource } from '../segment/index.js';
import type { Metadata, SearchOutcome, TextReader } from '../types.js';

/** One segment of a store's index: its image and dead flags in shared memory, and per-row bookkeeping. */
export interface Segment {
  /** unique in the process (never reused, whatever the store) */
  id: number;
  base: number;
  dead: number;
  /**
   * A snapshot has handed out `dead` since it was last copied: the next row to die while a task is
   * in flight is flagged in a copy (segment-blocks.ts ownDeadFlags), so that a search reads the flags
   * as they were at its snapshot.
   */
  deadShared: boolean;
  /**
   * Each row's tie key (u32): the hash of its document's id, written when the row is placed and
   * never changed. Searches order rows of equal score by it (ranking/corpus.ts tieOrder), so that
   * results do not depend on where the rows lie (the order documents came in, merges, a rebuild).
   */
  keys: number;
  /**
   * For an image in a region past the kernels' memory (runtime/regions.ts): a copy of its rows'
   * body and title lengths (f32[nRows] each, in that order) in the kernels' memory, which the BM25
   * kernels read beside its postings (staged there by corpus-scan.ts); 0 for an image in that memory.
   */
  lens: number;
  nRows: number;
  liveRows: number;
  rowSlot: Uint32Array;
  /** version of the document each row was written for */
  rowVersion: Uint32Array;
  rowStart: Uint32Array;
  rowEnd: Uint32Array;
  blen: Float32Array;
  tlen: Float32Array;
}

/** A built segment with the documents its rows belong to (rowDoc indexes `docs`). */
export interface SegmentBatch {
  built: BuiltSegment;
  docs: Array<{ id: string; metadata: Metadata }>;
}

/** What a search row resolves to while its document is still the version the row was written for. */
export interface RowRef {
  docId: string;
  start: number;
  end: number;
  metadata: Metadata;
}

/** A search that ran: its rows are resolved to documents (and its trace rendered) by the index that dispatched it. */
export interface PendingResult {
  resolve(rowRef: (seg: Segment, row: number) => RowRef | undefined, readText: TextReader): SearchOutcome;
}

/**
 * What a store index needs from the engine: the shared heap, the regions its segment images lie in,
 * the worker pool, the model, and the worker round trips that build segments (context.ts).
 */
export interface EngineContext {
  heap: WasmHeap;
  /** Where segment images are allocated (their addresses name their region: runtime/regions.ts); every other block is the heap's. */
  images: ImageSpace;
  pool: EnginePool;
  model: ModelDescriptor;
  log: (msg: string, fields?: Record<string, unknown>) => void;
  buildFromBlobs(blobs: Uint8Array[]): Promise<BuiltSegment>;
  /** Merges `sources` into `into`, a block of at least their size (the image is written there). */
  mergeSegments(sources: MergeSource[], into: { ptr: number; bytes: number }): Promise<MergeResult>;
  /** Runs `op` with a scratch block of `bytes` bytes passed as `args.scratch`, in the pool's `lane` (default: foreground). */
  withScratch<R>(op: string, bytes: number, args: Record<string, unknown>, lane?: LaneOptions, cleanTag?: string): Promise<R>;
}

/**
 * A document table's state as plain parts (doc-table.ts parts / restoreParts; persist.ts writes them
 * in this order). The arrays parts() gives hold their content exactly; those persist.ts reads back
 * may be longer (zero past the content: room for the table to grow into).
 */
export interface DocTableParts {
  scalars: { used: number; garbage: number; live: number; high: number; keys: string[]; freeSlots: number[] };
  arrays: {
    bytes: Uint8Array<ArrayBuffer>;
    buckets: Int32Array<ArrayBuffer>;
    alive: Uint8Array<ArrayBuffer>;
    hash: Uint32Array<ArrayBuffer>;
    at: Uint32Array<ArrayBuffer>;
    idLen: Uint32Array<ArrayBuffer>;
    metaLen: Uint32Array<ArrayBuffer>;
    version: Uint32Array<ArrayBuffer>;
    first: Uint32Array<ArrayBuffer>;
    count: Uint32Array<ArrayBuffer>;
    segIndex: Int32Array<ArrayBuffer>;
  };
}

/** Takes the stream's next bytes, in order (a view: valid until the promise settles). */
export type IndexSink = (bytes: Uint8Array) => Promise<void>;
/** Fills `into` whole with the stream's next bytes, or throws. */
export type IndexSource = (into: Uint8Array) => void;

export interface PersistedSegment {
  nRows: number;
  liveRows: number;
  /** bytes of the image's block */
  block: number;
}

export interface IndexHeader {
  model: number;
  nextVersion: number;
  liveRows: number;
  liveBody: number;
  liveTitle: number;
  segments: PersistedSegment[];
  table: DocTableParts['scalars'] & { buckets: number };
}

/** What a store index is, besides its document table: its segments and live statistics. */
export interface IndexState {
  nextVersion: number;
  liveRows: number;
  liveBody: number;
  liveTitle: number;
  segments: Segment[];
}
