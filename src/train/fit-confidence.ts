// The sufficiency model of each stage: logistic regression over the stage's confidence features
// (engine ranking/sufficiency-features.ts) predicting "the first k results hold sufficient evidence", with the same
// questions asked of the store with their supporting documents hidden as extra negatives, rows
// weighted as HYPER.confWeights says (hidden runs, questions that need three or more documents),
// then Platt-calibrated on logits it did not see in training (inner cross-fitting by question) over
// the answerable rows only. A question's rows depend only on it and the chain weights, so the fits
// that read the same questions under the same weights (`conf` and `decide`) share them
// (ConfidenceRows): each question is searched once, as asked and hidden, per set of weights.
import {
  type Chains,
  type ConfParams,
  dotw,
  type ExpansionParams,
  hop1Chains,
  type Stage,
  stageOf,
  sufficiencyFeatures,
} from '../engine/index.js';
import type { TrainQuery } from './data.js';
import { buildStages, type ChainWeights, type Item } from './fit-chains.js';
import { HYPER } from './hyper.js';
import { fitLogistic, fitPlatt, stratifiedFolds } from './learners.js';
import { evidenceRows, sufficient } from './train-set.js';

export const CONF_KS = [2, 5, 10, 20];

/** One stage and k of one question's search; `query` is the question's index in the fit that reads it. */
interface Row {
  query: number;
  stage: number;
  f: Float64Array;
  y: number;
  w: number;
  answerable: boolean;
}

type QuestionRow = Omit<Row, 'query'>;

/** A stage of one question's search with the chains it was built from. */
export interface ConfidenceStage {
  ch: Chains;
  st: Stage;
}

/**
 * One question's search (as asked, or with its documents hidden) cut into the stages the
 * sufficiency models score, each listing the largest k of CONF_KS; undefined when hop 1 finds nothing.
 */
export function confidenceStages(item: Item, w: ChainWeights, exp: ExpansionParams, theta: ReadonlyMap<number, number>, hidden: boolean) {
  const b = buildStages(item, w, exp, theta, hidden ? item.q.gold : []);
  if (!b.hop1 || b.hop1.pool.length === 0) return undefined;
  const ranked = b.hop1.ranked;
  const corpus = item.set.store.corpus();
  const stage = (ch: Chains, scores: number[]): ConfidenceStage => ({ ch, st: stageOf(corpus, ch, scores, Math.max(...CONF_KS), ranked) });
  const stages = [stage(hop1Chains(b.s, b.Q, b.hop1), b.hop1.h1)];
  if (b.two?.chains.length) stages.push(stage(b.two, b.sc2!));
  if (b.three?.chains.length)
    stages.push(
      stage(
        b.three,
        b.three.X.map((x) => dotw(w.W3, x)),
      ),
    );
  return { c: b.s.c, Q: b.Q, stages };
}

/** A row's weight in the sufficiency fit: HYPER.confWeights for a hidden run and for a question of three or more documents. */
export function confidenceWeight(q: TrainQuery, hidden: boolean): number {
  return (hidden ? HYPER.confWeights.noAnswer : 1) * (q.gold.length >= 3 ? HYPER.confWeights.deep : 1);
}

/** Confidence rows of every stage and every k for one question (with its documents present or hidden). */
function rowsFor(item: Item, w: ChainWeights, exp: ExpansionParams, theta: ReadonlyMap<number, number>, hidden: boolean): QuestionRow[] {
  const { set, q } = item;
  const got = confidenceStages(item, w, exp, theta, hidden);
  if (!got) return [];
  const ev = evidenceRows(set, q);
  const weight = confidenceWeight(q, hidden);
  const out: QuestionRow[] = [];
  got.stages.forEach(({ st }, h) => {
    for (const k of CONF_KS) {
      const y = !hidden && sufficient(set, q, st.ret.slice(0, k), ev) ? 1 : 0;
      out.push({ stage: h, f: sufficiencyFeatures(got.c, got.Q, st, k), y, w: weight, answerable: !hidden });
    }
  });
  return out;
}

/** Each question's rows (as asked, then hidden) under one set of chain weights, computed on first use and kept. */
export class ConfidenceRows {
  private readonly kept = new Map<Item, QuestionRow[]>();

  constructor(
    private readonly w: ChainWeights,
    private readonly exp: ExpansionParams,
    private readonly theta: ReadonlyMap<number, number>,
  ) {}

  of(item: Item): readonly QuestionRow[] {
    let rows = this.kept.get(item);
    if (!rows) {
      rows = [...rowsFor(item, this.w, this.exp, this.theta, false), ...rowsFor(item, this.w, this.exp, this.theta, true)];
      this.kept.set(item, rows);
    }
    return rows;
  }
}

export function fitConfidence(items: Item[], questionRows: ConfidenceRows, l2: number, seed: number): ConfParams[] {
  const rows: Row[] = items.flatMap((it, query) => questionRows.of(it).map((r) => ({ ...r, query })));
  const folds = stratifiedFolds(
    items.map((it) => it.q.suite),
    5,
    seed,
  );
  return [0, 1, 2].map((stage) => {
    const rs = rows.filter((r) => r.stage === stage);
    const fit = (sub: Row[]) =>
      fitLogistic(
        sub.map((r) => r.f),
        sub.map((r) => r.y),
        l2,
        sub.map((r) => r.w),
      );
    const full = fit(rs);
    // out-of-fold logits of the answerable rows, for the calibration
    const logits: number[] = [];
    const ys: number[] = [];
    for (let k = 0; k < 5; k++) {
      const wk = fit(rs.filter((r) => folds[r.query] !== k));
      for (const r of rs) {
        if (folds[r.query] !== k || !r.answerable) continue;
        logits.push(dotw(wk, r.f) + wk[wk.length - 1]);
        ys.push(r.y);
      }
    }
    const [a, c] = logits.length ? fitPlatt(logits, ys) : [1, 0];
    return { w: Array.from(full.subarray(0, full.length - 1)), b: full[full.length - 1], platt_a: a, platt_b: c };
  });
}
