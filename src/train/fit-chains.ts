// Fits the three chain scorers in order, each on candidates built with the scorers before it:
// W1 ranks the hop-1 pool (positives: evidence passages: passages of supporting documents, or the
// answer passages of single-hop questions); W2 ranks 2-chains (positives: two passages of distinct
// supporting documents); W3 ranks 2- and 3-chains together (positives: the chains holding the most
// supporting documents, the shortest of them). W2 and W3 learn from multi-hop sets only.
import {
  buildHop1,
  buildHop2,
  buildHop3,
  CHAIN2_NAMES,
  CHAIN3_NAMES,
  type Chains,
  dotw,
  type ExpansionParams,
  H1_NAMES,
} from '../engine/index.js';
import type { TrainQuery } from './data.js';
import { fitSoftmax, type Group } from './learners.js';
import { evidenceRows, type TrainSet } from './train-set.js';

export interface ChainWeights {
  W1: number[];
  W2: number[];
  W3: number[];
}

export interface ChainFitOptions {
  l2: number;
  exp: ExpansionParams;
  /** learned question-term weights used by every search */
  theta: ReadonlyMap<number, number>;
  log?: (msg: string) => void;
}

/** A question with the set it belongs to. */
export interface Item {
  set: TrainSet;
  q: TrainQuery;
}

/** Distinct documents among a chain's evidence rows. */
function evidenceDocs(item: Item, evidence: Set<number>, chain: number[]): number {
  return new Set(chain.filter((r) => evidence.has(r)).map((r) => item.set.store.docIdOf(r))).size;
}

/** Stages built for one question with the given weights (as far as they exist). */
export function buildStages(
  { set, q }: Item,
  w: Partial<ChainWeights>,
  exp: ExpansionParams,
  theta: ReadonlyMap<number, number>,
  hidden: string[] = [],
) {
  const s = set.store.searcher(hidden, theta);
  const Q = s.query(q.text);
  const hop1 = w.W1 ? buildHop1(s, Q, w.W1) : undefined;
  const pool = hop1 ? undefined : s.hop1(Q);
  let two: Chains | undefined;
  let sc2: number[] | undefined;
  let three: (Chains & { extends: number[] }) | undefined;
  if (hop1?.beam.length) {
    two = buildHop2(s, Q, hop1, exp);
    if (w.W2) {
      sc2 = two.X.map((x) => dotw(w.W2!, x));
      three = buildHop3(s, Q, two, sc2, exp);
    }
  }
  return { s, Q, hop1, pool, two, sc2, three };
}

const empty: Group = { x: [], pos: [] };

export function fitChains(items: Item[], o: ChainFitOptions): ChainWeights {
  const log = o.log ?? (() => {});
  const g1 = items.map((it) => {
    const ev = evidenceRows(it.set, it.q);
    const { pool } = buildStages(it, {}, o.exp, o.theta);
    return { x: pool!.features, pos: pool!.rows.map((r) => ev.has(r)) };
  });
  const W1 = Array.from(fitSoftmax(g1, H1_NAMES.length, o.l2));
  log(`W1 fitted on ${g1.filter((g) => g.pos.some(Boolean)).length} questions with evidence in the hop-1 pool`);

  const multi = items.filter((it) => it.set.chains);
  const g2 = multi.map((it) => {
    const ev = evidenceRows(it.set, it.q);
    const { two } = buildStages(it, { W1 }, o.exp, o.theta);
    return two ? { x: two.X, pos: two.chains.map((ch) => evidenceDocs(it, ev, ch) === 2) } : empty;
  });
  const W2 = Array.from(fitSoftmax(g2, CHAIN2_NAMES.length, o.l2));
  log(`W2 fitted on ${g2.filter((g) => g.pos.some(Boolean)).length} questions with an evidence 2-chain`);

  const g3 = multi.map((it) => {
    const ev = evidenceRows(it.set, it.q);
    const { three } = buildStages(it, { W1, W2 }, o.exp, o.theta);
    if (!three) return empty;
    const n = three.chains.map((ch) => evidenceDocs(it, ev, ch));
    const best = Math.max(0, ...n);
    const shortest = Math.min(...three.chains.filter((_, i) => n[i] === best).map((ch) => ch.length));
    return { x: three.X, pos: three.chains.map((ch, i) => best > 0 && n[i] === best && ch.length === shortest) };
  });
  const W3 = Array.from(fitSoftmax(g3, CHAIN3_NAMES.length, o.l2));
  log(`W3 fitted on ${g3.filter((g) => g.pos.some(Boolean)).length} questions`);
  return { W1, W2, W3 };
}
