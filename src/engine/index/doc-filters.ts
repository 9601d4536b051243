// The metadata side of one store index (main thread): which documents a filter matches, and the
// rows of a snapshot it excludes, laid out for a search. Invariants: the metadata index holds every
// document of the table under its current metadata (add, remove); the remembered exclusions are
// dropped on every change to the table (add, remove, changed), so a remembered layout is never
// older than the documents it was computed from.
import { INDEX } from '../params.js';
import type { Filter, Metadata } from '../types.js';
import type { DocTable } from './doc-table.js';
import { compileFilter } from './filter.js';
import { FilterIndex } from './filter-index.js';
import type { SlotSet } from './slot-sets.js';
import type { Segment } from './types.js';

export class DocFilters {
  private readonly index = new FilterIndex(
    (key) => this.table.valuesOf(key),
    () => this.table.liveMask(),
  );
  /** The rows costly filters exclude, per filter (by its JSON), with the snapshot they were laid out for and what evaluating them took. */
  private readonly cache = new Map<string, { segments: Segment[]; rows: Uint8Array; ms: number }>();
  /** Where the rows a cheap filter excludes are laid out (see blockedRows). */
  private scratch = new Uint8Array(0);

  constructor(private readonly table: DocTable) {}

  add(slot: number, metadata: Metadata): void {
    this.changed();
    this.index.add(slot, metadata);
  }

  remove(slot: number, metadata: Metadata): void {
    this.changed();
    this.index.remove(slot, metadata);
  }

  /** The table or its rows changed (a write, a merge): what was remembered of them is dropped. */
  changed(): void {
    this.cache.clear();
  }

  /**
   * One byte per global row of `snapshot`, 1 where the filter excludes the row; undefined for no
   * filter. A filter whose evaluation took INDEX.rememberMs or more is remembered while the
   * snapshot's segments are the same (a repeated filter then costs a copy, not a walk over its
   * documents); when too many are, the cheapest to evaluate again is dropped. Another is laid out in
   * one reused buffer: valid until the next call, and runSearch copies it before it awaits.
   */
  blockedRows(filter: Filter | undefined, snapshot: Segment[]): Uint8Array | undefined {
    if (!filter || Object.keys(filter).length === 0) return undefined;
    const key = JSON.stringify(filter);
    const hit = this.cache.get(key);
    if (hit && hit.segments.length === snapshot.length && hit.segments.every((s, i) => s === snapshot[i])) return hit.rows;
    const started = performance.now();
    const base = new Map<Segment, number>();
    let total = 0;
    for (const s of snapshot) {
      base.set(s, total);
      total += s.nRows;
    }
    if (this.scratch.length < total) this.scratch = new Uint8Array(total);
    const rows = this.scratch.subarray(0, total).fill(1);
    for (const slot of this.matchSlots(filter)!) {
      const seg = this.table.segOf(slot);
      const b = seg && base.get(seg);
      if (b === undefined) continue;
      // a document has a passage or two: a loop, not a call to fill per document
      for (let r = b + this.table.first(slot), end = r + this.table.count(slot); r < end; r++) rows[r] = 0;
    }
    const ms = performance.now() - started;
    if (ms < INDEX.rememberMs) return rows;
    this.cache.set(key, { segments: snapshot, rows: rows.slice(), ms });
    if (this.cache.size > INDEX.blockedCache) {
      const cheapest = [...this.cache].reduce((a, b) => (b[1].ms < a[1].ms ? b : a));
      this.cache.delete(cheapest[0]);
    }
    return this.cache.get(key)?.rows ?? rows;
  }

  /**
   * Slots of the documents a filter matches; undefined for an empty filter (no filtering). Where the
   * metadata index's candidates are exact (every operator is) they are the answer as they are (read
   * it before the next write); otherwise each candidate's metadata is decoded and tested.
   */
  matchSlots(filter: Filter | undefined): SlotSet | undefined {
    if (!filter || Object.keys(filter).length === 0) return undefined;
    const candidates = this.index.candidates(filter);
    if (candidates?.exact) return candidates.slots;
    const test = compileFilter(filter);
    const out = new Set<number>();
    for (const slot of candidates?.slots ?? this.table.liveSlots()) {
      const metadata = this.table.metadataOf(slot);
      if (metadata && test(metadata)) out.add(slot);
    }
    return out;
  }
}
