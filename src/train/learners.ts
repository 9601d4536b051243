// The small learners of the model: a listwise softmax ranker over candidate groups, L2-regularised
// logistic regression, Platt and isotonic calibration, and stratified k-fold assignment. All fit
// with L-BFGS from zero, deterministically.
import { minimize } from './lbfgs.js';

/** Candidates of one query: feature rows and which of them are positives. */
export interface Group {
  x: Float64Array[];
  pos: boolean[];
}

function dotw(w: Float64Array, x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += w[i] * x[i];
  return s;
}

/** Maximises Σ_q log(Σ_pos e^{w·x} / Σ_all e^{w·x}) − l2·|w|² over groups that have a positive. */
export function fitSoftmax(groups: Group[], dim: number, l2 = 1e-2): Float64Array {
  const used = groups.filter((g) => g.pos.some(Boolean));
  const n = Math.max(used.length, 1);
  return minimize((w) => {
    let f = 0;
    const grad = new Float64Array(dim);
    for (const g of used) {
      const z = g.x.map((x) => dotw(w, x));
      const mx = Math.max(...z);
      const e = z.map((v) => Math.exp(v - mx));
      let all = 0;
      let pos = 0;
      e.forEach((v, i) => {
        all += v;
        if (g.pos[i]) pos += v;
      });
      f -= Math.log(pos / all);
      g.x.forEach((x, i) => {
        const c = (g.pos[i] ? e[i] / pos : 0) - e[i] / all;
        for (let j = 0; j < dim; j++) grad[j] -= c * x[j];
      });
    }
    let reg = 0;
    for (let j = 0; j < dim; j++) {
      reg += w[j] * w[j];
      grad[j] = grad[j] / n + 2 * l2 * w[j];
    }
    return { f: f / n + l2 * reg, g: grad };
  }, new Float64Array(dim));
}

/** Logistic regression with a bias (last weight, not regularised). */
export function fitLogistic(xs: Float64Array[], ys: number[], l2 = 1e-3, weights?: number[]): Float64Array {
  const dim = (xs[0]?.length ?? 0) + 1;
  const sw = weights ?? ys.map(() => 1);
  const total = sw.reduce((a, b) => a + b, 0) || 1;
  return minimize((w) => {
    let f = 0;
    const g = new Float64Array(dim);
    xs.forEach((x, i) => {
      const z = dotw(w, x) + w[dim - 1];
      const p = 1 / (1 + Math.exp(-z));
      f += sw[i] * (ys[i] * softplus(-z) + (1 - ys[i]) * softplus(z));
      const c = sw[i] * (p - ys[i]);
      for (let j = 0; j < dim - 1; j++) g[j] += c * x[j];
      g[dim - 1] += c;
    });
    let reg = 0;
    for (let j = 0; j < dim - 1; j++) {
      reg += w[j] * w[j];
      g[j] = g[j] / total + 2 * l2 * w[j];
    }
    g[dim - 1] /= total;
    return { f: f / total + l2 * reg, g };
  }, new Float64Array(dim));
}

function softplus(z: number): number {
  return z > 30 ? z : Math.log1p(Math.exp(z));
}

export function predictLogistic(w: ArrayLike<number>, x: ArrayLike<number>): number {
  let z = w[w.length - 1];
  for (let i = 0; i < x.length; i++) z += w[i] * x[i];
  return 1 / (1 + Math.exp(-z));
}

/** Platt scaling: p = σ(a·s + b) fitted to labels (optionally weighted); returns [a, b]. */
export function fitPlatt(scores: number[], ys: number[], weights?: number[]): [number, number] {
  const w = fitLogistic(
    scores.map((s) => Float64Array.of(s)),
    ys,
    0,
    weights,
  );
  return [w[0], w[1]];
}

/** Isotonic regression by pool-adjacent-violators: a non-decreasing step function of x. */
export function fitIsotonic(xs: number[], ys: number[]): { x: number[]; y: number[] } {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b] || a - b);
  const vals: number[] = [];
  const wts: number[] = [];
  const lo: number[] = [];
  for (const i of order) {
    vals.push(ys[i]);
    wts.push(1);
    lo.push(xs[i]);
    while (vals.length > 1 && vals[vals.length - 2] > vals[vals.length - 1]) {
      const w = wts[wts.length - 2] + wts[wts.length - 1];
      const v = (vals[vals.length - 2] * wts[wts.length - 2] + vals[vals.length - 1] * wts[wts.length - 1]) / w;
      vals.splice(-2, 2, v);
      wts.splice(-2, 2, w);
      lo.splice(-1, 1);
    }
  }
  return { x: lo, y: vals };
}

export function predictIsotonic(model: { x: number[]; y: number[] }, v: number): number {
  let lo = 0;
  let hi = model.x.length - 1;
  if (hi < 0) return 0.5;
  if (v < model.x[0]) return model.y[0];
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (model.x[mid] <= v) lo = mid;
    else hi = mid - 1;
  }
  return model.y[lo];
}

/** k folds stratified by `strata`: within each stratum a seeded shuffle, fold = position mod k. */
export function stratifiedFolds(strata: string[], k: number, seed: number): number[] {
  const out = new Array<number>(strata.length);
  const rand = mulberry32(seed);
  for (const s of [...new Set(strata)].sort()) {
    const idx = strata.map((x, i) => (x === s ? i : -1)).filter((i) => i >= 0);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    idx.forEach((q, pos) => {
      out[q] = pos % k;
    });
  }
  return out;
}

/** A small seeded PRNG (mulberry32): uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Expected calibration error over `bins` equal-width bins. */
export function ece(conf: number[], ys: number[], bins = 10): number {
  let e = 0;
  for (let b = 0; b < bins; b++) {
    const idx = conf.map((c, i) => (Math.min(Math.floor(c * bins), bins - 1) === b ? i : -1)).filter((i) => i >= 0);
    if (!idx.length) continue;
    const mc = idx.reduce((s, i) => s + conf[i], 0) / idx.length;
    const my = idx.reduce((s, i) => s + ys[i], 0) / idx.length;
    e += (idx.length / conf.length) * Math.abs(mc - my);
  }
  return e;
}

/**
 * The ECE a perfectly calibrated confidence shows on these questions: each question found with
 * probability equal to its confidence, `draws` seeded draws; the mean and the 90th percentile. On a
 * small suite with confidences in the middle of the range this is far from 0, so an ECE can only be
 * judged against it: a suite passes when its ECE is at most max(0.05, the 90th percentile).
 */
export function eceFloor(conf: number[], draws = 1000, seed = 1): { mean: number; p90: number } {
  const rand = mulberry32(seed);
  const eces: number[] = [];
  for (let d = 0; d < draws; d++)
    eces.push(
      ece(
        conf,
        conf.map((c) => (rand() < c ? 1 : 0)),
      ),
    );
  eces.sort((a, b) => a - b);
  return { mean: eces.reduce((a, b) => a + b, 0) / Math.max(draws, 1), p90: eces[Math.min(draws - 1, Math.floor(0.9 * draws))] ?? 0 };
}

/** The probability that a random `pos` score exceeds a random `neg` score (ties count half): the area under the ROC curve. */
export function auroc(pos: number[], neg: number[]): number {
  if (!pos.length || !neg.length) return Number.NaN;
  const all = [...pos.map((v) => [v, 1] as const), ...neg.map((v) => [v, 0] as const)].sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j][0] === all[i][0]) j++;
    const mid = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (all[k][1] === 1) rankSum += mid;
    i = j;
  }
  return (rankSum - (pos.length * (pos.length + 1)) / 2) / (pos.length * neg.length);
}
