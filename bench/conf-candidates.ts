// Candidate sufficiency features for the probe (conf-probe.ts): named groups read from a stage's top
// chain beside the shipped table (engine ranking/sufficiency-features.ts). A candidate is measured
// here first; one worth keeping moves into the engine's table and the model is trained again (as
// the top chain's first passage's hop-1 features did in svc-mh 1.18.0: `first.<name>`).
// Invariant: every group returns the same number of values for every stage of a question (the
// blocks of a 2-chain stand in for a 3-chain's last step when the top chain has two passages).
import type { Chains, Query, SearchCorpus, Stage } from '../src/engine/index.js';
import { CHAIN2_NAMES, H1_NAMES, H2_NAMES } from '../src/engine/index.js';
import { FLAG_STOP } from '../src/engine/text/index.js';

/** What a candidate reads: the stage, its chains' feature vectors, its top chain. */
export interface ProbeContext {
  c: SearchCorpus;
  q: Query;
  st: Stage;
  ch: Chains;
  /** index of the top chain, and its chain-feature vector */
  top: number;
  x: Float64Array;
  /** the stage: 0 (single passages), 1 (2-chains), 2 (3-chains and 2-chains) */
  stage: number;
}

export interface Candidate {
  name: string;
  compute: (x: ProbeContext) => number[];
}

const N1 = H1_NAMES.length;
const N2 = H2_NAMES.length;

/** The share of the question's idf mass whose terms satisfy `held`. */
function massOf(q: Query, held: (i: number) => boolean): number {
  let v = 0;
  for (let i = 0; i < q.qt.length; i++) if (held(i)) v += q.qidf[i];
  return v / q.qidfSum;
}

/** The top chain's last passage block: its hop-1 features and its step's hop features (zeros at stage 0's step). */
function lastBlock({ x, stage }: ProbeContext): number[] {
  if (stage === 0) return [...Array.from(x), ...new Array<number>(N2).fill(0)];
  const is3 = stage === 2 && x[x.length - 1] === 1;
  const at = is3 ? CHAIN2_NAMES.length : N1;
  return Array.from(x.subarray(at, at + N1 + N2));
}

const FIRST_ROUND: readonly Candidate[] = [
  /** the top chain's last passage and the step that reached it */
  { name: 'last', compute: lastBlock },
  /** the share of the question's idf mass left unheld by the chain's earlier passages that its last passage holds */
  {
    name: 'last_unres',
    compute: ({ q, st, top }) => {
      const pres = st.chains[top].map((r) => q.present(r));
      const last = pres.length - 1;
      if (last === 0) return [1];
      const open = (i: number) => !pres.slice(0, last).some((p) => p[i] === 1);
      const unresolved = massOf(q, open);
      return [unresolved > 0 ? massOf(q, (i) => open(i) && pres[last][i] === 1) / unresolved : 1];
    },
  },
  /** the probability mass of the chains whose documents are all the top chain's */
  {
    name: 'agree_all',
    compute: ({ c, st, top }) => {
      const mx = Math.max(...st.scores);
      const ex = st.scores.map((v) => Math.exp(v - mx));
      const docs = new Set(st.chains[top].map((r) => c.docOf(r)));
      const z = ex.reduce((a, b) => a + b, 0);
      return [st.chains.reduce((m, cc, j) => (cc.every((r) => docs.has(c.docOf(r))) ? m + ex[j] / z : m), 0)];
    },
  },
];

/** The top chain's lead over the best chain that avoids `shared` documents of it (5 when none does), capped at 5. */
function leadOver({ st, top }: ProbeContext, shared: (row: number) => boolean): number {
  let best = -Infinity;
  st.chains.forEach((ch, j) => {
    if (j !== top && !ch.some(shared)) best = Math.max(best, st.scores[j]);
  });
  return Number.isFinite(best) ? Math.min(st.scores[top] - best, 5) : 5;
}

/** Share of the question's bigrams (adjacent non-stop terms) some row holds as adjacent non-stop terms. */
function bigramShare(c: SearchCorpus, q: Query, rows: number[]): number {
  if (q.bigrams.size === 0) return 1;
  const held = new Set<string>();
  for (const r of rows) {
    const { terms, flags } = c.seq(r);
    let prev = -1;
    for (let i = 0; i < terms.length; i++) {
      if (flags[i] & FLAG_STOP) continue;
      if (prev >= 0) {
        const key = `${prev}:${terms[i]}`;
        if (q.bigrams.has(key)) held.add(key);
      }
      prev = terms[i];
    }
  }
  return held.size / q.bigrams.size;
}

/** Measured on 2026-12-05 (docs/generalisation.md): none moved an AUROC of found against hidden runs by more than 0.014. */
const SECOND_ROUND: readonly Candidate[] = [
  /** the top chain's lead over the best chain sharing no document with it, none of its first, none of its last */
  {
    name: 'disjoint',
    compute: (x) => {
      const { c, st, top } = x;
      const chain = st.chains[top];
      const docs = new Set(chain.map((r) => c.docOf(r)));
      const first = c.docOf(chain[0]);
      const last = c.docOf(chain[chain.length - 1]);
      return [leadOver(x, (r) => docs.has(c.docOf(r))), leadOver(x, (r) => c.docOf(r) === first), leadOver(x, (r) => c.docOf(r) === last)];
    },
  },
  /** how flat hop 1's ranking is: the best score's lead over the 2nd, 5th and 10th, and the share of the first 50 within 80% of it */
  {
    name: 'h1flat',
    compute: ({ q }) => {
      const s = (i: number) => (i < q.order.length ? Math.max(q.s[q.order[i]], 0) : 0);
      const s0 = Math.max(s(0), 1e-6);
      let near = 0;
      for (let i = 0; i < Math.min(q.order.length, 50); i++) if (s(i) >= 0.8 * s0) near++;
      return [(s0 - s(1)) / s0, (s0 - s(4)) / s0, (s0 - s(9)) / s0, near / 50];
    },
  },
  /** the question's dense cosine with the top chain's passages (least, mean, most) and the first five listed (mean) */
  {
    name: 'chain_dense',
    compute: ({ q, st, top }) => {
      const d = st.chains[top].map((r) => q.dense(r));
      const l = st.ret.slice(0, 5).map((r) => q.dense(r));
      return [
        Math.min(...d),
        d.reduce((a, b) => a + b, 0) / d.length,
        Math.max(...d),
        l.reduce((a, b) => a + b, 0) / Math.max(l.length, 1),
      ];
    },
  },
  /** share of the question's bigrams the top chain holds, and the first ten listed */
  {
    name: 'chain_bigram',
    compute: ({ c, q, st, top }) => [bigramShare(c, q, st.chains[top]), bigramShare(c, q, st.ret.slice(0, 10))],
  },
];

export const CANDIDATES: readonly Candidate[] = [...FIRST_ROUND, ...SECOND_ROUND];
