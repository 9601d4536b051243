// The result list of a stage (ranking/assemble.ts): a passage listed once and never one that
// overlaps a listed passage of its document; a chain stage leads each chain with the passage hop 1
// ranked higher and keeps the stage-1 passages of a long document it lists (hop 1's best ones of a
// long document right after the top chain); every list is a prefix of a longer one (a search at
// max_results k returns the first k of what k + n would); stage 1 returned after a chain stage ran
// keeps its head and takes the chain stage's new documents into the rest (weave).
import t from 'tap';
import { RESULT_LIST } from '../src/engine/params.js';
import type { SearchCorpus } from '../src/engine/ranking/index.js';
import { assemble, weave } from '../src/engine/ranking/index.js';
import { rng } from './helpers/engine.js';

/** A corpus of documents cut into passages: rows of document d are listed in `docs[d]` with their spans. */
function corpusOf(docs: Array<Array<[number, number]>>): SearchCorpus {
  const rows = docs.flatMap((spans, d) => spans.map((span) => ({ d, span })));
  const first = docs.map((_, d) => rows.findIndex((r) => r.d === d));
  return {
    docOf: (r: number) => rows[r].d,
    documentOf: (r: number) => rows[r].d,
    span: (r: number) => rows[r].span,
    docRows: (r: number) => [first[rows[r].d], docs[rows[r].d].length],
  } as unknown as SearchCorpus;
}

const overlapping = (c: SearchCorpus, a: number, b: number) => {
  if (c.docOf(a) !== c.docOf(b)) return false;
  const [x, y] = c.span(a);
  const [u, v] = c.span(b);
  return Math.min(y, v) - Math.max(x, u) > RESULT_LIST.maxOverlap * Math.min(y - x, v - u);
};

// rows 0-3: one long document of four passages (1 overlaps 0 by half); rows 4, 5, 6: single-passage documents
const longDoc: Array<[number, number]> = [
  [0, 1000],
  [500, 1500],
  [1500, 2500],
  [2500, 3500],
];
const c = corpusOf([longDoc, [[0, 800]], [[0, 900]], [[0, 700]]]);

t.test('stage 1 lists rows by score and drops a passage overlapping a listed one of its document', async (t) => {
  const chains = [[0], [1], [2], [4], [3]];
  const r = assemble(c, chains, [5, 4, 3, 2, 1], 10, [0, 1, 2, 4, 3]);
  t.same(r.ret, [0, 2, 4, 3]);
  t.same(r.hops, [1, 1, 1, 1]);
  t.same(r.from, [0, 2, 3, 4]);
});

t.test('a chain stage leads each chain with the passage hop 1 ranked higher', async (t) => {
  // the top chain read 4 first and found 2, which hop 1 ranks first
  const r = assemble(
    c,
    [
      [4, 2],
      [5, 6],
    ],
    [3, 1],
    10,
    [2, 4, 5],
  );
  t.same(r.ret.slice(0, 2), [2, 4]);
  t.same(r.hops.slice(0, 2), [2, 1], 'each passage keeps the hop that found it');
  t.same(r.from.slice(0, 2), [0, 0]);
});

t.test('a chain stage keeps the stage-1 passages of a document it lists, alternating with the next chains', async (t) => {
  // the long document's passages come after hop 1's best three, so only the alternation lists them
  const r = assemble(
    c,
    [
      [2, 4],
      [5, 6],
    ],
    [3, 1],
    10,
    [4, 5, 6, 2, 3, 0],
  );
  t.same(
    r.ret,
    [4, 2, 3, 5, 0, 6],
    'top chain; a passage of the long document; the next chain; the next passage of the long document; ...',
  );
  t.same(r.hops, [2, 1, 1, 1, 1, 2], 'the top chain read 2 at hop 1 and 4 at hop 2');
  t.same(r.from, [0, 0, 0, 1, 1, 1], 'a stage-1 passage carries the score of the passage before it');
});

t.test("hop 1's best passages of a long document follow the top chain, whichever document it read", async (t) => {
  t.equal(RESULT_LIST.keepLong, 3);
  t.equal(RESULT_LIST.longDoc, 4, 'the test corpus has one long document: rows 0-3');
  // hop 1 ranks 3 and 0 (long document) and 6 (one passage) first; the top chain reads 4 and 5
  const r = assemble(
    c,
    [
      [4, 5],
      [6, 4],
    ],
    [3, 1],
    10,
    [3, 6, 0, 2],
  );
  t.same(r.ret.slice(0, 4), [4, 5, 3, 0], "the top chain, then the long document's passages among hop 1's best three");
  t.same(r.hops.slice(0, 4), [1, 2, 1, 1]);
  t.same(r.from.slice(0, 4), [0, 0, 0, 0]);
  t.ok(r.ret.indexOf(6) > 3, 'a single-passage document of hop 1 waits for its chain');
  t.same(assemble(c, [[0], [6]], [2, 1], 10, [3, 6, 0]).ret, [0, 6], 'stage 1 lists its own ranking');
});

t.test('a stage-1 passage of a document the list does not hold is not added to a chain stage', async (t) => {
  t.same(assemble(c, [[4, 5]], [2], 10, [6, 4, 5, 0]).ret, [4, 5], 'hop 1 ranks the long document fourth');
  t.same(assemble(c, [[4, 5]], [2], 10, [6, 0, 4]).ret, [4, 5, 0], 'hop 1 ranks it among its best three');
});

