// Metadata equality index of one store: (key, typed value) -> document slots. A filter matches a
// document when every pair matches, comparing values with their type (1 is not "1").
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

  /** Slots of the documents matching every pair; an empty filter is not a filter (undefined). */
  match(filter: Metadata | undefined): Set<number> | undefined {
    const pairs = Object.entries(filter ?? {});
    if (pairs.length === 0) return undefined;
    const sets = pairs.map(([k, v]) => this.byKey.get(k)?.get(valueKey(v)) ?? new Set<number>());
    sets.sort((a, b) => a.size - b.size);
    const out = new Set<number>();
    for (const s of sets[0]) if (sets.every((x) => x.has(s))) out.add(s);
    return out;
  }
}
