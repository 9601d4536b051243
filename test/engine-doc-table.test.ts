// The store index's document table (src/engine/index/doc-table.ts, metadata-codec.ts): ids map to
// slots while they are live, freed slots are reused, the columns keep every slot's rows through
// growth, and ids and metadata read back from the table's bytes exactly as they were given, through
// any sequence of puts, frees and metadata changes (checked against a Map); a table restored from
// its parts, which it keeps uncopied, reads and takes writes as the original; a slot's segment is a
// counted id, and a segment no slot points at is let go.
import { Buffer } from 'node:buffer';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import t from 'tap';
import { DocTable } from '../src/engine/index/doc-table.js';
import type { Segment } from '../src/engine/index/index.js';
import { ByteWriter, MetadataCodec } from '../src/engine/index/metadata-codec.js';
import { SegmentRefs } from '../src/engine/index/segment-refs.js';
import type { Metadata } from '../src/engine/types.js';

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
    [table.idOf(slot), table.metadataOf(slot), table.segOf(slot), table.first(slot), table.count(slot), table.version(slot)],
    ['d4321', { i: 4321 }, a, 12963, 2, 4421],
    'each column kept its value through the growth',
  );
  t.ok(table.holds(slot, a, 12964) && !table.holds(slot, a, 12965) && !table.holds(slot, b, 12963), 'holds: its segment and its rows only');
  t.not(table.metadataOf(slot), table.metadataOf(slot), 'each read decodes a new object: a caller cannot change the table');

  table.free(slot);
  t.equal(table.slotOf('d4321'), undefined, 'a freed slot maps no id');
  t.equal(table.idOf(slot), undefined);
  t.equal(table.metadataOf(slot), undefined);
  t.equal(table.size, n - 1);
  t.notOk([...table.liveSlots()].includes(slot), '... and is not live');
  t.equal(table.put('new', {}), slot, 'the next put reuses it');
  t.equal(table.slotOf('new'), slot);
  t.equal(table.put('newer', {}), n, 'then the columns go on');
  t.same([...table.keys()].slice(-1), ['newer']);
  t.equal([...table.keys()][slot], 'new', 'keys come by slot');
  table.clear();
  t.equal(table.size, 0);
  t.equal(table.slotOf('new'), undefined);
  t.equal(table.put('again', {}), 0, 'a cleared table starts over');
});

t.test('metadata: every kind of value reads back, one key at a time or whole', async (t) => {
  const codec = new MetadataCodec();
  const w = new ByteWriter();
  const m: Metadata = {
    title: 'Zürich 😀',
    empty: '',
    yes: true,
    no: false,
    zero: 0,
    small: 127,
    big: 2 ** 31 - 1,
    bigger: 2 ** 31,
    neg: -5,
    most: Number.MAX_SAFE_INTEGER,
    least: -Number.MAX_VALUE,
    frac: 0.1,
    long: 'x'.repeat(70_000),
    '': 'an empty key',
  };
  codec.encode(m, w);
  const bytes = Buffer.from(w.buf.subarray(0, w.pos));
  const back = codec.decode(bytes, 0, bytes.length);
  t.same(back, m);
  t.same(Object.keys(back), Object.keys(m), 'the keys in the given order (integer-like keys aside, as in any object)');
  for (const [k, v] of Object.entries(m))
    t.equal(codec.valueAt(bytes, 0, bytes.length, codec.keyId(k)!), v, `valueAt ${k || '(empty key)'}`);
  t.equal(codec.keyId('absent'), undefined, 'a key never encoded has no number');
  t.ok(bytes.length < 70_200, 'small integers and booleans take a few bytes');

  const proto = JSON.parse('{"__proto__": 1, "a": 2}') as Metadata;
  w.reset();
  codec.encode(proto, w);
  const p = codec.decode(Buffer.from(w.buf.subarray(0, w.pos)), 0, w.pos);
  t.same(
    Object.entries(p),
    [
      ['__proto__', 1],
      ['a', 2],
    ],
    'a __proto__ key comes back an own property, as JSON.parse makes it',
  );
  t.equal(Object.getPrototypeOf(p), Object.prototype);
});

