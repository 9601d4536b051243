// buildSegment (src/engine/segment/build.ts) read back through SegmentView (segment/view.ts) after
// placing the image in the engine's shared WebAssembly memory: header and 16-byte section layout,
// rows in input order (spans, vectors, scales, lengths, term sequences, flags, titles), body and
// title postings packed `row << 8 | min(tf, 255)` and sorted by row, sorted unique dictionaries,
// title phrases (kind 1 full, 2 base) and prefixes, an empty build, a document without passages;
// documents read on demand (a merge's) building the same bytes as documents given, a reader that
// changes between the two passes refused; the dictionaries' builder against a naive one (many
// keys, keys 0 and 2^32 - 1); and a fast-check property comparing random builds with a naive model
// (including a row's title line and a term's summed frequency over a range of rows).

import fc from 'fast-check';
import t from 'tap';
import { createEngineRuntime } from '../src/engine/runtime/index.js';
import {
  type BuiltSegment,
  buildSegment,
  codeLength,
  Dictionary,
  decodeTerms,
  HEADER_WORDS,
  MAGIC,
  putCode,
  SEC,
  SECTION_COUNT,
  type SegmentDoc,
  SegmentView,
} from '../src/engine/segment/index.js';
import { phraseKey } from '../src/engine/text/index.js';
import { rng } from './helpers/engine.js';

const rt = await createEngineRuntime();
const views = rt.heap.views;

/** Copies the image into the shared memory and opens a view on it (free with the returned fn). */
function place(built: BuiltSegment): { view: SegmentView; free: () => void } {
  const ptr = rt.heap.alloc(built.image.byteLength);
  views.write(ptr, new Uint8Array(built.image));
  return { view: new SegmentView(views, ptr), free: () => rt.heap.free(ptr) };
}

/** A section of the image as u32 words (keys, starts, postings). */
function words(built: BuiltSegment, sec: number): number[] {
  const h = new Uint32Array(built.image, 0, HEADER_WORDS);
  return [...new Uint32Array(built.image, h[4 + 2 * sec], h[5 + 2 * sec] / 4)];
}

const u32 = (...a: number[]) => Uint32Array.from(a);
const passage = (start: number, end: number, scale: number, vec: number[], terms: number[], flags: number[]) => ({
  start,
  end,
  scale,
  vec: Int8Array.from(vec),
  terms: Uint32Array.from(terms),
  flags: Uint8Array.from(flags),
});
const post = (view: SegmentView, r: ReturnType<SegmentView['term']>) => (r ? [...view.postings(r)] : undefined);
const BIG = 0xfffffff0;

const DOCS: SegmentDoc[] = [
  {
    title: u32(10, 20, 30),
    baseLen: 2,
    sections: [],
    passages: [passage(0, 5, 0.5, [1, -2, 3, -4], [7, 3, 7, 9], [1, 0, 2, 0]), passage(4, 12, 0.25, [127, -128, 0, 5], [3], [4])],
  },
  { title: u32(), baseLen: 0, sections: [], passages: [passage(0, 3, 2, [9, 9, 9, 9], [9, BIG, 3], [0, 8, 0])] },
  { title: u32(20, 40), baseLen: 0, sections: [], passages: [passage(7, 7, 1, [0, 0, 0, -1], [], [])] },
];

t.test('header and section layout', async (t) => {
  const built = buildSegment({ docs: DOCS, dim: 4 });
  const h = new Uint32Array(built.image, 0, HEADER_WORDS);
  t.same([h[0], h[1], h[2], h[3]], [MAGIC, 4, 4, built.image.byteLength], 'magic, rows, dim, total bytes');
  let at = HEADER_WORDS * 4;
  for (let s = 0; s < SECTION_COUNT; s++) {
    t.equal(h[4 + 2 * s], at, `section ${s} starts right after the previous one`);
    at += Math.ceil(h[5 + 2 * s] / 16) * 16;
  }
  t.equal(at, built.image.byteLength, 'sections fill the image');
  t.same(
    [SEC.vec, SEC.seq, SEC.flags, SEC.seqStart, SEC.seqAt, SEC.seqKeys].map((s) => h[5 + 2 * s]),
    [16, 8, 8, 20, 20, 16],
    'section byte lengths: a byte a term of the sequences (four distinct terms)',
  );
  t.same(words(built, SEC.seqKeys), [3, 7, 9, BIG], 'the body terms by how often they occur, ties to the smaller');
  t.same(words(built, SEC.seqAt), [0, 4, 5, 8, 8], "where each row's codes start");
});

