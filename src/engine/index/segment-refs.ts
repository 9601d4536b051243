// The segment each slot of the document table (doc-table.ts) points at, as a small id in a typed
// column rather than a reference per slot: ten million slots take 40 MB outside the JavaScript heap,
// not ten million pointers that V8 marks at every full collection, and a snapshot writes and reads
// the column in one pass. Ids are counted, so a segment no slot points at any more (merged away,
// or its documents replaced) is let go and its id reused.
// Invariants: ids[slot] is 0 (no segment) or 1 + an index of `list` whose entry is defined, and each
// entry's count is the number of slots whose id names it.
import type { Segment } from './types.js';

export class SegmentRefs {
  private ids: Int32Array<ArrayBuffer>;
  private readonly list: Array<Segment | undefined> = [];
  private readonly uses: number[] = [];
  private readonly idOf = new Map<Segment, number>();
  private readonly spare: number[] = [];

  constructor(slots: number) {
    this.ids = new Int32Array(slots);
  }

  /** The segment slot `slot` points at, or undefined. */
  get(slot: number): Segment | undefined {
    const id = this.ids[slot];
    return id === 0 ? undefined : this.list[id - 1];
  }

  /** Points `slot` at `seg` (undefined: at none). */
  set(slot: number, seg: Segment | undefined): void {
    const was = this.ids[slot];
    if (was !== 0 && this.list[was - 1] === seg) return;
    if (was !== 0) this.release(was - 1);
    this.ids[slot] = seg === undefined ? 0 : this.acquire(seg) + 1;
  }

  /** Room for `slots` slots (never less than held). */
  grow(slots: number): void {
    if (slots <= this.ids.length) return;
    const ids = new Int32Array(slots);
    ids.set(this.ids);
    this.ids = ids;
  }

  /** Each of the first `high` slots' segment as an index into `segments` (-1: none, or a segment not among them). */
  indexes(segments: readonly Segment[], high: number): Int32Array<ArrayBuffer> {
    const at = new Map(segments.map((s, i) => [s, i]));
    const byId = Int32Array.from(this.list, (s) => (s === undefined ? -1 : (at.get(s) ?? -1)));
    const out = new Int32Array(high);
    for (let slot = 0; slot < high; slot++) {
      const id = this.ids[slot];
      out[slot] = id === 0 ? -1 : byId[id - 1];
    }
    return out;
  }

  /**
   * Takes what indexes() gave for `segments` in its first `high` entries (the refs must be empty;
   * any past them zero), keeping the array as its column (rewritten in place; the caller gives it
   * up), with room for `slots` slots.
   */
  restore(indexes: Int32Array<ArrayBuffer>, high: number, segments: readonly Segment[], slots: number): void {
    if (this.list.length !== 0) throw new Error('SegmentRefs.restore: not empty');
    segments.forEach((s, i) => {
      this.list.push(s);
      this.uses.push(0);
      this.idOf.set(s, i);
    });
    for (let slot = 0; slot < high; slot++) {
      const i = indexes[slot];
      if (i >= 0 && i < segments.length) {
        indexes[slot] = i + 1;
        this.uses[i]++;
      } else indexes[slot] = 0;
    }
    this.ids = indexes;
    this.grow(slots);
    segments.forEach((_, i) => {
      if (this.uses[i] === 0) this.letGo(i);
    });
  }

  /** Forgets every slot and segment. */
  clear(slots: number): void {
    this.ids = new Int32Array(slots);
    this.list.length = 0;
    this.uses.length = 0;
    this.idOf.clear();
    this.spare.length = 0;
  }

  private acquire(seg: Segment): number {
    let id = this.idOf.get(seg);
    if (id === undefined) {
      id = this.spare.pop() ?? this.list.length;
      this.list[id] = seg;
      this.uses[id] = 0;
      this.idOf.set(seg, id);
    }
    this.uses[id]++;
    return id;
  }

  /** One slot fewer points at `id`'s segment; at none, the segment is let go. */
  private release(id: number): void {
    if (--this.uses[id] === 0) this.letGo(id);
  }

  /** Forgets `id`'s segment (no slot points at it) and keeps the id for the next one. */
  private letGo(id: number): void {
    const seg = this.list[id];
    if (seg !== undefined) this.idOf.delete(seg);
    this.list[id] = undefined;
    this.uses[id] = 0;
    this.spare.push(id);
  }
}
