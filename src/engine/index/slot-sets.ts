// Sets of document slots as the metadata index combines them (filter-index.ts): a Set while it is
// small, a byte per slot of the table once it holds `bitsFrom` slots or more, so that a filter
// keeping most of a million documents ($ne, $not, a wide range) is built, intersected and
// complemented by loops over bytes rather than a million Set insertions. Invariants: `size` is the
// number of slots in the set; a byte set's bytes are 1 exactly at its slots; no operation changes
// its inputs (a value's own Set is handed out as it is, read-only).
export interface SlotSet extends Iterable<number> {
  readonly size: number;
  has(slot: number): boolean;
}

/** A set as a byte per slot (1: in). */
class SlotBytes implements SlotSet {
  constructor(
    readonly bytes: Uint8Array,
    readonly size: number,
  ) {}

  has(slot: number): boolean {
    return this.bytes[slot] === 1;
  }

  *[Symbol.iterator](): Iterator<number> {
    const b = this.bytes;
    for (let s = 0; s < b.length; s++) if (b[s] === 1) yield s;
  }
}

export const EMPTY: SlotSet = new Set<number>();

/** The slots of one metadata value: one document's slot, or the Set of several. */
export type Slots = number | Set<number>;

const sizeOf = (slots: Slots | SlotSet): number => (typeof slots === 'number' ? 1 : slots.size);

export class SlotSets {
  /**
   * `live`: a byte per slot of the table, 1 where the slot is live (its length is every slot handed
   * out); `bitsFrom`: the size from which a built set is bytes, not a Set.
   */
  constructor(
    private readonly live: () => Uint8Array,
    private readonly bitsFrom: number,
  ) {}

  /** One value's slots as a set. */
  of(slots: Slots | undefined): SlotSet {
    return slots === undefined ? EMPTY : typeof slots === 'number' ? new Set([slots]) : slots;
  }

  /** Every slot of some values' or sets' slots, in one set. */
  collect(parts: ReadonlyArray<Slots | SlotSet>): SlotSet {
    if (parts.length === 1 && typeof parts[0] !== 'number') return parts[0];
    const total = parts.reduce<number>((n, p) => n + sizeOf(p), 0);
    if (total >= this.bitsFrom) {
      const bytes = new Uint8Array(this.live().length);
      let size = 0;
      const put = (s: number) => {
        size += 1 - bytes[s];
        bytes[s] = 1;
      };
      for (const p of parts) {
        if (typeof p === 'number') put(p);
        else if (p instanceof SlotBytes) for (let s = 0; s < p.bytes.length; s++) p.bytes[s] === 1 && put(s);
        else for (const s of p) put(s);
      }
      return new SlotBytes(bytes, size);
    }
    const out = new Set<number>();
    for (const p of parts) {
      if (typeof p === 'number') out.add(p);
      else for (const s of p) out.add(s);
    }
    return out;
  }

  /** The slots in every one of `parts` (at least one). */
  intersect(parts: ReadonlyArray<SlotSet>): SlotSet {
    const [smallest, ...rest] = [...parts].sort((a, b) => a.size - b.size);
    if (rest.length === 0) return smallest;
    if (smallest instanceof SlotBytes) {
      // every part is as large: one pass over the bytes
      const bytes = smallest.bytes.slice();
      let size = 0;
      for (let s = 0; s < bytes.length; s++) {
        if (bytes[s] === 1 && !rest.every((p) => p.has(s))) bytes[s] = 0;
        size += bytes[s];
      }
      return this.sized(bytes, size);
    }
    const out = new Set<number>();
    for (const s of smallest) if (rest.every((p) => p.has(s))) out.add(s);
    return out;
  }

  /** The live slots not in `set`. */
  complement(set: SlotSet): SlotSet {
    const bytes = this.live().slice();
    let size = 0;
    for (let s = 0; s < bytes.length; s++) size += bytes[s];
    if (set instanceof SlotBytes) {
      for (let s = 0; s < bytes.length; s++) {
        if (bytes[s] === 1 && set.bytes[s] === 1) {
          bytes[s] = 0;
          size--;
        }
      }
    } else {
      for (const s of set) {
        size -= bytes[s];
        bytes[s] = 0;
      }
    }
    return this.sized(bytes, size);
  }

  /** Bytes holding `size` slots, as bytes or, when few, as a Set. */
  private sized(bytes: Uint8Array, size: number): SlotSet {
    const set = new SlotBytes(bytes, size);
    return size >= this.bitsFrom ? set : new Set(set);
  }
}
