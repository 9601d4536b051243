// The engine's contract with the layers above it. The engine turns documents into opaque encodings
// (persisted by the store layer byte for byte and handed back when a store opens), keeps one
// in-memory index per open store, and answers searches with passage references (document id and
// character offsets) that the caller resolves to text. It never sees HTTP, LMDB or the CLI.

import type { Filter, Metadata } from '../api-types.js';

/** A document's metadata and a metadata filter: types the OpenAPI document declares (src/api-types.ts, generated). */
export type { Filter, FilterCondition, Metadata, MetadataValue } from '../api-types.js';

export interface EncodedDocument {
  id: string;
  metadata: Metadata;
  /** Tokens counted with the model's tokenizer. */
  nTokens: number;
  /** Passages as [start, end) offsets in UTF-16 code units of the document text. */
  passages: Array<[number, number]>;
  /** Engine-private bytes: everything the index needs to rebuild this document's entries. */
  encoding: Uint8Array;
}

export interface SearchParams {
  query: string;
  maxHops: number;
  maxResults: number;
  /**
   * A result from hop 1 alone (stage 1) lists at least this many passages even when maxResults is
   * fewer, so that a caller re-ordering its head can cut it to maxResults afterwards; the
   * confidence is still that of the first maxResults.
   */
  lead?: number;
  trace: boolean;
  /** Only documents the filter matches are searched (the filter language: index/filter.ts). */
  filter?: Filter;
  /** How hops scan (benchmarks and tests; the HTTP API leaves it to the store size): see SearchTask. */
  scan?: 'exact' | 'approximate';
  scanBudget?: number;
  /** postings from which a scan spreads its segments over an idle worker (tests; default SCAN.spreadPostings) */
  spreadPostings?: number;
  /** keep the search's per-row scratch clean between searches (default: above SCAN.cleanRows rows; ranking/buffers.ts) */
  keepClean?: boolean;
}

export interface PassageHit {
  docId: string;
  start: number;
  end: number;
  score: number;
  hop: number;
  metadata: Metadata;
  /** Opaque: what highlightSpans(passage text, marks) turns into the offsets of the words to highlight. */
  marks: number[];
}

export interface TraceStep {
  hop: number;
  doc_id: string;
  why: string;
  /** what the hop searched with, readable: the question, or the question plus what it carried from the passage before */
  query: string;
  /** the hop's time in the engine */
  ms: number;
  /** passages (hop 1) or chains of passages (later hops) the hop scored */
  candidates: number;
}

export interface SearchOutcome {
  passages: PassageHit[];
  confidence: number;
  hopsUsed: number;
  /** the loop stage whose list is returned (1: hop 1's ranking; the passages' scores are hop-1 scores) */
  stage: number;
  trace?: TraceStep[];
  latencyMs: number;
}

/** Reads the text of a passage; the engine calls it only to explain a trace step. */
export type TextReader = (docId: string, start: number, end: number) => string | undefined;

/** Documents encoded by the engine, with the index segments prebuilt from them (engine-private). */
export interface EncodedBatch {
  docs: EncodedDocument[];
  segments: unknown[];
}

export interface StoredDocument {
  id: string;
  metadata: Metadata;
  encoding: Uint8Array;
}

/** What restore() did: read the state (true), read an earlier format's and upgraded it, or read nothing (false). */
export type RestoreOutcome = boolean | 'upgraded';