t.test('codes: LEB128 of a rank, 1 to 5 bytes, decoded within their bytes', async (t) => {
  const ranks = [0, 1, 127, 128, 16383, 16384, 2 ** 21 - 1, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 32 - 1];
  const bytes = new Uint8Array(5 * ranks.length);
  let to = 0;
  for (const rank of ranks) {
    const from = to;
    to = putCode(bytes, to, rank);
    t.equal(to - from, codeLength(rank), `rank ${rank}: ${codeLength(rank)} bytes`);
  }
  t.same(ranks.map(codeLength), [1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
  t.same(
    [...bytes.subarray(to - 10, to)],
    [0x80, 0x80, 0x80, 0x80, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f],
    '2^28 and 2^32 - 1: five bytes, low bits first',
  );
  // keys standing for ranks (rank + 1) below 20,000; a rank past the keys decodes to 0
  const table = Uint32Array.from({ length: 20_000 }, (_, rank) => rank + 1);
  const out = new Uint32Array(ranks.length);
  t.equal(decodeTerms(bytes, 0, to, table, 0, table.length, out), ranks.length, 'every code decoded');
  t.same([...out], [1, 2, 128, 129, 16384, 16385, 0, 0, 0, 0, 0], 'each rank to its key');
  t.equal(decodeTerms(bytes, 0, to, table, 0, table.length, out, 3), 3, 'no more than max');
  // a code cut short at the end of its bytes is read no further
  const cut = new Uint8Array(8).fill(0xff);
  t.equal(decodeTerms(cut, 2, 5, table, 0, table.length, out), 1, 'one cut code');
});

t.test('rows keep input order with their spans, vectors, scales, lengths and sequences', async (t) => {
  const built = buildSegment({ docs: DOCS, dim: 4 });
  t.same([...built.rowDoc], [0, 0, 1, 2], 'rowDoc');
  t.same([...built.rowStart], [0, 4, 0, 7]);
  t.same([...built.rowEnd], [5, 12, 3, 7]);
  t.same([...built.blen], [4, 1, 3, 0], 'body lengths');
  t.same([...built.tlen], [3, 3, 0, 2], 'title lengths');
  const { view, free } = place(built);
  t.same([view.nRows, view.dim], [4, 4]);
  const rows = DOCS.flatMap((d) => d.passages);
  rows.forEach((p, r) => {
    t.same([...views.i8At(view.vecPtr(r), 4)], [...p.vec], `row ${r} vector`);
    t.equal(view.scale(r), p.scale, `row ${r} scale`);
    t.same(view.span(r), [p.start, p.end], `row ${r} span`);
    const s = view.seq(r);
    t.same([[...s.terms], [...s.flags]], [[...p.terms], [...p.flags]], `row ${r} terms and flags`);
  });
  t.same(
    [0, 1, 2, 3].map((r) => view.docOf(r)),
    [0, 0, 1, 2],
    'docOf',
  );
  t.same(
    [0, 1, 2, 3].map((r) => [...view.title(r)]),
    [[10, 20, 30], [10, 20, 30], [], [20, 40]],
    'each row carries its title',
  );
  t.same([...view.bodyLengths()], [4, 1, 3, 0]);
  t.same([...view.titleLengths()], [3, 3, 0, 2]);
  t.same([view.totalBodyLength(), view.totalTitleLength()], [8, 8], 'total lengths');
  t.same(view.readDoc(0, 2, built.rowStart, built.rowEnd), DOCS[0], 'readDoc returns the first document as given');
  free();
});

t.test('body and title dictionaries: sorted unique keys, postings row << 8 | tf', async (t) => {
  const built = buildSegment({ docs: DOCS, dim: 4 });
  t.same(words(built, SEC.termKeys), [3, 7, 9, BIG], 'body keys sorted and unique (unsigned order)');
  t.same(words(built, SEC.termStart), [0, 3, 4, 6, 7]);
  t.same(words(built, SEC.tTermKeys), [10, 20, 30, 40]);
  const { view, free } = place(built);
  t.same(post(view, view.term(3)), [(0 << 8) | 1, (1 << 8) | 1, (2 << 8) | 1], 'term 3 in rows 0, 1, 2');
  t.same(post(view, view.term(7)), [(0 << 8) | 2], 'term 7 twice in row 0');
  t.same(post(view, view.term(9)), [1, (2 << 8) | 1]);
  t.same(post(view, view.term(BIG)), [(2 << 8) | 1], 'a term id above 2^31');
  t.equal(view.term(8), undefined, 'absent term');
  t.equal(view.term(10), undefined, 'title terms are not body terms');
  t.same(post(view, view.titleTerm(20)), [1, (1 << 8) | 1, (3 << 8) | 1], 'title term on every row of its documents');
  t.same(post(view, view.titleTerm(10)), [1, (1 << 8) | 1]);
  t.equal(view.titleTerm(7), undefined);
  free();
});

t.test('title phrases and prefixes', async (t) => {
  const built = buildSegment({ docs: DOCS, dim: 4 });
  const { view, free } = place(built);
  const full = phraseKey([10, 20, 30]);
  const base = phraseKey([10, 20]);
  t.same(
    words(built, SEC.phraseKeys),
    [full, base, phraseKey([20, 40])].sort((a, b) => a - b),
    'one key per distinct title',
  );
  t.same(view.phrase(full) && [...view.phrase(full)!], [1, (1 << 8) | 1], 'full title: kind 1');
  t.same(view.phrase(base) && [...view.phrase(base)!], [2, (1 << 8) | 2], 'base title: kind 2');
  t.same(view.phrase(phraseKey([20, 40])) && [...view.phrase(phraseKey([20, 40]))!], [(3 << 8) | 1]);
  t.equal(view.phrase(phraseKey([20, 30])), undefined, 'not a title');
  t.same(
    [0, 1, 2, 3].map((r) => view.titleKey(r)),
    [full, full, 0, phraseKey([20, 40])],
    'titleKey, 0 without a title',
  );
  t.same(
    [0, 1, 2, 3].map((r) => view.baseLen(r)),
    [2, 2, 0, 0],
  );
  for (const p of [[10], [10, 20], [10, 20, 30], [20], [20, 40]]) t.ok(view.hasPrefix(phraseKey(p)), `prefix ${p}`);
  for (const p of [[30], [20, 30], [40], [10, 30]]) t.notOk(view.hasPrefix(phraseKey(p)), `not a prefix: ${p}`);
  t.same(
    words(built, SEC.prefixKeys),
    [10, 20, 30]
      .map((_, i) => phraseKey([10, 20, 30].slice(0, i + 1)))
      .concat([phraseKey([20]), phraseKey([20, 40])])
      .sort((a, b) => a - b),
    'prefix keys sorted',
  );
  free();
  const p1 = () => [passage(0, 1, 1, [], [1], [0])];
  const other = buildSegment({
    docs: [
      { title: u32(5, 6), baseLen: 0, sections: [], passages: p1() },
      { title: u32(5, 6, 7), baseLen: 2, sections: [], passages: p1() },
      { title: u32(8, 9), baseLen: 2, sections: [], passages: p1() },
    ],
    dim: 0,
  });
  const o = place(other);
  t.same([...o.view.phrase(phraseKey([5, 6]))!], [1, (1 << 8) | 2], "one doc's full title is another's base title: kinds 1 and 2");
  t.same([o.view.baseLen(2), [...o.view.phrase(phraseKey([8, 9]))!]], [0, [(2 << 8) | 1]], 'baseLen not shorter than the title: no base');
  t.equal(words(other, SEC.phraseKeys).length, 3, 'three distinct phrase keys');
  o.free();
});

t.test('term frequency is capped at 255', async (t) => {
  const rep = (term: number, n: number) => new Array(n).fill(term);
  const terms = [...rep(1, 254), ...rep(2, 255), ...rep(3, 256), ...rep(4, 1000)];
  const built = buildSegment({
    docs: [
      { title: u32(), baseLen: 0, sections: [], passages: [passage(0, 1, 1, [], [5], [0])] },
      { title: u32(6, 6, 6), baseLen: 0, sections: [], passages: [passage(0, 1, 1, [], terms, new Array(terms.length).fill(0))] },
    ],
    dim: 0,
  });
  const { view, free } = place(built);
  t.same(
    [1, 2, 3, 4].map((k) => post(view, view.term(k))),
    [[(1 << 8) | 254], [(1 << 8) | 255], [(1 << 8) | 255], [(1 << 8) | 255]],
  );
  t.same(post(view, view.titleTerm(6)), [(1 << 8) | 3], 'repeated title term: tf 3');
  t.equal(view.totalBodyLength(), 1 + terms.length, 'lengths are not capped');
  free();
});

t.test('sequences of many distinct terms: codes of two and three bytes, read back as given', async (t) => {
  const r = rng(7);
  // 20,000 distinct terms over 40 rows, term i occurring about 20,000 / (i + 1) times overall
  const rows = Array.from({ length: 40 }, () => Array.from({ length: 2_000 }, () => Math.floor(20_000 ** r()) - 1));
  rows[0] = [...Array(20_000).keys()].map((i) => i * 7919 + 1);
  const docs: SegmentDoc[] = [
    {
      title: u32(5),
      baseLen: 0,
      sections: [],
      passages: rows.map((terms, i) =>
        passage(
          i,
          i + 1,
          1,
          [0, 0, 0, 0],
          terms,
          terms.map((x) => x & 31),
        ),
      ),
    },
  ];
  const built = buildSegment({ docs, dim: 4 });
  const keys = words(built, SEC.seqKeys);
  const rankOf = new Map(keys.map((k, rank) => [k, rank]));
  const want = rows.flat().reduce((n, term) => n + codeLength(rankOf.get(term)!), 0);
  t.equal(new Uint32Array(built.image, 0, HEADER_WORDS)[5 + 2 * SEC.seq], want, 'the codes take what their ranks say');
  t.ok(keys.length > 16_384, `${keys.length} terms: some codes of three bytes`);
  const { view, free } = place(built);
  rows.forEach((terms, i) => {
    const s = view.seq(i);
    if (s.terms.length !== terms.length || s.terms.some((x, j) => x !== terms[j] || s.flags[j] !== (terms[j] & 31)))
      t.fail(`row ${i} read back`);
  });
  t.pass('every row read back as given');
  free();
});

t.test('empty builds and documents without passages', async (t) => {
  const empty = buildSegment({ docs: [], dim: 8 });
  t.equal(empty.image.byteLength, HEADER_WORDS * 4 + 6 * 16, 'header plus six one-word start arrays');
  t.same([empty.rowDoc.length, empty.rowStart.length, empty.blen.length], [0, 0, 0]);
  const e = place(empty);
  t.same([e.view.nRows, e.view.dim, e.view.totalBodyLength(), e.view.totalTitleLength()], [0, 8, 0, 0]);
  t.equal(e.view.term(0), undefined, 'no terms');
  t.equal(e.view.phrase(1), undefined, 'no phrases');
  e.free();
  const gap = buildSegment({
    docs: [
      { title: u32(1), baseLen: 0, sections: [], passages: [passage(0, 2, 1, [3], [11], [0])] },
      { title: u32(2), baseLen: 0, sections: [], passages: [] },
      { title: u32(3), baseLen: 0, sections: [], passages: [passage(2, 4, 1, [4], [11], [0])] },
    ],
    dim: 1,
  });
  t.same([...gap.rowDoc], [0, 2], 'a document without passages has no row; rowDoc keeps document indexes');
  const g = place(gap);
  t.same(post(g.view, g.view.term(11)), [1, (1 << 8) | 1]);
  t.equal(g.view.phrase(phraseKey([2])), undefined, 'no phrase rows for it');
  g.free();
});

/** The dictionary of `rows` as a sort would make it: keys ascending, each with its postings `row << 8 | min(tf, 255)` by row. */
function naiveDictionary(rows: number[][]): { keys: number[]; start: number[]; postings: number[] } {
  const tf = new Map<number, Map<number, number>>();
  rows.forEach((keys, r) => {
    for (const k of keys) {
      if (!tf.has(k)) tf.set(k, new Map());
      tf.get(k)!.set(r, (tf.get(k)!.get(r) ?? 0) + 1);
    }
  });
  const keys = [...tf.keys()].sort((a, b) => a - b);
  const start = [0];
  const postings: number[] = [];
  for (const k of keys) {
    for (const [r, n] of [...tf.get(k)!].sort((a, b) => a[0] - b[0])) postings.push(((r << 8) | Math.min(n, 255)) >>> 0);
    start.push(postings.length);
  }
  return { keys, start, postings };
}

/** A dictionary with every row counted. */
function counted(rows: number[][]): Dictionary {
  const d = new Dictionary();
  for (const [r, row] of rows.entries()) d.count(r, Uint32Array.from(row));
  return d;
}

function written(rows: number[][]): { keys: number[]; start: number[]; postings: number[] } {
  const d = counted(rows);
  const keys = new Uint32Array(d.nKeys);
  const start = new Uint32Array(d.nKeys + 1);
  const postings = new Uint32Array(d.nPostings);
  d.begin(keys, start, postings);
  for (const [r, row] of rows.entries()) d.place(r, row);
  return { keys: [...keys], start: [...start], postings: [...postings] };
}

t.test('documents read on demand build the same bytes as documents given; a reader that changes between passes is refused', async (t) => {
  const sectioned: SegmentDoc = {
    title: u32(60, 61),
    baseLen: 1,
    sections: [
      { first: 1, title: u32(70, 71, 72), baseLen: 2 },
      { first: 2, title: u32(80), baseLen: 0 },
    ],
    passages: [
      passage(0, 4, 1, [1, 1, 1, 1], [60, 61, 5], [1, 1, 0]),
      passage(4, 9, 1, [2, 2, 2, 2], [70, 71, 6], [0, 0, 0]),
      passage(9, 12, 1, [3, 3, 3, 3], [80, 5], [0, 0]),
    ],
  };
  const docs = [...DOCS, sectioned, ...DOCS];
  const rows = docs.reduce((n, d) => n + d.passages.length, 0);
  const fresh = (d: SegmentDoc): SegmentDoc => structuredClone(d);
  let reads = 0;
  const read = (i: number) => {
    reads++;
    return fresh(docs[i]);
  };
  const given = buildSegment({ docs, dim: 4 });
  const onDemand = buildSegment({ docs: { count: docs.length, rows, read }, dim: 4 });
  t.same(new Uint8Array(onDemand.image), new Uint8Array(given.image), 'the same image');
  t.same([...onDemand.rowDoc], [...given.rowDoc], 'the same rows');
  t.equal(reads, 2 * docs.length, 'each document read twice');
  const into = new Uint8Array(given.image.byteLength + 64).fill(0xab);
  const placed = buildSegment({ docs: { count: docs.length, rows, read }, dim: 4 }, into);
  t.same(into.subarray(0, placed.bytes), new Uint8Array(given.image), 'and the same bytes in place');
  let pass = 0;
  const changing = (i: number) => {
    if (i === 0) pass++;
    const d = fresh(docs[i]);
    if (pass === 2 && i === 3) d.passages[1].terms = u32(1, 2, 3, 4, 5);
    return d;
  };
  t.throws(
    () => buildSegment({ docs: { count: docs.length, rows, read: changing }, dim: 4 }),
    RangeError,
    'documents that differ the second time',
  );
  pass = 0;
  const shorter = (i: number) => {
    if (i === 0) pass++;
    const d = fresh(docs[i]);
    if (pass === 2 && i === docs.length - 1) d.passages = [];
    return d;
  };
  t.throws(() => buildSegment({ docs: { count: docs.length, rows, read: shorter }, dim: 4 }), RangeError, 'fewer rows the second time');
  t.throws(() => buildSegment({ docs: { count: docs.length, rows: rows - 1, read }, dim: 4 }), RangeError, 'more rows than announced');
  t.throws(() => buildSegment({ docs: { count: docs.length, rows: rows + 1, read }, dim: 4 }), RangeError, 'fewer rows than announced');
});

t.test('Dictionary: sized, then written as a stable sort of the occurrences would give', async (t) => {
  t.same(written([]), { keys: [], start: [0], postings: [] }, 'no rows');
  t.same(written([[], []]), { keys: [], start: [0], postings: [] }, 'rows without keys');
  const edge = [[0, 0xffffffff, 0], [], [5, 0xffffffff], [0]];
  t.same(written(edge), naiveDictionary(edge), 'keys 0 and 2^32 - 1, a key twice in a row');
  t.same(written(edge).postings.slice(0, 2), [(0 << 8) | 2, (3 << 8) | 1], 'key 0: tf 2 in row 0, then row 3');
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.oneof({ weight: 3, arbitrary: fc.nat(30) }, { weight: 1, arbitrary: fc.nat(0xffffffff) }), { maxLength: 40 }), {
        maxLength: 30,
      }),
      (rows) => JSON.stringify(written(rows)) === JSON.stringify(naiveDictionary(rows)),
    ),
    { numRuns: 200, seed: 7 },
  );
  t.pass('matches the naive model on 200 random sets of rows');
  // many distinct keys (the table grows several times over), most of them repeated across rows
  const r = rng(11);
  const many = Array.from({ length: 400 }, () =>
    Array.from({ length: 200 }, (_, i) => (i % 3 ? Math.floor(r() * 2 ** 32) : Math.floor(r() * 500))),
  );
  const d = counted(many);
  const want = naiveDictionary(many);
  t.equal(d.nKeys, want.keys.length, `${want.keys.length} distinct keys counted`);
  t.equal(d.nPostings, want.postings.length, `${want.postings.length} postings counted`);
  t.same(written(many), want, 'written as the naive model writes them');
  const other = counted([[1, 2]]);
  other.begin(new Uint32Array(2), new Uint32Array(3), new Uint32Array(2));
  t.throws(() => other.place(0, [1, 3]), RangeError, 'a key placed that was not counted is refused');
});

