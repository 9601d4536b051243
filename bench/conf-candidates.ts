// Candidate sufficiency features for the probe (conf-probe.ts): named groups read from a stage's top
// chain beside the shipped table (engine ranking/sufficiency-features.ts). A candidate is measured
// here first; one worth keeping moves into the engine's table and the model is trained again (as
// the top chain's first passage's hop-1 features did in svc-mh 1.18.0: `first.<name>`).
// Invariant: every group returns the same number of values for every stage of a question (the
// blocks of a 2-chain stand in for a 3-chain's last step when the top chain has two passages).
import type { Chains, Query, SearchCorpus, Stage } from '../src/engine/index.js';
import { CHAIN2_NAMES, H1_NAMES, H2_NAMES } from '../src/engine/index.js';
import { FLAG_CAPITALISED, FLAG_NUMBER, FLAG_SENTENCE_START, FLAG_STOP, FLAG_YEAR } from '../src/engine/text/index.js';

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

/** A model's dense term rows, unit length, by term id (the probe sets it from the model folder it reads). */
export class TermVectors {
  private readonly rowOf = new Map<number, number>();
  private readonly unit: Float32Array;
  private readonly memo = new Map<number, number>();
  constructor(
    readonly dim: number,
    vocab: Uint8Array,
    table: Uint8Array,
  ) {
    const ids = new Uint32Array(vocab.buffer.slice(vocab.byteOffset, vocab.byteOffset + vocab.byteLength));
    const t = new Int8Array(table.buffer, table.byteOffset, table.byteLength);
    this.unit = new Float32Array(t.length);
    ids.forEach((id, r) => {
      this.rowOf.set(id, r);
      let n = 0;
      for (let i = 0; i < dim; i++) n += t[r * dim + i] ** 2;
      const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
      for (let i = 0; i < dim; i++) this.unit[r * dim + i] = t[r * dim + i] * inv;
    });
  }
  /** Cosine of two terms' rows (1 for the same term, 0 when either has none). */
  sim(a: number, b: number): number {
    if (a === b) return 1;
    const ra = this.rowOf.get(a);
    const rb = this.rowOf.get(b);
    if (ra === undefined || rb === undefined) return 0;
    const key = ra < rb ? ra * 1048576 + rb : rb * 1048576 + ra;
    let v = this.memo.get(key);
    if (v === undefined) {
      v = 0;
      for (let i = 0; i < this.dim; i++) v += this.unit[ra * this.dim + i] * this.unit[rb * this.dim + i];
      v = Math.max(v, 0);
      this.memo.set(key, v);
    }
    return v;
  }
}

let vectors: TermVectors | undefined;
export function setTermVectors(v: TermVectors): void {
  vectors = v;
}

/** A row's sentences: each its non-stop terms, and whether it holds a term of the kind of answer the question asks that the question lacks. */
function sentencesOf(c: SearchCorpus, q: Query, row: number): Array<{ terms: number[]; typed: boolean }> {
  const { terms, flags } = c.seq(row);
  const kind = q.asks === 'date' ? FLAG_YEAR : q.asks === 'number' ? FLAG_NUMBER | FLAG_YEAR : FLAG_CAPITALISED;
  const out: Array<{ terms: number[]; typed: boolean }> = [{ terms: [], typed: false }];
  for (let i = 0; i < terms.length; i++) {
    if (flags[i] & FLAG_SENTENCE_START && out[out.length - 1].terms.length > 0) out.push({ terms: [], typed: false });
    const cur = out[out.length - 1];
    if (!(flags[i] & FLAG_STOP)) cur.terms.push(terms[i]);
    if (flags[i] & kind && !q.allTerms.has(terms[i]) && !(kind === FLAG_CAPITALISED && flags[i] & FLAG_SENTENCE_START)) cur.typed = true;
  }
  return out;
}

/**
 * The best share of the idf mass of the question terms `want` any one sentence of `rows` holds,
 * softly (each term met by the sentence term of the closest dense row) or exactly; `typed`: only
 * sentences holding a candidate answer of the kind asked count (0 when none does).
 */
function bestSentence(c: SearchCorpus, q: Query, rows: number[], want: (i: number) => boolean, soft: boolean, typed = false): number {
  let mass = 0;
  for (let i = 0; i < q.qt.length; i++) if (want(i)) mass += q.qidf[i];
  let best = 0;
  for (const r of rows)
    for (const sent of sentencesOf(c, q, r)) {
      if (typed && !sent.typed) continue;
      if (mass === 0) return 1;
      let v = 0;
      for (let i = 0; i < q.qt.length; i++) {
        if (!want(i)) continue;
        let m = 0;
        for (const t of sent.terms) {
          m = Math.max(m, soft && vectors ? vectors.sim(q.qt[i], t) : t === q.qt[i] ? 1 : 0);
          if (m === 1) break;
        }
        v += q.qidf[i] * m;
      }
      best = Math.max(best, v / mass);
    }
  return best;
}

/** The top chain, its last passage, and whether a question term is left unheld by the passages before it. */
function chainParts({ q, st, top }: ProbeContext): { chain: number[]; last: number; open: (i: number) => boolean } {
  const chain = st.chains[top];
  const earlier = chain.slice(0, -1).map((r) => q.present(r));
  return { chain, last: chain[chain.length - 1], open: (i) => !earlier.some((p) => p[i] === 1) };
}

const all = () => true;

/** Measured on 2026-12-05 (docs/generalisation.md): whether one sentence states what the question asks (its terms' coverage of a
 * single sentence, exactly and softly through the dense term rows; and only sentences holding a candidate answer of the kind
 * asked) moved no AUROC of found against hidden runs by more than 0.007. */
const THIRD_ROUND: readonly Candidate[] = [
  {
    name: 'sent_cover',
    compute: (x) => {
      const { chain, last, open } = chainParts(x);
      return [
        bestSentence(x.c, x.q, chain, all, false),
        bestSentence(x.c, x.q, chain, all, true),
        bestSentence(x.c, x.q, [last], open, false),
        bestSentence(x.c, x.q, [last], open, true),
      ];
    },
  },
  /** the same, counting only sentences that hold a candidate answer of the kind asked (a year, a number, a name not in the question) */
  {
    name: 'typed_sent',
    compute: (x) => {
      const { chain, last, open } = chainParts(x);
      return [
        bestSentence(x.c, x.q, chain, all, true, true),
        bestSentence(x.c, x.q, [last], open, true, true),
        bestSentence(x.c, x.q, x.st.ret.slice(0, 10), all, true, true),
      ];
    },
  },
];

export const CANDIDATES: readonly Candidate[] = [...FIRST_ROUND, ...SECOND_ROUND, ...THIRD_ROUND];
