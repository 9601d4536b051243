// The stages of a search, shared by serving (search-loop.ts) and training: stage 1 ranks the hop-1
// pool by W1; stage 2 extends the best B1 documents of stage 1 into 2-chains scored by W2; stage 3
// extends the best B3 2-chains into 3-chains scored, together with the 2-chains, by W3. Building a
// stage's candidates needs only the weights of earlier stages, so training can fit them in order.
// A stage's result list (assemble) draws on hop 1's ranking whatever the stage.
import { chainOrder, type Stage } from './confidence.js';
import type { SearchCorpus } from './corpus.js';
import { H1_NAMES, H2_NAMES } from './features.js';
import type { ExpansionParams, Query, Searcher } from './hops.js';

export const B1 = 5;
export const B3 = 5;
export const X2_DIM = 2 * H1_NAMES.length + H2_NAMES.length + 2;
export const X3_DIM = X2_DIM + H1_NAMES.length + H2_NAMES.length + 1;
const QCOV = H1_NAMES.indexOf('qcov');
const HIT = H1_NAMES.indexOf('hit');
const QCOV_UNION = H2_NAMES.indexOf('qcov_union');
const LK = H2_NAMES.indexOf('lk');

export type Why =
  | { kind: 'query'; terms: number[] }
  | { kind: 'expansion'; fromRow: number; positions: number[] }
  | { kind: 'link'; fromRow: number; positions: number[] };

export const dotw = (w: ArrayLike<number>, x: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (w[i] ?? 0) * x[i];
  return s;
};

export interface Hop1 {
  pool: number[];
  F1: Float64Array[];
  h1: number[];
  /** pool indices of the beam: the best pool row of each of the best B1 documents */
  beam: number[];
  /** pool rows by h1, best first (ties to the earlier row): the stage-1 ranking every stage's list draws on */
  ranked: number[];
}

/** Chains with feature vectors, and per chain the coverage/link values and the why of its last step. */
export interface Chains {
  chains: number[][];
  X: Float64Array[];
  qcov: number[];
  lk: number[];
  /** the why of chain j's last step (stage 1 builds it when asked: only the trace reads it) */
  why: (j: number) => Why;
}

/** Indices into `rows`, taken in `order` (best first), keeping the first row of each document, at most n. */
function bestDocs(c: SearchCorpus, rows: number[], order: number[], n: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  for (const i of order) {
    const d = c.docOf(rows[i]);
    if (seen.has(d)) continue;
    seen.add(d);
    out.push(i);
    if (out.length >= n) break;
  }
  return out;
}

export function buildHop1(s: Searcher, q: Query, W1: number[]): Hop1 {
  const { rows, features } = s.hop1(q);
  const h1 = features.map((f) => dotw(W1, f));
  const order = chainOrder(h1);
  return { pool: rows, F1: features, h1, beam: bestDocs(s.c, rows, order, B1), ranked: order.map((i) => rows[i]) };
}

function queryWhy(s: Searcher, q: Query, row: number): Why {
  const body = new Set(s.c.seq(row).terms);
  return { kind: 'query', terms: q.qt.filter((t) => body.has(t)) };
}

function stepWhy(s: Searcher, p: number, link: { pos: number; len: number } | undefined, expansion: number[]): Why {
  if (link) {
    const skip = s.c.titleLineLength(p);
    return { kind: 'link', fromRow: p, positions: Array.from({ length: link.len }, (_, i) => skip + link.pos + i) };
  }
  return { kind: 'expansion', fromRow: p, positions: expansion.slice(0, 4) };
}

/** 2-chains (p in the beam, c a candidate read from p): X2 = [F1(p), F1(c), H2(c|p), ln(1+r), h1(p) - h1(best)]. */
export function buildHop2(s: Searcher, q: Query, h: Hop1, exp: ExpansionParams): Chains {
  const whys: Why[] = [];
  const out: Chains = { chains: [], X: [], qcov: [], lk: [], why: (j) => whys[j] };
  const beamRows = new Set(h.beam.map((j) => h.pool[j]));
  const top = h.h1[h.beam[0]];
  h.beam.forEach((j, r) => {
    const p = h.pool[j];
    const next = s.hopNext(q, [p], beamRows, exp);
    next.rows.forEach((cRow, i) => {
      const F1c = s.hop1Features(q, cRow);
      const x = new Float64Array(X2_DIM);
      x.set(h.F1[j], 0);
      x.set(F1c, H1_NAMES.length);
      x.set(next.features[i], 2 * H1_NAMES.length);
      x[X2_DIM - 2] = Math.log1p(r);
      x[X2_DIM - 1] = h.h1[j] - top;
      out.chains.push([p, cRow]);
      out.X.push(x);
      out.qcov.push(next.features[i][QCOV_UNION]);
      out.lk.push(next.features[i][LK]);
      whys.push(stepWhy(s, p, next.links.get(s.c.titleKey(cRow)), next.expansion));
    });
  });
  return out;
}

