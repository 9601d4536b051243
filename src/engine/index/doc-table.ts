// The document table of one store index (main thread): a document's id maps to its slot, and each
// slot holds, in columns rather than an object per document, the document's id, metadata, the
// version its rows were written for, and where those rows lie (one segment, `count` rows from
// `first`). Invariants: a slot is live from put() until free(), and its id maps back to it exactly
// while it is live; a freed slot is reused by a later put(); the numeric columns only grow.
import type { Metadata } from '../types.js';
import type { Segment } from './types.js';

const INITIAL_SLOTS = 1024;

export class DocTable {
  private readonly slots = new Map<string, number>();
  /** the id, metadata and segment of each slot (undefined where the slot is free) */
  readonly ids: Array<string | undefined> = [];
  readonly metadata: Array<Metadata | undefined> = [];
  readonly segs: Array<Segment | undefined> = [];
  /** per slot: the version its rows were written for, and its first row and row count in its segment */
  private cols = { version: new Uint32Array(INITIAL_SLOTS), first: new Uint32Array(INITIAL_SLOTS), count: new Uint32Array(INITIAL_SLOTS) };
  private readonly freeSlots: number[] = [];

  /** Live documents. */
  get size(): number {
    return this.slots.size;
  }

  /** The slot of a live document, or undefined. */
  slotOf(id: string): number | undefined {
    return this.slots.get(id);
  }

  /** A free slot for a new document `id` (which must not be live), with its metadata; place() says where its rows are. */
  put(id: string, metadata: Metadata): number {
    const slot = this.freeSlots.pop() ?? this.ids.length;
    if (slot >= this.cols.version.length) this.grow(slot + 1);
    this.slots.set(id, slot);
    this.ids[slot] = id;
    this.metadata[slot] = metadata;
    return slot;
  }

  /** Points a live slot at its rows: `count` rows from `first` of `seg`, written for `version`. */
  place(slot: number, seg: Segment, first: number, count: number, version: number): void {
    this.segs[slot] = seg;
    this.cols.first[slot] = first;
    this.cols.count[slot] = count;
    this.cols.version[slot] = version;
  }

  /** Frees a live slot: its id no longer maps to it. */
  free(slot: number): void {
    this.slots.delete(this.ids[slot]!);
    this.ids[slot] = undefined;
    this.metadata[slot] = undefined;
    this.segs[slot] = undefined;
    this.freeSlots.push(slot);
  }

  version(slot: number): number {
    return this.cols.version[slot];
  }

  first(slot: number): number {
    return this.cols.first[slot];
  }

  count(slot: number): number {
    return this.cols.count[slot];
  }

  /** Whether `row` of `seg` is one of the live slot's rows. */
  holds(slot: number, seg: Segment, row: number): boolean {
    return this.segs[slot] === seg && row >= this.cols.first[slot] && row < this.cols.first[slot] + this.cols.count[slot];
  }

  /** Ids of the live documents. */
  keys(): IterableIterator<string> {
    return this.slots.keys();
  }

  /** Slots of the live documents. */
  liveSlots(): IterableIterator<number> {
    return this.slots.values();
  }

  clear(): void {
    this.slots.clear();
    this.ids.length = 0;
    this.metadata.length = 0;
    this.segs.length = 0;
    this.freeSlots.length = 0;
  }

  private grow(min: number): void {
    const n = Math.max(min, this.cols.version.length * 2);
    const widen = (a: Uint32Array) => {
      const b = new Uint32Array(n);
      b.set(a);
      return b;
    };
    this.cols = { version: widen(this.cols.version), first: widen(this.cols.first), count: widen(this.cols.count) };
  }
}
