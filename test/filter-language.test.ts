// The metadata filter language (src/engine/index/filter.ts) as a pure function: every operator on
// matching, other-typed and missing values, $and/$or/$not, code-point string order against a
// reference, the size the API bounds, and (fast-check) that the candidates the metadata index
// finds (values, ranges, $and, $or) never leave out a document the whole filter matches.
import fc from 'fast-check';
import t from 'tap';
import type { Filter, Metadata } from '../src/api-types.js';
import { FilterIndex } from '../src/engine/index/filter-index.js';
import { compareCodePoints, compileFilter, filterSize } from '../src/engine/index.js';

const DOCS: Record<string, Metadata> = {
  n1: { year: 1995, team: 'a', ok: true, tag: 'x' },
  n2: { year: 2005, team: 'b', ok: false },
  s1: { year: '1995', team: 'a' },
  none: {},
  date: { when: '2024-03-01T10:00:00Z', team: 'c' },
};

const ids = (f: Filter) => {
  const test = compileFilter(f);
  return Object.keys(DOCS).filter((id) => test(DOCS[id]));
};

t.test('every operator, with values of another type and missing keys', async (t) => {
  const cases: Array<[Filter, string[]]> = [
    [{}, ['n1', 'n2', 's1', 'none', 'date']],
    [{ year: 1995 }, ['n1']],
    [{ year: '1995' }, ['s1']],
    [{ year: { $eq: 1995 } }, ['n1']],
    [{ year: { $ne: 1995 } }, ['n2']],
    [{ year: { $ne: '1995' } }, []],
    [{ ok: { $ne: true } }, ['n2']],
    [{ year: { $gt: 1995 } }, ['n2']],
    [{ year: { $gte: 1995 } }, ['n1', 'n2']],
    [{ year: { $lt: 2005 } }, ['n1']],
    [{ year: { $lte: 2005 } }, ['n1', 'n2']],
    [{ year: { $gte: 1990, $lt: 2000 } }, ['n1']],
    [{ year: { $gt: '1990' } }, ['s1']],
    [{ when: { $gte: '2024-01-01', $lt: '2024-12-31' } }, ['date']],
    [{ team: { $in: ['a', 'c'] } }, ['n1', 's1', 'date']],
    [{ year: { $in: [1995, '2005'] } }, ['n1']],
    [{ team: { $nin: ['a'] } }, ['n2', 'date']],
    [{ year: { $nin: [2005] } }, ['n1']],
    [{ tag: { $exists: true } }, ['n1']],
    [{ tag: { $exists: false } }, ['n2', 's1', 'none', 'date']],
    [{ ok: false }, ['n2']],
    [{ ok: { $eq: 'false' } }, []],
    [{ team: 'a', year: 1995 }, ['n1']],
    [{ $and: [{ team: 'a' }, { year: { $exists: true } }] }, ['n1', 's1']],
    [{ $or: [{ team: 'b' }, { tag: 'x' }] }, ['n1', 'n2']],
    [{ $not: { team: 'a' } }, ['n2', 'none', 'date']],
    [{ $not: { year: { $ne: 1995 } } }, ['n1', 's1', 'none', 'date']],
    [{ $or: [{ $and: [{ team: 'a' }, { $not: { ok: true } }] }, { team: 'c' }] }, ['s1', 'date']],
    [{ team: 'a', $or: [{ year: 1995 }, { year: '1995' }] }, ['n1', 's1']],
  ];
  for (const [f, want] of cases) t.same(ids(f), want, JSON.stringify(f));
});

t.test('strings compare by code point, not by UTF-16 unit', async (t) => {
  t.ok(compareCodePoints('\uffff', '😀') < 0, 'U+FFFF sorts before U+1F600 (UTF-16 units say otherwise)');
  t.ok('\uffff' > '😀', 'the reason: JavaScript compares UTF-16 units');
  t.same(ids({ tag: { $lt: 'y' } }), ['n1']);
  const ref = (a: string, b: string) => {
    const x = [...a].map((c) => c.codePointAt(0)!);
    const y = [...b].map((c) => c.codePointAt(0)!);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  };
  const str = fc.string({
    unit: fc.oneof(fc.constantFrom('a', 'z', '\ud7ff', '\ue000', '\uffff'), fc.string({ unit: 'grapheme', maxLength: 1 })),
    maxLength: 6,
  });
  fc.assert(
    fc.property(str, str, (a, b) => Math.sign(compareCodePoints(a, b)) === Math.sign(ref(a, b))),
    { numRuns: 2000 },
  );
  t.pass('2000 random pairs agree with the reference');
});

t.test('size: depth and operators as the API bounds them', async (t) => {
  t.same(filterSize({}), { depth: 1, operators: 0 });
  t.same(filterSize({ a: 1, b: { $gt: 1, $lt: 3 } }), { depth: 1, operators: 3 });
  t.same(filterSize({ $and: [{ a: 1 }, { $not: { b: 2 } }] }), { depth: 3, operators: 4 });
});

/** A byte per slot, 1 at the live ones (as the document table hands it to the metadata index). */
function mask(live: Iterable<number>, slots: number): Uint8Array {
  const m = new Uint8Array(slots);
  for (const s of live) m[s] = 1;
  return m;
}

/** Whether a filter, a filter inside it or a key's condition is empty (matching everything, narrowing nothing). */
function hasEmpty(f: Filter): boolean {
  const defined = (o: object) => Object.values(o).filter((v) => v !== undefined);
  if (defined(f).length === 0) return true;
  return Object.entries(f).some(([k, v]) => {
    if (v === undefined) return false;
    if (k === '$not') return hasEmpty(v as Filter);
    if (k === '$and' || k === '$or') return (v as Filter[]).some(hasEmpty);
    return typeof v === 'object' && defined(v).length === 0;
  });
}

