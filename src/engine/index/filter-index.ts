// Metadata index of one store: (key, typed value) -> document slots, comparing values with their
// type (1 is not "1"), and per key its values in order (numbers numerically, strings by code point),
// built when a range asks for them and dropped when a write touches the key. It answers a filter
// with the slots it matches; the filter's predicate decides only where a part is empty. A key is
// indexed from the first filter that names it on (its value read from every document holding it
// then, `valuesOf`): the keys no filter names, a title say, cost nothing. A value held by one
// document keeps its slot as a plain number (most values of a key such as a title are unique, and a
// Set per document is the larger part of the index); a Map keyed by the values themselves keeps 1
// apart from "1" and true from "true" (SameValueZero) without a key string per document. $ne and
// $nin read a key's values (a present value of the operand's type, not among the operands), and
// $exists: false and $not take the complement among the live documents (`live`). Invariants:
// `candidates` never leaves out a slot whose metadata the filter matches; when it says `exact`, its
// slots are the matches, no more (every operator is exact: only a part that is an empty filter or
// condition, which narrows nothing, is not; undefined for an empty filter); `valuesOf` and `live`
// read the documents added and not removed since, so an indexed key holds what add/remove alone
// would have.
import { INDEX } from '../params.js';
import type { Filter, FilterCondition, Metadata, MetadataValue } from '../types.js';
import { compareCodePoints } from './filter.js';
import { EMPTY, type SlotSet, SlotSets, type Slots } from './slot-sets.js';

/** A key's values of one type in order, each with its slots. */
interface Sorted<T> {
  values: T[];
  slots: Slots[];
}