/** Twelve documents of one to four passages, some overlapping, drawn from `r`: the corpus and its number of rows. */
function randomCorpus(r: () => number): { rc: SearchCorpus; nRows: number } {
  const spans: Array<Array<[number, number]>> = Array.from({ length: 12 }, () => {
    const n = 1 + Math.floor(r() * 4);
    return Array.from({ length: n }, (_, i): [number, number] => [i * 600, i * 600 + 400 + Math.floor(r() * 800)]);
  });
  return { rc: corpusOf(spans), nRows: spans.reduce((n, s) => n + s.length, 0) };
}

t.test('random stages: no repeats or overlaps, at most k, each list a prefix of a longer one', async (t) => {
  const r = rng(7);
  const { rc, nRows } = randomCorpus(r);
  for (let trial = 0; trial < 200; trial++) {
    const len = 1 + Math.floor(r() * 3);
    const chains = Array.from({ length: Math.floor(r() * 15) }, () => Array.from({ length: len }, () => Math.floor(r() * nRows)));
    const sc = chains.map(() => Math.floor(r() * 5));
    const s1 = [...new Set(Array.from({ length: 10 }, () => Math.floor(r() * nRows)))];
    const full = assemble(rc, chains, sc, 20, s1);
    t.equal(new Set(full.ret).size, full.ret.length, 'no row twice');
    for (let i = 0; i < full.ret.length; i++)
      for (let j = 0; j < i; j++) if (overlapping(rc, full.ret[i], full.ret[j])) t.fail(`rows ${full.ret[j]} and ${full.ret[i]} overlap`);
    for (const k of [1, 2, 5, 10]) {
      const part = assemble(rc, chains, sc, k, s1);
      t.same(part, { ret: full.ret.slice(0, k), hops: full.hops.slice(0, k), from: full.from.slice(0, k) });
    }
  }
});

/** A stage-1 list of rows with falling scores, as listOf gives it. */
const listed = (rows: number[], hop = 1) => rows.map((row, i) => ({ row, score: 10 - i, hop }));

t.test("stage 1 returned after a chain stage: its head stays, the chain stage's new documents are woven into the rest", async (t) => {
  // rows 0-3: the long document; 4, 5, 6, 7: single-passage documents
  const c2 = corpusOf([longDoc, [[0, 800]], [[0, 900]], [[0, 700]], [[0, 600]]]);
  // stage 1 lists 4, 5, 2, 1, 3; the chain stage 4 (a document already listed), 6 (read from 4), 7 (read from a row not listed)
  const first = listed([4, 5, 2, 1, 3]);
  const deep = [
    { row: 4, score: 7, hop: 1 },
    { row: 6, score: 7, hop: 2, prev: 4 },
    { row: 7, score: 6, hop: 2, prev: 9 },
  ];
  const w = weave(c2, first, deep, 2);
  t.same(
    w.map((h) => h.row),
    [4, 5, 6, 2, 7],
    "the head (4, 5); the chain stage's first passage of a new document (6); stage 1's next (2); the next new document (7)",
  );
  t.same(
    w.map((h) => h.hop),
    [1, 1, 2, 1, 2],
  );
  t.same(w[2].prev, 4, 'a chain passage keeps the passage before it when that one is listed');
  t.equal(w[4].prev, undefined, 'and not when it is not');
  t.same(
    w.map((h) => h.score),
    [10, 9, 9, 8, 8],
    'a chain passage carries the score of the passage before it; scores never rise',
  );
  // the chain stage lists 0 of the long document: stage 1's 1 overlaps it and is left out, 3 takes its place
  t.same(
    weave(c2, first, [{ row: 0, score: 3, hop: 2 }], 2).map((h) => h.row),
    [4, 5, 0, 2, 3],
    'a passage overlapping a listed one of its document is not listed',
  );
  t.same(weave(c2, first, [], 2), first, 'with no chain passage the list is stage 1 as it was');
  t.same(weave(c2, first, deep, 5), first, 'a head as long as the list leaves it as it was');
});

t.test('random weaves: the head unchanged, no repeats or overlaps, as long as stage 1, scores never rising', async (t) => {
  const r = rng(11);
  const { rc, nRows } = randomCorpus(r);
  for (let trial = 0; trial < 200; trial++) {
    const s1 = assemble(
      rc,
      Array.from({ length: nRows }, (_, i) => [i]),
      Array.from({ length: nRows }, () => Math.floor(r() * 9)),
      10,
      [],
    );
    const first = s1.ret.map((row, i) => ({ row, score: 10 - i, hop: 1 }));
    const deep = Array.from({ length: Math.floor(r() * 10) }, (_, i) => ({ row: Math.floor(r() * nRows), score: 5 - i, hop: 2 }));
    const keep = Math.floor(r() * 6);
    const w = weave(rc, first, deep, keep);
    t.same(w.slice(0, keep), first.slice(0, keep), 'the head as it was');
    t.equal(w.length, first.length, 'as long as stage 1');
    t.equal(new Set(w.map((h) => h.row)).size, w.length, 'no row twice');
    t.ok(
      w.every((h) => Number.isFinite(h.score)),
      'every score finite',
    );
    for (let i = 0; i < w.length; i++) {
      if (i > 0 && w[i].score > w[i - 1].score) t.fail(`score rises at ${i}`);
      for (let j = 0; j < i; j++) if (overlapping(rc, w[i].row, w[j].row)) t.fail(`rows ${w[j].row} and ${w[i].row} overlap`);
    }
  }
});