t.test("the index's candidates never drop a match", async (t) => {
  const value = fc.oneof(fc.constantFrom('a', 'b', 'ab', '\uffff', '😀'), fc.integer({ min: -2, max: 3 }), fc.boolean());
  const bound = fc.oneof(fc.constantFrom('a', 'b', '\uffff'), fc.integer({ min: -2, max: 3 }));
  const key = fc.constantFrom('k', 'j');
  const cond = fc.oneof(
    value,
    fc.record({ $eq: value }),
    fc.record({ $in: fc.array(value, { minLength: 1, maxLength: 3 }) }),
    fc.record({ $ne: value }),
    fc.record({ $nin: fc.array(value, { minLength: 1, maxLength: 2 }) }),
    fc.record({ $exists: fc.boolean() }),
    fc.record({ $gt: bound, $lte: bound }, { requiredKeys: [] }),
    fc.record({ $gte: bound, $lt: bound }, { requiredKeys: [] }),
  );
  const { filter } = fc.letrec((tie) => ({
    filter: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.dictionary(key, cond, { maxKeys: 2, noNullPrototype: true }),
      fc.record({ $and: fc.array(tie('filter'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ $or: fc.array(tie('filter'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ $not: tie('filter') }),
    ),
  }));
  const meta = fc.dictionary(key, value, { maxKeys: 2, noNullPrototype: true });
  fc.assert(
    // sets of slots as Sets, as bytes from 2 slots on, and as bytes always
    fc.property(
      fc.array(meta, { minLength: 1, maxLength: 12 }),
      filter as fc.Arbitrary<Filter>,
      fc.constantFrom(4096, 2, 0),
      (docs, f, bitsFrom) => {
        // the table the index reads a key from when a filter first names it
        const live = new Map<number, Metadata>();
        const index = new FilterIndex(
          (k) => [...live].flatMap(([slot, m]) => (Object.hasOwn(m, k) ? [[slot, m[k]] as const] : [])),
          () => mask(live.keys(), docs.length),
          bitsFrom,
        );
        const add = (slot: number, m: Metadata) => {
          live.set(slot, m);
          index.add(slot, m);
        };
        const remove = (slot: number, m: Metadata) => {
          live.delete(slot);
          index.remove(slot, m);
        };
        // half the documents before the filter's keys are indexed (read from the table), half after (added)
        const half = docs.length >> 1;
        docs.slice(0, half).forEach((m, slot) => {
          add(slot, m);
        });
        index.candidates(f);
        docs.slice(half).forEach((m, i) => {
          add(half + i, m);
        });
        // a write after a range was asked drops the key's order: ask, write, ask again
        index.candidates(f);
        remove(0, docs[0]);
        add(0, docs[0]);
        const found = index.candidates(f);
        const test = compileFilter(f);
        // never a match left out; when exact, nothing but the matches
        const holds = (n: number, got: typeof found) =>
          docs.slice(0, n).every((m, slot) => (test(m) ? got === undefined || got.slots.has(slot) : !got?.exact || !got.slots.has(slot)));
        if (!holds(docs.length, found)) return false;
        // every operator is exact: only an empty filter somewhere (which narrows nothing) is not
        if (!hasEmpty(f) && !found?.exact) return false;
        // a value's slots shrink (a Set, or a single slot) when a document leaves: the last one, gone
        remove(docs.length - 1, docs[docs.length - 1]);
        const after = index.candidates(f);
        return holds(docs.length - 1, after) && !(after?.exact && after.slots.has(docs.length - 1));
      },
    ),
    { numRuns: 4000 },
  );
  t.pass('4000 random stores and filters');
  const table: Metadata[] = [{ y: 1 }, { y: 5 }, { y: '5' }, { y: 9 }];
  const index = new FilterIndex(
    (k) => table.flatMap((m, slot) => (Object.hasOwn(m, k) ? [[slot, m[k]] as const] : [])),
    () => mask(table.keys(), table.length),
  );
  const slots = (f: Filter) => [...(index.candidates(f)?.slots ?? [])].sort();
  t.same(slots({ y: { $gt: 1, $lte: 9 } }), [1, 3], 'a numeric range reads the numbers in order');
  t.same(slots({ y: { $gte: '0' } }), [2], 'a string range reads the strings');
  t.same(index.candidates({ y: { $ne: 5 } }), { slots: new Set([0, 3]), exact: true }, '$ne: the present values of its type but its own');
  t.same(slots({ y: { $nin: [1, '5'] } }), [1, 3], '$nin: likewise');
  t.same(slots({ y: { $exists: false } }), [], '$exists: false, the complement');
  t.same(slots({ z: { $exists: false } }), [0, 1, 2, 3]);
  t.same(index.candidates({ $not: { y: { $lt: 6 } } }), { slots: new Set([2, 3]), exact: true }, '$not: the complement of an exact part');
  t.equal(index.candidates({ $not: {} }), undefined, '... and of an empty filter, no narrowing');
  t.same(slots({ $or: [{ y: 1 }, { y: { $gt: 8 } }] }), [0, 3]);
  t.equal(index.candidates({ $or: [{ y: 1 }, { y: { $gt: 8 } }] })?.exact, true, 'equality and ranges are exact: no metadata test needed');
  t.same(index.candidates({ y: { $gt: 1, $ne: 9 } }), { slots: new Set([1]), exact: true }, 'a range with $ne: exact');
  t.same(index.candidates({ $and: [{ y: 5 }, { $not: { y: 1 } }] }), { slots: new Set([1]), exact: true });
});
