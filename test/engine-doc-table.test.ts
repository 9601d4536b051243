// The store index's document table (src/engine/index/doc-table.ts): ids map to slots while they
// are live, freed slots are reused, and the columns keep every slot's rows through growth.
import t from 'tap';
import { DocTable } from '../src/engine/index/doc-table.js';
import type { Segment } from '../src/engine/index/index.js';

const seg = (id: number) => ({ id }) as unknown as Segment;

t.test('slots: put, place, free and reuse, past the first columns', async (t) => {
  const table = new DocTable();
  const a = seg(1);
  const b = seg(2);
  const n = 5000;
  const slots: number[] = [];
  for (let i = 0; i < n; i++) {
    const slot = table.put(`d${i}`, { i });
    slots.push(slot);
    table.place(slot, i % 2 ? a : b, 3 * i, 1 + (i % 3), 100 + i);
  }
  t.same(slots, [...slots.keys()], 'slots are handed out in order');
  t.equal(table.size, n);
  const slot = table.slotOf('d4321')!;
  t.same(
    [table.ids[slot], table.metadata[slot], table.segs[slot], table.first(slot), table.count(slot), table.version(slot)],
    ['d4321', { i: 4321 }, a, 12963, 2, 4421],
    'each column kept its value through the growth',
  );
  t.ok(table.holds(slot, a, 12964) && !table.holds(slot, a, 12965) && !table.holds(slot, b, 12963), 'holds: its segment and its rows only');

  table.free(slot);
  t.equal(table.slotOf('d4321'), undefined, 'a freed slot maps no id');
  t.equal(table.ids[slot], undefined);
  t.equal(table.size, n - 1);
  t.notOk([...table.liveSlots()].includes(slot), '... and is not live');
  t.equal(table.put('new', {}), slot, 'the next put reuses it');
  t.equal(table.slotOf('new'), slot);
  t.equal(table.put('newer', {}), n, 'then the columns go on');
  t.same([...table.keys()].slice(-2), ['new', 'newer']);
  table.clear();
  t.equal(table.size, 0);
  t.equal(table.put('again', {}), 0, 'a cleared table starts over');
});
