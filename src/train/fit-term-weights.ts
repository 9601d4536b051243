// Learned question-term weights θ: how much each question word should count in the hop-1 scan
// (e.g. "name" or "called" count less than their idf says). θ_t = exp(φ_t) multiplies the term's
// BM25 contribution; φ is fitted by a listwise softmax over each question's BM25 top-K passages
// (positives: passages of the gold article holding an answer), on SQuAD-train articles the rest of
// training never sees, for terms asked about in at least `minCount` questions (others keep 1).
import type { InProcessStore, Query, SearchCorpus } from '../engine/index.js';
import type { TrainQuery } from './data.js';
import { minimize } from './lbfgs.js';
import { evidenceRows, type TrainSet } from './train-set.js';

export interface TermWeightOptions {
  candidates: number;
  minCount: number;
  l2: number;
  log?: (msg: string) => void;
}

/** BM25 contribution of each question term to a row (body + title fields), before any weight. */
function contributions(c: SearchCorpus, q: Query, row: number): Float64Array {
  const { k1, b, k1Title, bTitle, titleWeight } = c.lexical;
  const x = new Float64Array(q.qt.length);
  const count = (seq: Uint32Array) => {
    const tf = new Float64Array(q.qt.length);
    for (const t of seq) {
      const i = q.qindex.get(t);
      if (i !== undefined) tf[i]++;
    }
    return tf;
  };
  const body = c.seq(row).terms;
  const title = c.title(row);
  const tb = count(body);
  const tt = count(title);
  const nb = k1 * (1 - b + (b * body.length) / Math.max(c.stats.avgBody, 1e-3));
  const nt = k1Title * (1 - bTitle + (bTitle * title.length) / Math.max(c.stats.avgTitle, 1e-3));
  q.qt.forEach((t, i) => {
    const idf = c.idf(t);
    x[i] = idf * ((tb[i] * (k1 + 1)) / (tb[i] + nb) + (titleWeight * (tt[i] * (k1Title + 1))) / (tt[i] + nt || 1));
  });
  return x;
}

export function fitTermWeights(set: TrainSet, o: TermWeightOptions): { terms: number[]; weights: number[] } {
  const store: InProcessStore = set.store;
  const counts = new Map<number, number>();
  const rows: Array<{ terms: number[]; x: Float64Array[]; pos: boolean[] }> = [];
  for (const q of set.queries as TrainQuery[]) {
    const s = store.searcher();
    const Q = s.query(q.text);
    for (const t of Q.qt) counts.set(t, (counts.get(t) ?? 0) + 1);
    const ev = evidenceRows(set, q);
    const cand = s.topOfQuery(o.candidates).map(([r]) => r);
    const pos = cand.map((r) => ev.has(r));
    if (!pos.some(Boolean)) continue;
    rows.push({ terms: Q.qt, x: cand.map((r) => contributions(s.c, Q, r)), pos });
  }
  const vocab = [...counts]
    .filter(([, n]) => n >= o.minCount)
    .map(([t]) => t)
    .sort((a, b) => a - b);
  const index = new Map(vocab.map((t, i) => [t, i]));
  o.log?.(`term weights: ${vocab.length} terms over ${rows.length} questions with an answer passage among ${o.candidates} candidates`);
  const phi = minimize(
    (p) => {
      const g = new Float64Array(p.length);
      let f = 0;
      const theta = Array.from(p, Math.exp);
      for (const r of rows) {
        const w = r.terms.map((t) => (index.has(t) ? theta[index.get(t)!] : 1));
        const s = r.x.map((x) => x.reduce((a, v, i) => a + v * w[i], 0));
        const mx = Math.max(...s);
        const e = s.map((v) => Math.exp(v - mx));
        const all = e.reduce((a, b) => a + b, 0);
        const pos = e.reduce((a, v, i) => a + (r.pos[i] ? v : 0), 0);
        f -= Math.log(pos / all);
        r.x.forEach((x, j) => {
          const coef = e[j] / all - (r.pos[j] ? e[j] / pos : 0);
          r.terms.forEach((t, i) => {
            const k = index.get(t);
            if (k !== undefined) g[k] += (coef * x[i] * w[i]) / rows.length;
          });
        });
      }
      let reg = 0;
      for (let k = 0; k < p.length; k++) {
        reg += p[k] * p[k];
        g[k] += 2 * o.l2 * p[k];
      }
      return { f: f / rows.length + o.l2 * reg, g };
    },
    new Float64Array(vocab.length),
    { maxIter: 200 },
  );
  return { terms: vocab, weights: Array.from(phi, (v) => Math.round(Math.exp(v) * 1e4) / 1e4) };
}
