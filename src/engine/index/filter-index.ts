// Metadata equality index of one store: (key, typed value) -> document slots, comparing values with
// their type (1 is not "1"). It narrows a filter's candidates (filter.ts equalityTerms); the filter's
// predicate decides.
import type { Metadata, MetadataValue } from '../types.js';

const valueKey = (v: MetadataValue) => `${typeof v}:${String(v)}`;

export class FilterIndex {
  private readonly byKey = new Map<string, Map<string, Set<number>>>();

  add(slot: number, metadata: Metadata): void {
    for (const [k, v] of Object.entries(metadata)) {
      let values = this.byKey.get(k);
      if (!values) {
        values = new Map();
        this.byKey.set(k, values);
      }
      const vk = valueKey(v);
      let slots = values.get(vk);
      if (!slots) {
        slots = new Set();
        values.set(vk, slots);
      }
      slots.add(slot);
    }
  }

  remove(slot: number, metadata: Metadata): void {
    for (const [k, v] of Object.entries(metadata)) {
      const values = this.byKey.get(k);
      const slots = values?.get(valueKey(v));
      if (!slots) continue;
      slots.delete(slot);
      if (slots.size === 0) values!.delete(valueKey(v));
      if (values!.size === 0) this.byKey.delete(k);
    }
  }

  /** Slots whose metadata has, for every term, one of its values under its key. */
  candidates(terms: Array<[string, MetadataValue[]]>): Set<number> {
    const sets = terms.map(([k, values]) => {
      const byValue = this.byKey.get(k);
      if (values.length === 1) return byValue?.get(valueKey(values[0])) ?? new Set<number>();
      const union = new Set<number>();
      for (const v of values) for (const s of byValue?.get(valueKey(v)) ?? []) union.add(s);
      return union;
    });
    sets.sort((a, b) => a.size - b.size);
    const out = new Set<number>();
    for (const s of sets[0]) if (sets.every((x) => x.has(s))) out.add(s);
    return out;
  }
}