t.test('property: random builds match a naive model through SegmentView', async (t) => {
  const term = fc.oneof({ weight: 4, arbitrary: fc.nat(12) }, { weight: 1, arbitrary: fc.nat(0xffffffff) });
  const pas = fc.record({
    terms: fc.array(term, { maxLength: 12 }),
    span: fc.tuple(fc.nat(1000), fc.nat(100)),
    scale: fc.float({ noNaN: true }),
    vec: fc.array(fc.integer({ min: -128, max: 127 }), { minLength: 3, maxLength: 3 }),
  });
  const doc = fc.record({ title: fc.array(fc.nat(6), { maxLength: 4 }), baseLen: fc.nat(4), passages: fc.array(pas, { maxLength: 3 }) });
  let rowsChecked = 0;
  fc.assert(
    fc.property(fc.array(doc, { maxLength: 8 }), (input) => {
      const docs: SegmentDoc[] = input.map((d) => ({
        title: Uint32Array.from(d.title),
        baseLen: d.baseLen,
        sections: [],
        passages: d.passages.map((p) =>
          passage(
            p.span[0],
            p.span[0] + p.span[1],
            p.scale,
            p.vec,
            p.terms,
            p.terms.map((x) => x & 7),
          ),
        ),
      }));
      const built = buildSegment({ docs, dim: 3 });
      const rows = docs.flatMap((d, di) => d.passages.map((p) => ({ d, di, p })));
      const { view, free } = place(built);
      try {
        const eq = (a: unknown, b: unknown, what: string) => {
          if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${what}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`);
        };
        eq(view.nRows, rows.length, 'nRows');
        rows.forEach(({ d, di, p }, r) => {
          eq(
            [view.docOf(r), view.span(r), view.scale(r), [...views.i8At(view.vecPtr(r), 3)]],
            [di, [p.start, p.end], Math.fround(p.scale), [...p.vec]],
            `row ${r}`,
          );
          eq(
            [[...view.seq(r).terms], [...view.seq(r).flags], [...view.title(r)]],
            [[...p.terms], [...p.flags], [...d.title]],
            `row ${r} sequences`,
          );
          eq(view.baseLen(r), d.baseLen < d.title.length ? d.baseLen : 0, `row ${r} baseLen`);
          const titleLine = d.title.length > 0 && d.title.every((x, i) => p.terms[i] === x) ? d.title.length : 0;
          eq(view.titleLineLength(r), titleLine, `row ${r} title line`);
          rowsChecked++;
        });
        for (const [sec, startSec, get, of] of [
          [SEC.termKeys, SEC.termStart, (k: number) => view.term(k), (r: (typeof rows)[number]) => r.p.terms],
          [SEC.tTermKeys, SEC.tTermStart, (k: number) => view.titleTerm(k), (r: (typeof rows)[number]) => r.d.title],
        ] as const) {
          const tf = new Map<number, Map<number, number>>();
          rows.forEach((row, r) => {
            for (const k of of(row)) {
              if (!tf.has(k)) tf.set(k, new Map());
              tf.get(k)!.set(r, (tf.get(k)!.get(r) ?? 0) + 1);
            }
          });
          const keys = [...tf.keys()].sort((a, b) => a - b);
          eq(words(built, sec), keys, 'dictionary keys');
          eq(words(built, startSec).length, keys.length + 1, 'starts');
          for (const k of keys)
            eq(
              post(view, get(k)),
              [...tf.get(k)!].map(([r, n]) => ((r << 8) | Math.min(n, 255)) >>> 0),
              `postings of ${k}`,
            );
          // every row range's summed frequencies, read from a term's postings by binary search
          for (const k of sec === SEC.termKeys ? keys : [])
            for (let lo = 0; lo <= rows.length; lo++)
              for (let n = 0; lo + n <= rows.length; n++) {
                let want = 0;
                for (const [r, f] of tf.get(k)!) if (r >= lo && r < lo + n) want += Math.min(f, 255);
                eq(view.countInRows(view.term(k)!, lo, n), want, `count of ${k} in rows ${lo}+${n}`);
              }
        }
        const phrases = new Map<number, number[]>();
        const prefixes = new Set<number>();
        rows.forEach(({ d }, r) => {
          const bl = d.baseLen < d.title.length ? d.baseLen : 0;
          for (const [k, kind] of [
            [d.title.length ? phraseKey(d.title) : 0, 1],
            [bl ? phraseKey(d.title, 0, bl) : 0, 2],
          ]) {
            if (k) phrases.set(k, [...(phrases.get(k) ?? []), ((r << 8) | kind) >>> 0]);
          }
          for (let n = 1; n <= d.title.length; n++) prefixes.add(phraseKey(d.title, 0, n));
        });
        eq(
          words(built, SEC.phraseKeys),
          [...phrases.keys()].sort((a, b) => a - b),
          'phrase keys',
        );
        for (const [k, want] of phrases) eq([...view.phrase(k)!], want, `phrase rows of ${k}`);
        const pk = words(built, SEC.prefixKeys);
        if (!pk.every((k, i) => i === 0 || pk[i - 1] < k) || ![...prefixes].every((k) => view.hasPrefix(k))) throw new Error('prefix keys');
      } finally {
        free();
      }
    }),
    { numRuns: 150, seed: 42 },
  );
  t.ok(rowsChecked > 500, `${rowsChecked} rows compared`);
});