export interface StoreIndex {
  /**
   * Rebuilds the index of an opened store from its persisted documents (in ingest order); on an
   * index that holds documents already, a document of one of their ids replaces it.
   */
  load(docs: Iterable<StoredDocument>): Promise<void>;
  /**
   * Writes the index's state as it is at the call, in order, to `sink` (restore() reads it back in
   * another process): the state is taken before the call returns, and writes to the index after it
   * (ingests, deletes, merges) do not reach what it writes.
   */
  persist(sink: (bytes: Uint8Array) => Promise<void>): Promise<void>;
  /**
   * Takes a state persist() wrote into this new, empty index: false, nothing changed, when another
   * model or format wrote it (load() the documents instead); 'upgraded' when an earlier format
   * wrote it that is read and brought to this one (its snapshot is then due to be written again);
   * throws, the index left empty, on a short stream or when the engine memory has no room. `read`
   * fills its argument whole. It yields to the event loop between the state's parts; nothing else
   * may use the index until it settles.
   */
  restore(read: (into: Uint8Array) => void): Promise<RestoreOutcome>;
  /**
   * Sets aside the engine memory the batch's segments will take, before the caller writes anything:
   * throws WasmOutOfMemoryError (name 'WasmOutOfMemoryError') when it is not there, holding nothing.
   * apply() then installs the batch in it; a batch reserved and not applied must be released.
   */
  reserve(batch: EncodedBatch): void;
  /** Gives back what reserve() set aside for a batch that will not be applied (nothing if none). */
  release(batch: EncodedBatch): void;
  /** Adds or replaces the batch's documents (all their passages). Synchronous: visible to the next search. */
  apply(batch: EncodedBatch): void;
  remove(docId: string): void;
  /** Replaces a document's metadata without touching its rows; false when the document is not indexed. */
  setMetadata(docId: string, metadata: Metadata): boolean;
  /** Ids of the documents a filter matches (every document for an empty filter). */
  idsMatching(filter: Filter): string[];
  search(params: SearchParams, readText: TextReader): Promise<SearchOutcome>;
  readonly passageCount: number;
  /** Documents in the index (those with no passage included). */
  readonly documentCount: number;
  /** Bytes of shared memory the index holds. */
  readonly memoryBytes: number;
  /** Index segments: a search looks each term and title phrase up in each (the merges keep them few). */
  readonly segmentCount: number;
  close(): void;
}

/** The engine's shared memory (Engine.memory), bytes. */
export interface EngineMemory {
  /**
   * the engine's memories' size (the kernels' WebAssembly memory and the regions of segment images
   * past it): a WebAssembly memory never shrinks, so this is its high-water mark until the engine
   * relocates its blocks into a fresh memory spanning them (MEMORY.relocate; the kernels' memory only)
   */
  reserved: number;
  /** bytes of them written since they were made (every block allocated in them): at most this is resident */
  written: number;
  /** live blocks: every open store's index, the model's tables and searches' scratch */
  allocated: number;
  /** of `allocated`, blocks let go of (a closed index's, say) and freed once the tasks in flight that may read them end */
  retired: number;
  /** the most they may span in all (SVC_ENGINE_MEMORY_MB, or REGIONS.defaultShare of the process's memory bound, at least 4 GiB) */
  limit: number;
  /** memories the engine holds: 1 (the kernels') until segment images spill past it (REGIONS) */
  regions: number;
  /** relocations so far */
  relocations: number;
  /** bytes of free pages given back to the system in place so far (MEMORY.discard) */
  discarded: number;
  /** bytes of the threads' JavaScript heaps given back by the collections run once the engine is idle (MEMORY.compact) */
  heapCompacted: number;
  /** how free memory goes back to the system: in place, or why only by relocation */
  givesBack: string;
  /** whether blocks of MEMORY.hugePagesFrom bytes or more ask the system for huge pages (SVC_ENGINE_HUGE_PAGES, the native helper) */
  hugePages: boolean;
}

export interface Engine {
  /** e.g. `svc-engine/0.1.0 model=svc-mh@1.0.0`: names the engine and the model version. */
  readonly id: string;
  /** `name@version` of the loaded model; stores record the one that made their encodings. */
  readonly model: string;
  /**
   * What makes its encodings (the model's encoder identity, ModelDescriptor.encoder); stores record
   * it, and one recorded with another encoder (or none) is re-encoded. A model release that changes
   * only the ranking keeps it, and opens the stores of the one before as they are.
   */
  readonly encoder: string;
  /** The text analysis its encodings are made with (tokenizer version, segmentation); stores record it. */
  readonly analyzer: string;
  /** Tasks (searches, encodings, merges) dispatched to the worker pool and not settled, queued ones included. */
  readonly pending: number;
  /** Scan jobs searches spread over the workers so far, and the units of theirs an idle worker ran (ranking/scan-segments.ts). */
  readonly assisted: { jobs: number; helped: number };
  /** The engine's shared memory, bytes: what it has reserved (never shrinks), what is allocated in it, and its limit. */
  readonly memory: EngineMemory;
  encode(docs: Array<{ id: string; text: string; metadata?: Metadata }>): Promise<EncodedBatch>;
  /**
   * The passages a document's persisted encoding (StoredDocument.encoding, made by this model) cut
   * it into, as offsets into its text: exactly those its searches return, whatever reading of the
   * text made them. Throws EncodingFormatError for an encoding of another model or format.
   */
  passagesOf(encoding: Uint8Array): Array<{ start: number; end: number }>;
  /** `compactWhenIdle` (default true): merge small segments once the store sees no writes for a moment. */
  createIndex(opts?: { compactWhenIdle?: boolean }): StoreIndex;
  close(): Promise<void>;
}
