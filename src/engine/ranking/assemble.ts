// The result list of a stage (shared by serving and training). A passage is listed once, and not
// when it overlaps a listed passage of its document by more than RESULT_LIST.maxOverlap; a chain
// stage lists its chains led by the passage hop 1 ranked higher, with hop 1's best passages of long
// documents and of documents already listed woven in (see `assemble`). Scores never rise down the
// list. When stage 1 is returned after a chain stage ran, the chain stage's passages of other
// documents are woven into stage 1's list past its head (`weave`). Pure: reads the corpus snapshot only.
import { RESULT_LIST } from '../params.js';
import { chainOrder } from './confidence.js';
import type { SearchCorpus } from './corpus.js';
import { previousRow } from './marks.js';
import type { Assembled, Listed, Stage } from './types.js';

/**
 * Whether `row` may join a list of `rows`: not listed yet, and not overlapping a listed passage of
 * its document by more than RESULT_LIST.maxOverlap of the shorter (its real document: a very long
 * document's passages are units of evidence of their own, but they still overlap).
 */
function fitsList(c: SearchCorpus, rows: readonly number[], row: number): boolean {
  if (rows.includes(row)) return false;
  const d = c.documentOf(row);
  const [a, b] = c.span(row);
  return !rows.some((r) => {
    if (c.documentOf(r) !== d) return false;
    const [x, y] = c.span(r);
    return Math.min(b, y) - Math.max(a, x) > RESULT_LIST.maxOverlap * Math.min(b - a, y - x);
  });
}

/** A stage's result list as returned. */
export function listOf(st: Stage & { from: number[] }): Listed[] {
  return st.ret.map((row, i) => ({ row, score: st.scores[st.from[i]], hop: st.hops[i], prev: previousRow(st, i) }));
}

/**
 * Stage 1's list (`first`) when a chain stage ran but stage 1's evidence was judged the more likely
 * sufficient: its first `keep` passages as they are, then, alternately, the next passage of the chain
 * stage's list (`deep`) in a document not listed yet, and stage 1's next passage. A question whose
 * entities hop 1 found (two films compared) may still need what they lead to (their directors): the
 * chain stage's documents take the places of stage 1's weakest. The list keeps its length; a passage
 * is listed once, never overlapping a listed one of its document, and scores never rise.
 */
export function weave(c: SearchCorpus, first: readonly Listed[], deep: readonly Listed[], keep: number): Listed[] {
  const out = first.slice(0, keep);
  const rows = out.map((h) => h.row);
  const docs = new Set(rows.map((r) => c.docOf(r)));
  let i = keep;
  let j = 0;
  /** Lists `h` at `score`, at most the score of the passage before it. */
  const take = (h: Listed, score: number) => {
    const last = out.length ? out[out.length - 1].score : first[0].score;
    out.push({ ...h, score: Math.min(score, last), prev: h.prev !== undefined && rows.includes(h.prev) ? h.prev : undefined });
    rows.push(h.row);
    docs.add(c.docOf(h.row));
    return true;
  };
  // a chain passage carries the score of the passage before it (chain scores are on another scale)
  const nextDeep = () => {
    while (j < deep.length) {
      const h = deep[j++];
      if (!docs.has(c.docOf(h.row))) return take(h, Number.POSITIVE_INFINITY);
    }
    return false;
  };
  const nextFirst = () => {
    while (i < first.length) {
      const h = first[i++];
      if (fitsList(c, rows, h.row)) return take(h, h.score);
    }
    return false;
  };
  for (let turn = 0; out.length < first.length; turn++) {
    const took = turn % 2 === 0 ? nextDeep() || nextFirst() : nextFirst() || nextDeep();
    if (!took) break;
  }
  return out;
}

/**
 * The result list of a stage. A passage is listed once, and not when it overlaps a listed passage
 * of its document by more than RESULT_LIST.maxOverlap. Stage 1 (single rows): rows by score. A chain stage:
 * the chains by score, each chain's passages led by the one hop 1 ranked higher (the passage that
 * answers the question most directly first; rows outside `s1` keep their hop order, after), `hop`
 * = the row's position in its chain; after the top chain, the next chain-list passage alternates
 * with the best stage-1 passage (`s1`, hop-1 ranking) of a document already listed, so a long
 * document keeps the passages the question itself matches; before that alternation come hop 1's
 * best passages of long documents (RESULT_LIST.keepLong, RESULT_LIST.longDoc). Such a passage carries the score of the
 * passage listed before it.
 */
export function assemble(c: SearchCorpus, chains: number[][], sc: number[], k: number, s1: readonly number[] = []): Assembled {
  const out: Assembled = { ret: [], hops: [], from: [] };
  const docs = new Set<number>();
  const fits = (row: number) => fitsList(c, out.ret, row);
  const add = (row: number, hop: number, from: number) => {
    out.ret.push(row);
    out.hops.push(hop);
    out.from.push(from);
    docs.add(c.docOf(row));
    return true;
  };
  // a stage-1 passage added to a chain stage: found at hop 1, scored as the passage before it
  const addStage1 = (row: number) => add(row, 1, out.from[out.from.length - 1]);
  const rank = new Map(s1.map((r, i) => [r, i]));
  const lead = (ch: number[]) =>
    ch
      .map((row, h) => ({ row, hop: h + 1 }))
      .sort((a, b) => (rank.get(a.row) ?? Infinity) - (rank.get(b.row) ?? Infinity) || a.hop - b.hop);
  const order = chainOrder(sc);
  if (order.length === 0) return out;
  for (const { row, hop } of lead(chains[order[0]])) if (fits(row)) add(row, hop, order[0]);
  // stage 1 lists its own ranking: nothing to add from it
  const fill = chains[order[0]].length === 1 ? [] : s1;
  for (const row of fill.slice(0, RESULT_LIST.keepLong)) if (c.docRows(row)[1] >= RESULT_LIST.longDoc && fits(row)) addStage1(row);
  // the chain list after the top chain, led as above, built as it is read (the list stops at k)
  let next = 1;
  let from = order[0];
  let led: Array<{ row: number; hop: number }> = [];
  let at = 0;
  let j = 0;
  const nextChained = () => {
    for (;;) {
      while (at < led.length) {
        const { row, hop } = led[at++];
        if (fits(row)) return add(row, hop, from);
      }
      if (next >= order.length) return false;
      from = order[next++];
      led = lead(chains[from]);
      at = 0;
    }
  };
  const nextFill = () => {
    while (j < fill.length) {
      const row = fill[j++];
      if (docs.has(c.docOf(row)) && fits(row)) return addStage1(row);
    }
    return false;
  };
  for (let turn = 0; out.ret.length < k; turn++) {
    const took = turn % 2 === 0 ? nextFill() || nextChained() : nextChained() || nextFill();
    if (!took) break;
  }
  return { ret: out.ret.slice(0, k), hops: out.hops.slice(0, k), from: out.from.slice(0, k) };
}