/** 3-chains extending the best B3 2-chains, plus every 2-chain padded with zeros (X3_DIM each). */
export function buildHop3(s: Searcher, q: Query, two: Chains, sc2: number[], exp: ExpansionParams): Chains & { extends: number[] } {
  // the 2-chains come first and keep their whys; whys holds the 3-chains'
  const whys: Why[] = [];
  const n2 = two.chains.length;
  const out: Chains & { extends: number[] } = { chains: [], X: [], qcov: [], lk: [], why: (j) => (j < n2 ? two.why(j) : whys[j - n2]), extends: [] };
  two.chains.forEach((ch, j) => {
    const x = new Float64Array(X3_DIM);
    x.set(two.X[j], 0);
    out.chains.push(ch);
    out.X.push(x);
    out.qcov.push(two.qcov[j]);
    out.lk.push(two.lk[j]);
    out.extends.push(-1);
  });
  for (const j of chainOrder(sc2).slice(0, B3)) {
    const [p, cRow] = two.chains[j];
    const next = s.hopNext(q, [p, cRow], new Set(), exp);
    next.rows.forEach((d, i) => {
      const x = new Float64Array(X3_DIM);
      x.set(two.X[j], 0);
      x.set(s.hop1Features(q, d), X2_DIM);
      x.set(next.features[i], X2_DIM + H1_NAMES.length);
      x[X3_DIM - 1] = 1;
      out.chains.push([p, cRow, d]);
      out.X.push(x);
      out.qcov.push(next.features[i][QCOV_UNION]);
      out.lk.push(next.features[i][LK]);
      whys.push(stepWhy(s, cRow, next.links.get(s.c.titleKey(d)), next.expansion));
      out.extends.push(j);
    });
  }
  return out;
}

/** Stage-1 chains are single pool rows. */
export function hop1Chains(s: Searcher, q: Query, h: Hop1): Chains {
  return {
    chains: h.pool.map((r) => [r]),
    X: h.F1,
    qcov: h.F1.map((f) => f[QCOV]),
    lk: h.F1.map((f) => f[HIT]),
    why: (j) => queryWhy(s, q, h.pool[j]),
  };
}

/**
 * A chain stage lists, right after its top chain, those of hop 1's best KEEP_LONG passages that lie
 * in a long document (LONG_DOC passages or more): in a store of whole articles the passages the
 * question itself matches best are mostly in one article, and a chain stage must not push them down
 * for the next chains. Measured on the first 3,000 squad-articles-dev questions (313 returned a
 * chain stage): hit@5 0.957 -> 0.960, hit@1 and hit@10 unchanged; the multi-hop suites' documents
 * are single paragraphs (39 of 42,708 have LONG_DOC passages), so their lists hardly change.
 */
export const KEEP_LONG = 3;
export const LONG_DOC = 4;

/** A passage shares more than this share of the shorter of the two with a listed one of its document: not listed. */
export const MAX_OVERLAP = 0.25;

export interface Assembled {
  ret: number[];
  hops: number[];
  /** per returned row, the chain whose score it carries */
  from: number[];
}

/**
 * The result list of a stage. A passage is listed once, and not when it overlaps a listed passage
 * of its document by more than MAX_OVERLAP. Stage 1 (single rows): rows by score. A chain stage:
 * the chains by score, each chain's passages led by the one hop 1 ranked higher (the passage that
 * answers the question most directly first; rows outside `s1` keep their hop order, after), `hop`
 * = the row's position in its chain; after the top chain, the next chain-list passage alternates
 * with the best stage-1 passage (`s1`, hop-1 ranking) of a document already listed, so a long
 * document keeps the passages the question itself matches; before that alternation come hop 1's
 * best passages of long documents (KEEP_LONG above). Such a passage carries the score of the
 * passage listed before it.
 */
export function assemble(c: SearchCorpus, chains: number[][], sc: number[], k: number, s1: readonly number[] = []): Assembled {
  const out: Assembled = { ret: [], hops: [], from: [] };
  const docs = new Set<number>();
  const fits = (row: number) => {
    if (out.ret.includes(row)) return false;
    const d = c.docOf(row);
    if (!docs.has(d)) return true;
    const [a, b] = c.span(row);
    return !out.ret.some((r) => {
      if (c.docOf(r) !== d) return false;
      const [x, y] = c.span(r);
      return Math.min(b, y) - Math.max(a, x) > MAX_OVERLAP * Math.min(b - a, y - x);
    });
  };
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
  const lead = (ch: number[]) => ch.map((row, h) => ({ row, hop: h + 1 })).sort((a, b) => (rank.get(a.row) ?? Infinity) - (rank.get(b.row) ?? Infinity) || a.hop - b.hop);
  const order = chainOrder(sc);
  if (order.length === 0) return out;
  for (const { row, hop } of lead(chains[order[0]])) if (fits(row)) add(row, hop, order[0]);
  // stage 1 lists its own ranking: nothing to add from it
  const fill = chains[order[0]].length === 1 ? [] : s1;
  for (const row of fill.slice(0, KEEP_LONG)) if (c.docRows(row)[1] >= LONG_DOC && fits(row)) addStage1(row);
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

/** A stage as the sufficiency features see it: its chains and the first k of its result list. */
export function stageOf(c: SearchCorpus, ch: Chains, scores: number[], k: number, s1: readonly number[]): Stage & { from: number[] } {
  const { ret, hops, from } = assemble(c, ch.chains, scores, k, s1);
  return { chains: ch.chains, scores, ret, hops, from, qcov: ch.qcov, lk: ch.lk };
}