t.test('random puts, frees and metadata changes agree with a Map', async (t) => {
  // long ids, so that the bytes pass the compaction threshold
  const fillId = (i: number) => `fill-${i}-${'y'.repeat(i % 800)}`;
  const id = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('é', 'ü1', '漢字', '😀', 'a'.repeat(300)),
    fc.integer({ min: 0, max: 40 }).map((i) => `doc-${i}`),
  );
  const value = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.double({ noNaN: true }), fc.boolean());
  const meta = fc.dictionary(fc.constantFrom('title', 'year', 'k', 'é'), value, { maxKeys: 3, noNullPrototype: true });
  const op = fc.oneof(
    fc.record({ put: id, m: meta }),
    fc.record({ free: id }),
    fc.record({ set: id, m: meta }),
    fc.record({ fill: fc.integer({ min: 1, max: 2500 }) }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const table = new DocTable();
      const ref = new Map<string, Metadata>();
      const norm = (m: Metadata) => JSON.parse(JSON.stringify(m)) as Metadata;
      const put = (i: string, m: Metadata) => {
        const s = table.slotOf(i);
        if (s !== undefined) table.free(s);
        table.put(i, m);
        ref.set(i, norm(m));
      };
      for (const o of ops) {
        if ('put' in o) put(o.put, o.m);
        else if ('free' in o) {
          const s = table.slotOf(o.free);
          if (s !== undefined) table.free(s);
          ref.delete(o.free);
        } else if ('set' in o) {
          const s = table.slotOf(o.set);
          if (s !== undefined) {
            table.setMetadata(s, o.m);
            ref.set(o.set, norm(o.m));
          }
        } else {
          // many documents then most of them gone: the hash table grows and the bytes are compacted
          for (let i = 0; i < o.fill; i++) put(fillId(i), { title: `t${i}` });
          for (let i = 0; i < o.fill; i++) {
            if (i % 10 === 0) continue;
            table.free(table.slotOf(fillId(i))!);
            ref.delete(fillId(i));
          }
        }
      }
      if (table.size !== ref.size) return false;
      for (const [i, m] of ref) {
        const s = table.slotOf(i);
        if (s === undefined || table.idOf(s) !== i) return false;
        if (JSON.stringify(norm(table.metadataOf(s)!)) !== JSON.stringify(m)) return false;
      }
      if ([...table.keys()].sort().join('\n') !== [...ref.keys()].sort().join('\n')) return false;
      const titles = new Map([...table.valuesOf('title')].map(([s, v]) => [table.idOf(s)!, v]));
      const want = [...ref].filter(([, m]) => Object.hasOwn(m, 'title'));
      return titles.size === want.length && want.every(([i, m]) => titles.get(i) === m.title);
    }),
    { numRuns: 100 },
  );
  t.pass('100 random sequences');
});

t.test('freed bytes are reclaimed once they outweigh the live ones', async (t) => {
  const table = new DocTable();
  const text = 'z'.repeat(200);
  for (let i = 0; i < 20_000; i++) table.put(`d${i}`, { title: `${text}${i}` });
  const held = (table as unknown as { bytes: Buffer }).bytes.length;
  for (let i = 0; i < 20_000; i++) if (i % 10) table.free(table.slotOf(`d${i}`)!);
  const after = (table as unknown as { bytes: Buffer }).bytes.length;
  t.ok(after < held / 3, `the buffer shrank with its documents: ${held} -> ${after} bytes`);
  const kept = Array.from({ length: 2000 }, (_, j) => j * 10);
  t.ok(
    kept.every((i) => table.metadataOf(table.slotOf(`d${i}`)!)?.title === `${text}${i}`),
    'the live ones kept their ids and metadata',
  );
  for (let round = 0; round < 20; round++) for (const i of kept) table.setMetadata(table.slotOf(`d${i}`)!, { title: `${round}:${i}` });
  const churned = (table as unknown as { bytes: Buffer }).bytes.length;
  t.ok(churned <= after, `metadata replaced 20 times over did not grow the buffer: ${churned} bytes`);
  t.ok(
    kept.every((i) => table.metadataOf(table.slotOf(`d${i}`)!)?.title === `19:${i}`),
    'each document reads its last metadata',
  );
});

/** Every live document of a table: id, metadata, segment and rows, by slot. */
const contents = (table: DocTable) =>
  [...table.liveSlots()].map((slot) => [
    slot,
    table.idOf(slot),
    table.metadataOf(slot),
    table.segOf(slot),
    table.first(slot),
    table.count(slot),
    table.version(slot),
  ]);