/** First index in `values` (ascending by `cmp`) whose value is not below `v` (`strict`: above `v`). */
function lowerBound<T>(values: T[], v: T, cmp: (a: T, b: T) => number, strict: boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = cmp(values[mid], v);
    if (c < 0 || (strict && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const numCmp = (a: number, b: number) => a - b;

/** Slots a filter may match; `exact`: they all match. Undefined where the index cannot narrow. */
export interface Narrowed {
  slots: SlotSet;
  exact: boolean;
}

const exactly = (slots: SlotSet): Narrowed => ({ slots, exact: true });

export class FilterIndex {
  /** per indexed key, its values with their slots (absent while no document has the key) */
  private readonly byKey = new Map<string, Map<MetadataValue, Slots>>();
  /** the keys a filter has named: those add() and remove() keep */
  private readonly indexed = new Set<string>();
  /** per key, its numbers and strings in order (absent until a range asks; dropped by a write to the key) */
  private readonly sorted = new Map<string, { num: Sorted<number>; str: Sorted<string> }>();

  private readonly sets: SlotSets;

  /**
   * `valuesOf(key)`: the slot and value of every document of the table holding `key`; `live`: a byte
   * per slot of the table, 1 where a document is (both: the documents added and not removed since);
   * `bitsFrom`: the size from which a set of slots is built as bytes (slot-sets.ts).
   */
  constructor(
    private readonly valuesOf: (key: string) => Iterable<readonly [number, MetadataValue]>,
    live: () => Uint8Array,
    bitsFrom: number = INDEX.slotBytesFrom,
  ) {
    this.sets = new SlotSets(live, bitsFrom);
  }

  add(slot: number, metadata: Metadata): void {
    for (const [k, v] of Object.entries(metadata)) {
      if (this.indexed.has(k)) this.addValue(k, v, slot);
    }
  }

  private addValue(k: string, v: MetadataValue, slot: number): void {
    let values = this.byKey.get(k);
    if (!values) {
      values = new Map();
      this.byKey.set(k, values);
    }
    const slots = values.get(v);
    if (typeof slots === 'object') {
      // a new slot of a value that has a Set lands in the Set the order holds
      slots.add(slot);
      return;
    }
    values.set(v, slots === undefined ? slot : new Set([slots, slot]));
    // a new value, or a value's first Set, changes what the key's order holds
    this.sorted.delete(k);
  }

  remove(slot: number, metadata: Metadata): void {
    for (const [k, v] of Object.entries(metadata)) {
      if (!this.indexed.has(k)) continue;
      const values = this.byKey.get(k);
      const slots = values?.get(v);
      if (slots === undefined) continue;
      if (typeof slots === 'object') {
        slots.delete(slot);
        if (slots.size > 0) continue;
      } else if (slots !== slot) continue;
      values!.delete(v);
      this.sorted.delete(k);
      if (values!.size === 0) this.byKey.delete(k);
    }
  }

  /** A superset of the slots the filter matches (the very slots when `exact`), or undefined when the index cannot narrow it. */
  candidates(filter: Filter): Narrowed | undefined {
    const parts: Array<Narrowed | undefined> = [];
    for (const [key, value] of Object.entries(filter)) {
      if (value === undefined) continue;
      if (key === '$and') parts.push(this.intersect((value as Filter[]).map((f) => this.candidates(f))));
      else if (key === '$or') parts.push(this.union((value as Filter[]).map((f) => this.candidates(f))));
      else if (key === '$not') parts.push(this.complement(this.candidates(value as Filter)));
      else {
        const v = value as MetadataValue | FilterCondition;
        parts.push(typeof v === 'object' ? this.condition(key, v) : this.equal(key, [v]));
      }
    }
    return this.intersect(parts);
  }

  /** A key's values with their slots, indexed from every document the first time a filter names it. */
  private slotsOf(key: string): Map<MetadataValue, Slots> | undefined {
    if (!this.indexed.has(key)) {
      this.indexed.add(key);
      for (const [slot, v] of this.valuesOf(key)) this.addValue(key, v, slot);
    }
    return this.byKey.get(key);
  }

  private equal(key: string, values: MetadataValue[]): Narrowed {
    const byValue = this.slotsOf(key);
    return this.union(values.map((v) => exactly(this.sets.of(byValue?.get(v)))))!;
  }

  /** The slots whose value of `key` has one of `types` and is not one of `except`. */
  private otherValues(key: string, types: ReadonlySet<string>, except: ReadonlySet<MetadataValue>): Narrowed {
    const kept: Slots[] = [];
    for (const [v, slots] of this.slotsOf(key) ?? []) if (types.has(typeof v) && !except.has(v)) kept.push(slots);
    return exactly(this.sets.collect(kept));
  }

  /** The live slots an exact part leaves out; undefined (no narrowing) for an inexact or unknown part. */
  private complement(part: Narrowed | undefined): Narrowed | undefined {
    return part?.exact ? exactly(this.sets.complement(part.slots)) : undefined;
  }

  private condition(key: string, c: FilterCondition): Narrowed | undefined {
    const parts: Array<Narrowed | undefined> = [];
    if (c.$eq !== undefined) parts.push(this.equal(key, [c.$eq]));
    if (c.$in !== undefined) parts.push(this.equal(key, c.$in));
    const bounds = [c.$gt, c.$gte, c.$lt, c.$lte].filter((b) => b !== undefined);
    if (bounds.length) {
      // one type per range: bounds of two types match nothing (a value has one type)
      const type = typeof bounds[0];
      if (bounds.some((b) => typeof b !== type)) return exactly(EMPTY);
      const s = this.sortedOf(key);
      const within =
        type === 'number'
          ? inRange(s.num, c as Record<string, number | undefined>, numCmp)
          : inRange(s.str, c as Record<string, string | undefined>, compareCodePoints);
      parts.push(exactly(this.sets.collect(within)));
    }
    if (c.$ne !== undefined) parts.push(this.otherValues(key, new Set([typeof c.$ne]), new Set([c.$ne])));
    if (c.$nin !== undefined) parts.push(this.otherValues(key, new Set(c.$nin.map((v) => typeof v)), new Set(c.$nin)));
    if (c.$exists !== undefined) {
      const holding = exactly(this.sets.collect([...(this.slotsOf(key)?.values() ?? [])]));
      parts.push(c.$exists ? holding : this.complement(holding));
    }
    return this.intersect(parts);
  }

  /** The union, exact when every part is; undefined when any is unknown (undefined) or there is none. */
  private union(parts: Array<Narrowed | undefined>): Narrowed | undefined {
    if (parts.length === 0) return exactly(EMPTY);
    if (parts.some((p) => p === undefined)) return undefined;
    const known = parts as Narrowed[];
    if (known.length === 1) return known[0];
    return { slots: this.sets.collect(known.map((p) => p.slots)), exact: known.every((p) => p.exact) };
  }

  /** The intersection of the known parts (exact when every part is known and exact), or undefined when none is known. */
  private intersect(parts: Array<Narrowed | undefined>): Narrowed | undefined {
    const known = parts.filter((p): p is Narrowed => p !== undefined);
    if (known.length === 0) return undefined;
    const exact = known.length === parts.length && known.every((p) => p.exact);
    return { slots: this.sets.intersect(known.map((p) => p.slots)), exact };
  }

  private sortedOf(key: string): { num: Sorted<number>; str: Sorted<string> } {
    let s = this.sorted.get(key);
    if (!s) {
      const nums: Array<[number, Slots]> = [];
      const strs: Array<[string, Slots]> = [];
      for (const [v, slots] of this.slotsOf(key) ?? []) {
        if (typeof v === 'number') nums.push([v, slots]);
        else if (typeof v === 'string') strs.push([v, slots]);
      }
      nums.sort((a, b) => a[0] - b[0]);
      strs.sort((a, b) => compareCodePoints(a[0], b[0]));
      s = {
        num: { values: nums.map((e) => e[0]), slots: nums.map((e) => e[1]) },
        str: { values: strs.map((e) => e[0]), slots: strs.map((e) => e[1]) },
      };
      this.sorted.set(key, s);
    }
    return s;
  }
}

/** The slots of the values within a condition's bounds. */
function inRange<T>(s: Sorted<T>, c: { $gt?: T; $gte?: T; $lt?: T; $lte?: T }, cmp: (a: T, b: T) => number): Slots[] {
  let from = 0;
  let to = s.values.length;
  if (c.$gt !== undefined) from = Math.max(from, lowerBound(s.values, c.$gt, cmp, true));
  if (c.$gte !== undefined) from = Math.max(from, lowerBound(s.values, c.$gte, cmp, false));
  if (c.$lt !== undefined) to = Math.min(to, lowerBound(s.values, c.$lt, cmp, false));
  if (c.$lte !== undefined) to = Math.min(to, lowerBound(s.values, c.$lte, cmp, true));
  return s.slots.slice(from, Math.max(from, to));
}
