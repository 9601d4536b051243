// The document table of one store index (main thread): a document's id maps to its slot, and each
// slot holds, in columns rather than objects, the document's id and metadata (as bytes in one
// buffer: its UTF-8 id, then its metadata-codec.ts encoding), the version its rows were written
// for, and where those rows lie (one segment, `count` rows from `first`). Ids are found through an
// open-addressing hash table of slots (linear probing, deletion by backward shift, so no
// tombstones). A store of a million documents so holds a few typed arrays and one buffer, not two
// million strings and objects for V8 to keep and mark. Invariants: a slot is live from put() until
// free(), and its id maps back to it exactly while it is live; a freed slot is reused by a later
// put(); the bytes of freed slots and replaced metadata are reclaimed by copying the live ones into
// a new buffer once they outweigh them (DOC_TABLE in params.ts); ids are well-formed Unicode (the
// API refuses a lone surrogate, which UTF-8 could not hold).
import { Buffer } from 'node:buffer';
import { DOC_TABLE } from '../params.js';
import type { Metadata, MetadataValue } from '../types.js';
import { ByteWriter, MetadataCodec } from './metadata-codec.js';
import { SegmentRefs } from './segment-refs.js';
import type { DocTableParts, Segment } from './types.js';

/** FNV-1a over a string's UTF-16 code units, then mixed so that the low bits (the bucket) spread. */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const grown = <T extends Uint32Array | Uint8Array>(a: T, n: number): T => {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
};

const emptyColumns = () => ({
  alive: new Uint8Array(DOC_TABLE.initialSlots),
  hash: new Uint32Array(DOC_TABLE.initialSlots),
  at: new Uint32Array(DOC_TABLE.initialSlots),
  idLen: new Uint32Array(DOC_TABLE.initialSlots),
  metaLen: new Uint32Array(DOC_TABLE.initialSlots),
  version: new Uint32Array(DOC_TABLE.initialSlots),
  first: new Uint32Array(DOC_TABLE.initialSlots),
  count: new Uint32Array(DOC_TABLE.initialSlots),
});

export class DocTable {
  private readonly codec = new MetadataCodec();
  private readonly writer = new ByteWriter();
  /** the ids and metadata of every slot ever written since the last compaction, from byte 0 to `used` */
  private bytes = Buffer.alloc(DOC_TABLE.initialBytes);
  private used = 0;
  /** bytes within `used` that no live slot owns */
  private garbage = 0;
  /** hash buckets: slot + 1, or 0 where empty; a power of two long */
  private buckets = new Int32Array(DOC_TABLE.initialSlots * 2);
  private live = 0;
  /** the segment of each slot (none where the slot is free or not yet placed) */
  private readonly refs = new SegmentRefs(DOC_TABLE.initialSlots);
  /**
   * per slot: whether it is live, its id's hash, where its bytes start, its id's and its metadata's
   * byte lengths, the version its rows were written for, and its first row and row count in its segment
   */
  private cols = emptyColumns();
  /** slots handed out so far (live or free) */
  private high = 0;
  private readonly freeSlots: number[] = [];

  /** Live documents. */
  get size(): number {
    return this.live;
  }

  /** The hash of a live slot's id (the same for an id whatever its slot, store or process). */
  hashOf(slot: number): number {
    return this.cols.hash[slot];
  }