t.test('a table restored from its parts reads and takes writes as the original', async (t) => {
  const segs = [seg(1), seg(2), seg(3)];
  for (const [name, churn, room] of [
    ['appended to only', false, false],
    ['with freed slots and replaced metadata', true, false],
    ['appended to only, read with room', false, true],
    ['with freed slots, read with room', true, true],
  ] as const) {
    const table = new DocTable();
    for (let i = 0; i < 3000; i++) table.place(table.put(`d${i}`, { i, title: `title ${i}` }), segs[i % 3], i, 1 + (i % 4), i);
    if (churn)
      for (let i = 0; i < 3000; i += 7) {
        table.free(table.slotOf(`d${i}`)!);
        table.setMetadata(table.slotOf(`d${i + 1}`)!, { i, changed: true });
      }
    const { scalars, arrays } = table.parts(segs);
    // as a snapshot's read gives them: fresh arrays, exactly as long as written or (persist.ts
    // tableRoom) half again as long, zero past the content, the hash buckets exact
    const copy = <A extends Uint8Array | Uint32Array | Int32Array>(k: string, a: A): A => {
      const out = new (a.constructor as new (n: number) => A)(room && k !== 'buckets' ? Math.ceil(1.5 * a.length) : a.length);
      out.set(a);
      return out;
    };
    const fresh = Object.fromEntries(Object.entries(arrays).map(([k, a]) => [k, copy(k, a)])) as unknown as typeof arrays;
    const restored = new DocTable();
    restored.restoreParts({ scalars: structuredClone(scalars), arrays: fresh }, segs);
    t.same(contents(restored), contents(table), `${name}: every document as it was`);
    t.equal(restored.slotOf('d2998'), table.slotOf('d2998'), `${name}: ids find their slots`);
    if (room) {
      const slot = restored.put('written-after', { title: 'in place' });
      table.put('written-after', { title: 'in place' });
      t.ok(
        Buffer.from(fresh.bytes.buffer).includes('written-after') && fresh.alive[slot] === 1,
        `${name}: the first write lands in the arrays read, not in copies`,
      );
    }
    // the same writes on both: the bytes and columns grow past the restored arrays
    for (const x of [table, restored]) {
      for (let i = 3000; i < 6000; i++) x.place(x.put(`d${i}`, { i, title: 'w'.repeat(i % 50) }), segs[i % 3], i, 1, i);
      for (let i = 1; i < 6000; i += 5) {
        const slot = x.slotOf(`d${i}`);
        if (slot !== undefined) x.setMetadata(slot, { again: i });
      }
      for (let i = 2; i < 6000; i += 3) {
        const slot = x.slotOf(`d${i}`);
        if (slot !== undefined) x.free(slot);
      }
    }
    t.same(contents(restored), contents(table), `${name}: then 3,000 puts, metadata changes and frees alike`);
    t.equal(restored.size, table.size, `${name}: ${table.size} live documents`);
  }
});

t.test('a slot names its segment by a counted id: one no slot points at is let go, and ids round-trip', async (t) => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const refs = new SegmentRefs(2);
  const b = seg(2);
  const c = seg(3);
  const gone = await (async () => {
    const a = seg(1);
    refs.set(0, a);
    refs.set(1, a);
    refs.grow(5);
    refs.set(4, b);
    t.same(
      [0, 1, 2, 3, 4].map((s) => refs.get(s)),
      [a, a, undefined, undefined, b],
      'each slot its segment, through growth',
    );
    t.same([...refs.indexes([b, a], 5)], [1, 1, -1, -1, 0], 'as indexes into a list of segments');
    t.same([...refs.indexes([b], 5)], [-1, -1, -1, -1, 0], 'one not in the list: -1');
    refs.set(0, b);
    refs.set(1, undefined);
    return new WeakRef(a);
  })();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  t.equal(gone.deref(), undefined, 'a segment no slot points at any more is not kept alive');
  refs.set(2, c);
  t.same(
    [0, 1, 2, 3, 4].map((s) => refs.get(s)),
    [b, undefined, c, undefined, b],
    'its id serves another',
  );
  const restored = new SegmentRefs(1);
  restored.restore(refs.indexes([c, b], 5), 5, [c, b, seg(9)], 8);
  t.same(
    [0, 1, 2, 3, 4, 5, 7].map((s) => restored.get(s)),
    [b, undefined, c, undefined, b, undefined, undefined],
    'restored, with room for more',
  );
  restored.set(6, c);
  t.equal(restored.get(6), c, 'and set past what it was given');
});
