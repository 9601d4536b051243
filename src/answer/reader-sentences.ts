// Stage 1 of the native reader: features of every sentence of the passages (idf-weighted coverage
// of the question's terms by the sentence, its neighbours and its passage, question bigrams, passage
// rank, position and length, and per wh-type whether it holds a year, a number or a name), their
// scores under the reader's sentence weights, and the best sentences that stage 2 reads.
// Invariants: shared by training and serving; a sentence's features depend only on the context.

import { F_YEAR, type ReadContext, W_CAP, W_NUM } from './reader-context.js';
import { QTYPES } from './text-units.js';

export const TOP_SENTENCES = 3;

const SENT_BASE = [
  's_cov',
  's_cnt',
  's_bigram',
  's_maxidf',
  's_ctx_cov',
  'p_cov',
  'p_rank0',
  'p_rank1',
  'p_rank_le3',
  'p_rank_inv',
  's_first',
  's_loglen',
  's_best',
  's_second',
  's_cov_rel',
];
const SENT_SHAPES = ['year', 'num', 'cap'];
export const SENT_NAMES = [...SENT_BASE, ...QTYPES.flatMap((q) => SENT_SHAPES.map((s) => `${q}*s_${s}`))];

/** Receives features: index and value. */
export interface Sink {
  f(index: number, value: number): void;
}

/** Features of sentence `si`. */
export function sentenceFeatures(ctx: ReadContext, si: number, sink: Sink): void {
  const s = ctx.sents[si];
  const p = ctx.passages[s.p];
  const { q } = ctx;
  let cnt = 0;
  let maxIdf = 0;
  let bigrams = 0;
  let hasYear = 0;
  let hasNum = 0;
  let hasCap = 0;
  let prev = -1;
  const seen = p.qCnt[s.b] > p.qCnt[s.a] ? new Set<string>() : undefined;
  for (let i = s.a; i < s.b; i++) {
    if (p.qIdf[i] > 0) {
      const st = p.w.stem[i];
      if (!seen!.has(st)) {
        seen!.add(st);
        cnt++;
        if (p.qIdf[i] > maxIdf) maxIdf = p.qIdf[i];
      }
      if (prev >= 0 && p.qIdf[prev] > 0 && q.bigrams.has(`${p.w.stem[prev]} ${st}`)) bigrams++;
    }
    if (!p.stop[i]) prev = i;
    if (p.flag[i] & F_YEAR) hasYear = 1;
    else if (p.wc[i] === W_NUM) hasNum = 1;
    if (i > s.a && p.wc[i] === W_CAP) hasCap = 1;
  }
  const prevS = ctx.sents[si - 1];
  const nextS = ctx.sents[si + 1];
  const v = [
    s.cov,
    q.terms.size ? cnt / q.terms.size : 0,
    q.bigrams.size ? bigrams / q.bigrams.size : 0,
    ctx.qMaxIdf > 0 ? maxIdf / ctx.qMaxIdf : 0,
    Math.max(prevS?.p === s.p ? prevS.cov : 0, nextS?.p === s.p ? nextS.cov : 0),
    p.cov,
    s.p === 0 ? 1 : 0,
    s.p === 1 ? 1 : 0,
    s.p <= 2 ? 1 : 0,
    1 / (1 + s.p),
    s.a === 0 ? 1 : 0,
    Math.log1p(s.b - s.a),
    s.cov > 0 && s.cov === ctx.maxCov ? 1 : 0,
    s.cov > 0 && s.cov === ctx.secondCov ? 1 : 0,
    s.cov - ctx.maxCov,
  ];
  for (let k = 0; k < v.length; k++) if (v[k] !== 0) sink.f(k, v[k]);
  const base = SENT_BASE.length + q.qtype * SENT_SHAPES.length;
  if (hasYear) sink.f(base, 1);
  if (hasNum) sink.f(base + 1, 1);
  if (hasCap) sink.f(base + 2, 1);
}

/** Scores every sentence with `weights` and sets logit, prob (softmax over the question) and rank. */
export function scoreSentences(ctx: ReadContext, weights: ArrayLike<number>): void {
  const dot = new DotSink(weights);
  let mx = -Infinity;
  for (let i = 0; i < ctx.sents.length; i++) {
    dot.sum = 0;
    sentenceFeatures(ctx, i, dot);
    ctx.sents[i].logit = dot.sum;
    if (dot.sum > mx) mx = dot.sum;
  }
  ctx.maxLogit = mx;
  let z = 0;
  for (const s of ctx.sents) z += Math.exp(s.logit - mx);
  for (const s of ctx.sents) s.prob = Math.exp(s.logit - mx) / z;
  [...ctx.sents.keys()]
    .sort((x, y) => ctx.sents[y].logit - ctx.sents[x].logit || x - y)
    .forEach((si, r) => {
      ctx.sents[si].rank = r;
    });
}

/** The indices of the best `k` sentences, best first. */
export function topSentences(ctx: ReadContext, k = TOP_SENTENCES): number[] {
  return [...ctx.sents.keys()].filter((i) => ctx.sents[i].rank < k).sort((x, y) => ctx.sents[x].rank - ctx.sents[y].rank);
}

/** A sink that accumulates the dot product with a weight vector. */
export class DotSink implements Sink {
  sum = 0;
  constructor(readonly w: ArrayLike<number>) {}
  f(index: number, value: number): void {
    this.sum += this.w[index] * value;
  }
}
