// Metadata index of one store: (key, typed value) -> document slots, comparing values with their
// type (1 is not "1"), and per key its values in order (numbers numerically, strings by code point),
// built when a range asks for them and dropped when a write touches the key. It narrows a filter to
// candidates; the filter's predicate decides where they are not exact. A key is indexed from the
// first filter that names it on (read from every document then, `every`): the keys no filter names,
// a title say, cost nothing. A value held by one document
// keeps its slot as a plain number (most values of a key such as a title are unique, and a Set per
// document is the larger part of the index); a Map keyed by the values themselves keeps 1 apart
// from "1" and true from "true" (SameValueZero) without a key string per document. Invariants: `candidates`
// never leaves out a slot whose metadata the filter matches (it answers undefined where it cannot
// narrow: $ne, $nin, $not, $exists: false); when it says `exact`, its slots are the matches, no more
// (equality, $in, ranges, $exists: true, and $and/$or/keys made only of them); `every` yields the
// documents added and not removed since, so an indexed key holds what add/remove alone would have.
import type { Filter, FilterCondition, Metadata, MetadataValue } from '../types.js';
import { compareCodePoints } from './filter.js';

const EMPTY: ReadonlySet<number> = new Set();

/** The slots of one value: one document's slot, or the Set of several. */
type Slots = number | Set<number>;

const asSet = (slots: Slots | undefined): ReadonlySet<number> =>
  slots === undefined ? EMPTY : typeof slots === 'number' ? new Set([slots]) : slots;

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
  slots: ReadonlySet<number>;
  exact: boolean;
}

const exactly = (slots: ReadonlySet<number>): Narrowed => ({ slots, exact: true });

export class FilterIndex {
  /** per indexed key, its values with their slots (absent while no document has the key) */
  private readonly byKey = new Map<string, Map<MetadataValue, Slots>>();
  /** the keys a filter has named: those add() and remove() keep */
  private readonly indexed = new Set<string>();
  /** per key, its numbers and strings in order (absent until a range asks; dropped by a write to the key) */
  private readonly sorted = new Map<string, { num: Sorted<number>; str: Sorted<string> }>();

  /** `every`: the slot and metadata of every document of the table (added and not removed since). */
  constructor(private readonly every: () => Iterable<readonly [number, Metadata]>) {}

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
      if (key === '$and') parts.push(intersect((value as Filter[]).map((f) => this.candidates(f))));
      else if (key === '$or') parts.push(union((value as Filter[]).map((f) => this.candidates(f))));
      else if (key === '$not') parts.push(undefined);
      else {
        const v = value as MetadataValue | FilterCondition;
        parts.push(typeof v === 'object' ? this.condition(key, v) : this.equal(key, [v]));
      }
    }
    return intersect(parts);
  }

  /** A key's values with their slots, indexed from every document the first time a filter names it. */
  private valuesOf(key: string): Map<MetadataValue, Slots> | undefined {
    if (!this.indexed.has(key)) {
      this.indexed.add(key);
      for (const [slot, metadata] of this.every()) {
        if (Object.hasOwn(metadata, key)) this.addValue(key, metadata[key], slot);
      }
    }
    return this.byKey.get(key);
  }

  private equal(key: string, values: MetadataValue[]): Narrowed {
    const byValue = this.valuesOf(key);
    return union(values.map((v) => exactly(asSet(byValue?.get(v)))))!;
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
      if (type === 'number') parts.push(exactly(range(s.num, c as Record<string, number | undefined>, numCmp)));
      else parts.push(exactly(range(s.str, c as Record<string, string | undefined>, compareCodePoints)));
    }
    if (c.$exists === true) parts.push(exactly(collect(this.valuesOf(key)?.values() ?? [])));
    // what the index cannot narrow leaves the rest a superset
    if (c.$ne !== undefined || c.$nin !== undefined || c.$exists === false) parts.push(undefined);
    return intersect(parts);
  }

  private sortedOf(key: string): { num: Sorted<number>; str: Sorted<string> } {
    let s = this.sorted.get(key);
    if (!s) {
      const nums: Array<[number, Slots]> = [];
      const strs: Array<[string, Slots]> = [];
      for (const [v, slots] of this.valuesOf(key) ?? []) {
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
function range<T>(s: Sorted<T>, c: { $gt?: T; $gte?: T; $lt?: T; $lte?: T }, cmp: (a: T, b: T) => number): ReadonlySet<number> {
  let from = 0;
  let to = s.values.length;
  if (c.$gt !== undefined) from = Math.max(from, lowerBound(s.values, c.$gt, cmp, true));
  if (c.$gte !== undefined) from = Math.max(from, lowerBound(s.values, c.$gte, cmp, false));
  if (c.$lt !== undefined) to = Math.min(to, lowerBound(s.values, c.$lt, cmp, false));
  if (c.$lte !== undefined) to = Math.min(to, lowerBound(s.values, c.$lte, cmp, true));
  return to - from === 1 ? asSet(s.slots[from]) : collect(s.slots.slice(from, Math.max(from, to)));
}

/** Every slot of some values, in one Set. */
function collect(values: Iterable<Slots>): ReadonlySet<number> {
  const out = new Set<number>();
  for (const slots of values) {
    if (typeof slots === 'number') out.add(slots);
    else for (const x of slots) out.add(x);
  }
  return out;
}

/** The union, exact when every part is; undefined when any is unknown (undefined) or there is none. */
function union(parts: Array<Narrowed | undefined>): Narrowed | undefined {
  if (parts.length === 0) return exactly(EMPTY);
  if (parts.some((p) => p === undefined)) return undefined;
  const known = parts as Narrowed[];
  const exact = known.every((p) => p.exact);
  if (known.length === 1) return known[0];
  const out = new Set<number>();
  for (const p of known) for (const x of p.slots) out.add(x);
  return { slots: out, exact };
}

/** The intersection of the known parts (exact when every part is known and exact), or undefined when none is known. */
function intersect(parts: Array<Narrowed | undefined>): Narrowed | undefined {
  const known = parts.filter((p): p is Narrowed => p !== undefined).sort((a, b) => a.slots.size - b.slots.size);
  if (known.length === 0) return undefined;
  const exact = known.length === parts.length && known.every((p) => p.exact);
  if (known.length === 1) return { slots: known[0].slots, exact };
  const out = new Set<number>();
  for (const x of known[0].slots) if (known.every((p) => p.slots.has(x))) out.add(x);
  return { slots: out, exact };
}