  /** The slot of a live document, or undefined. */
  slotOf(id: string): number | undefined {
    const h = hashId(id);
    const mask = this.buckets.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const e = this.buckets[i];
      if (e === 0) return undefined;
      if (this.cols.hash[e - 1] === h && this.idIs(e - 1, id)) return e - 1;
    }
  }

  /** A free slot for a new document `id` (which must not be live), with its metadata; place() says where its rows are. */
  put(id: string, metadata: Metadata): number {
    const slot = this.freeSlots.pop() ?? this.high++;
    if (slot >= this.cols.alive.length) this.growColumns(slot + 1);
    if ((this.live + 1) * 2 > this.buckets.length) this.rehash(this.buckets.length * 2);
    const h = hashId(id);
    this.cols.alive[slot] = 1;
    this.cols.hash[slot] = h;
    this.write(slot, id, metadata);
    const mask = this.buckets.length - 1;
    let i = h & mask;
    while (this.buckets[i] !== 0) i = (i + 1) & mask;
    this.buckets[i] = slot + 1;
    this.live++;
    return slot;
  }

  /** Points a live slot at its rows: `count` rows from `first` of `seg`, written for `version`. */
  place(slot: number, seg: Segment, first: number, count: number, version: number): void {
    this.refs.set(slot, seg);
    this.cols.first[slot] = first;
    this.cols.count[slot] = count;
    this.cols.version[slot] = version;
  }

  /** Frees a live slot: its id no longer maps to it. */
  free(slot: number): void {
    this.unlink(slot);
    this.cols.alive[slot] = 0;
    this.garbage += this.cols.idLen[slot] + this.cols.metaLen[slot];
    this.refs.set(slot, undefined);
    this.freeSlots.push(slot);
    this.live--;
    this.maybeCompact();
  }

  /** The id of a live slot, or undefined where the slot is free. */
  idOf(slot: number): string | undefined {
    if (!this.cols.alive[slot]) return undefined;
    const at = this.cols.at[slot];
    return this.bytes.toString('utf8', at, at + this.cols.idLen[slot]);
  }

  /** The metadata of a live slot (a new object on each call), or undefined where the slot is free. */
  metadataOf(slot: number): Metadata | undefined {
    if (!this.cols.alive[slot]) return undefined;
    const from = this.cols.at[slot] + this.cols.idLen[slot];
    return this.codec.decode(this.bytes, from, from + this.cols.metaLen[slot]);
  }

  /** Replaces a live slot's metadata. */
  setMetadata(slot: number, metadata: Metadata): void {
    const id = this.idOf(slot)!;
    this.garbage += this.cols.idLen[slot] + this.cols.metaLen[slot];
    this.write(slot, id, metadata);
    this.maybeCompact();
  }

  /** The live slots whose metadata holds `key`, with its value there (no other key is decoded). */
  *valuesOf(key: string): Iterable<readonly [number, MetadataValue]> {
    const id = this.codec.keyId(key);
    if (id === undefined) return;
    for (const slot of this.liveSlots()) {
      const from = this.cols.at[slot] + this.cols.idLen[slot];
      const v = this.codec.valueAt(this.bytes, from, from + this.cols.metaLen[slot], id);
      if (v !== undefined) yield [slot, v];
    }
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

  /** The segment a slot's rows are in (undefined where the slot is free or not yet placed). */
  segOf(slot: number): Segment | undefined {
    return this.refs.get(slot);
  }

  /** Whether `row` of `seg` is one of the live slot's rows. */
  holds(slot: number, seg: Segment, row: number): boolean {
    return this.refs.get(slot) === seg && row >= this.cols.first[slot] && row < this.cols.first[slot] + this.cols.count[slot];
  }

  /** Rows of a document as numbered over `segments` laid end to end ([] when it is in none of them). */
  rowsIn(id: string, segments: readonly Segment[]): number[] {
    const slot = this.slotOf(id);
    if (slot === undefined) return [];
    let base = 0;
    for (const s of segments) {
      if (s === this.refs.get(slot)) return Array.from({ length: this.count(slot) }, (_, i) => base + this.first(slot) + i);
      base += s.nRows;
    }
    return [];
  }

  /** The id of the document a row numbered over `segments` laid end to end was written for. */
  idOfRow(row: number, segments: readonly Segment[]): string | undefined {
    for (const s of segments) {
      if (row < s.nRows) return this.idOf(s.rowSlot[row]);
      row -= s.nRows;
    }
    return undefined;
  }

  /** Ids of the live documents, by slot. */
  *keys(): IterableIterator<string> {
    for (const slot of this.liveSlots()) yield this.idOf(slot)!;
  }

  /** A byte per slot handed out, 1 where the slot is live (a view of the table's column: read it before the next write). */
  liveMask(): Uint8Array {
    return this.cols.alive.subarray(0, this.high);
  }

  /** Slots of the live documents, in order. */
  *liveSlots(): IterableIterator<number> {
    const alive = this.cols.alive;
    for (let slot = 0; slot < this.high; slot++) if (alive[slot]) yield slot;
  }

  /**
   * The table's state (persist.ts writes it; restoreParts reads it back): its scalars, its codec's
   * keys, its buffer up to `used`, its buckets, its columns up to `high`, and each slot's segment
   * as an index into `segments` (-1: none).
   */
  parts(segments: readonly Segment[]): DocTableParts {
    const c = this.cols;
    const h = this.high;
    return {
      scalars: {
        used: this.used,
        garbage: this.garbage,
        live: this.live,
        high: h,
        keys: [...this.codec.keyList],
        freeSlots: [...this.freeSlots],
      },
      arrays: {
        bytes: this.bytes.subarray(0, this.used),
        buckets: this.buckets,
        alive: c.alive.subarray(0, h),
        hash: c.hash.subarray(0, h),
        at: c.at.subarray(0, h),
        idLen: c.idLen.subarray(0, h),
        metaLen: c.metaLen.subarray(0, h),
        version: c.version.subarray(0, h),
        first: c.first.subarray(0, h),
        count: c.count.subarray(0, h),
        segIndex: this.refs.indexes(segments, h),
      },
    };
  }

  /**
   * Takes the state parts() gave (the table must be empty); a slot's segment is `segments[segIndex]`.
   * The table keeps the parts' arrays as its own, uncopied (persist.ts reads them fresh; the caller
   * gives them up). An array may be longer than its content (bytes past `used`, columns and segment
   * ids past `high`, all zero): the table takes the rest as room, and grows past it at the first
   * write that needs more.
   */
  restoreParts({ scalars, arrays }: DocTableParts, segments: readonly Segment[]): void {
    if (this.high !== 0 || this.used !== 0) throw new Error('restoreParts: the table is not empty');
    const h = scalars.high;
    this.codec.restoreKeys(scalars.keys);
    this.bytes = Buffer.from(arrays.bytes.buffer, arrays.bytes.byteOffset, arrays.bytes.length);
    this.used = scalars.used;
    this.garbage = scalars.garbage;
    this.live = scalars.live;
    this.buckets = arrays.buckets;
    const n = Math.max(DOC_TABLE.initialSlots, h);
    const own = <T extends Uint32Array | Uint8Array>(a: T): T => (a.length >= n ? a : grown(a, n));
    this.cols = {
      alive: own(arrays.alive),
      hash: own(arrays.hash),
      at: own(arrays.at),
      idLen: own(arrays.idLen),
      metaLen: own(arrays.metaLen),
      version: own(arrays.version),
      first: own(arrays.first),
      count: own(arrays.count),
    };
    this.high = h;
    this.freeSlots.push(...scalars.freeSlots);
    this.refs.restore(arrays.segIndex, h, segments, n);
  }

  /** Empties the table, letting go of its memory. */
  clear(): void {
    this.cols = emptyColumns();
    this.buckets = new Int32Array(DOC_TABLE.initialSlots * 2);
    this.bytes = Buffer.alloc(DOC_TABLE.initialBytes);
    this.used = 0;
    this.garbage = 0;
    this.live = 0;
    this.high = 0;
    this.refs.clear(DOC_TABLE.initialSlots);
    this.freeSlots.length = 0;
  }

  /** Whether the live slot's id is `id`, comparing bytes with code units where the id is ASCII. */
  private idIs(slot: number, id: string): boolean {
    const at = this.cols.at[slot];
    const n = this.cols.idLen[slot];
    if (n < id.length) return false;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      if (c >= 0x80) return this.idOf(slot) === id;
      if (this.bytes[at + i] !== c) return false;
    }
    return n === id.length;
  }

  /**
   * Appends the slot's id and metadata to the buffer and points the slot at them. Whatever bytes the
   * slot pointed at before are already counted as garbage (by free or setMetadata).
   */
  private write(slot: number, id: string, metadata: Metadata): void {
    // a compaction below copies nothing of this slot
    this.cols.at[slot] = 0;
    this.cols.idLen[slot] = 0;
    this.cols.metaLen[slot] = 0;
    const w = this.writer;
    w.reset();
    w.text(id);
    const idLen = w.pos;
    this.codec.encode(metadata, w);
    if (this.used + w.pos > this.bytes.length) this.compact(w.pos);
    w.buf.copy(this.bytes, this.used, 0, w.pos);
    this.cols.at[slot] = this.used;
    this.cols.idLen[slot] = idLen;
    this.cols.metaLen[slot] = w.pos - idLen;
    this.used += w.pos;
  }

  /** Removes a live slot from its bucket, shifting back the entries after it that probed past it. */
  private unlink(slot: number): void {
    const b = this.buckets;
    const mask = b.length - 1;
    let i = this.cols.hash[slot] & mask;
    while (b[i] !== slot + 1) i = (i + 1) & mask;
    for (let j = (i + 1) & mask; b[j] !== 0; j = (j + 1) & mask) {
      const home = this.cols.hash[b[j] - 1] & mask;
      // the entry at j may move to the hole at i unless its home lies cyclically in (i, j]
      const stays = i <= j ? home > i && home <= j : home > i || home <= j;
      if (stays) continue;
      b[i] = b[j];
      i = j;
    }
    b[i] = 0;
  }

  private rehash(size: number): void {
    const b = new Int32Array(size);
    const mask = size - 1;
    for (const slot of this.liveSlots()) {
      let i = this.cols.hash[slot] & mask;
      while (b[i] !== 0) i = (i + 1) & mask;
      b[i] = slot + 1;
    }
    this.buckets = b;
  }

  private maybeCompact(): void {
    if (this.garbage >= DOC_TABLE.compactMinBytes && this.garbage * 2 > this.used) this.compact(0);
  }

  /**
   * Copies the live slots' bytes into a new buffer with room for `extra` more, at least the live
   * bytes times DOC_TABLE.slack (so that appends do not copy again soon); in one copy when no byte
   * is garbage (a table only appended to, or just restored).
   */
  private compact(extra: number): void {
    const live = this.used - this.garbage;
    const size = Math.max(DOC_TABLE.initialBytes, Math.ceil((live + extra) * DOC_TABLE.slack));
    const next = Buffer.alloc(size);
    if (this.garbage === 0) {
      // every byte below `used` is a live slot's: copied as it lies, each slot's offset stays
      this.bytes.copy(next, 0, 0, this.used);
      this.bytes = next;
      return;
    }
    let pos = 0;
    for (const slot of this.liveSlots()) {
      const at = this.cols.at[slot];
      const n = this.cols.idLen[slot] + this.cols.metaLen[slot];
      this.bytes.copy(next, pos, at, at + n);
      this.cols.at[slot] = pos;
      pos += n;
    }
    this.bytes = next;
    this.used = pos;
    this.garbage = 0;
  }

  private growColumns(min: number): void {
    const n = Math.max(min, this.cols.alive.length * 2);
    this.refs.grow(n);
    const c = this.cols;
    this.cols = {
      alive: grown(c.alive, n),
      hash: grown(c.hash, n),
      at: grown(c.at, n),
      idLen: grown(c.idLen, n),
      metaLen: grown(c.metaLen, n),
      version: grown(c.version, n),
      first: grown(c.first, n),
      count: grown(c.count, n),
    };
  }
}
