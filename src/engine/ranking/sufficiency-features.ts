// Sufficiency features of a search stage: whether the evidence a stage returns is enough to answer.
// A stage is a list of chains (rows) with scores and the result list assembled from them; the
// features describe how much of the chains' probability mass the returned list holds, how decisive
// the top chain is, how much of the question (its rarest and its capitalised terms, and its
// multi-word names, as phrases or as the words a passage opens with) the evidence covers, and how
// many entities the question describes rather than names (its depth). Two ask whether the top
// chain is about what the question asks rather than merely mentioning its words: how many of its
// passages belong to a document whose title the question names, and how much of the question one
// sentence of it holds (a store without the answer still holds the question's words, scattered
// over passages on other subjects). The table closes with the top chain's first passage as hop 1
// scores it (its H1 features, `first.<name>`): where the search entered the store, which for a
// question whose documents are absent is seldom a passage hop 1 ranks as it ranks the right one.
// A table of {name, compute} over one stage's context; changing a definition means retraining.
import { chainOrder, logit } from './confidence.js';
import type { SearchCorpus } from './corpus.js';
import { computeFeatures, type Feature, namesOf } from './feature-table.js';
import { heldBy } from './features-common.js';
import { H1_NAMES, h1Features } from './hop1-features.js';
import { containsPhrase, opensWith } from './phrases.js';
import { type QuestionFacts, questionFacts } from './question.js';
import type { Query, QuestionName, Stage } from './types.js';

/** What the sufficiency features read of one stage (built once per stage and k). */
export interface StageContext {
  c: SearchCorpus;
  q: Query;
  st: Stage;
  k: number;
  /** the first k returned rows, and their documents */
  ret: number[];
  retDocs: Set<number>;
  /** exp(score - max) of each chain, and their sum */
  ex: number[];
  z: number;
  /** chains best first, and the best */
  order: number[];
  top: number;
  facts: QuestionFacts;
}

const HIT = H1_NAMES.indexOf('hit');
const SENTCOV = H1_NAMES.indexOf('sentcov');

export const SUFFICIENCY: ReadonlyArray<Feature<StageContext>> = [
  /** logit of the chains' probability mass whose documents are all returned */
  { name: 'm_in', compute: (x) => logit(massIn(x)) },
  /** logit of the top chain's probability, and its raw score / 10 */
  { name: 'p_top', compute: (x) => logit(x.ex[x.top] / x.z) },
  { name: 'top_raw', compute: (x) => x.st.scores[x.top] / 10 },
  /** the top chain's lead over the second (5 when it is alone), capped at 5 */
  { name: 'gap12', compute: (x) => Math.min(x.order.length > 1 ? x.st.scores[x.order[0]] - x.st.scores[x.order[1]] : 5, 5) },
  /** question terms / 10, and titles the question names (capped at 6) / 6 */
  { name: 'nq_terms', compute: (x) => x.q.qt.length / 10 },
  { name: 'n_hits', compute: (x) => Math.min(x.q.hits.size, 6) / 6 },
  /** the top chain's question coverage, whether its last step is a title link, whether it has three passages */
  { name: 'qcov_top', compute: (x) => x.st.qcov[x.top] },
  { name: 'lk_top', compute: (x) => x.st.lk[x.top] },
  { name: 'is3_top', compute: (x) => (x.st.chains[x.top].length === 3 ? 1 : 0) },
  /** documents of the five best chains / 10 */
  { name: 'ndocs_top5', compute: (x) => topDocs(x, 5) / 10 },
  { name: 'logk', compute: (x) => Math.log(x.k) / 3 },
  /** share of the question's three rarest terms, and of its capitalised terms, in the top chain and in the list */
  { name: 'rare_cov_top', compute: (x) => coverage(x.c, x.facts.rare, x.st.chains[x.top]) },
  { name: 'rare_cov_ret', compute: (x) => coverage(x.c, x.facts.rare, x.ret) },
  { name: 'cap_cov_top', compute: (x) => coverage(x.c, x.facts.capt, x.st.chains[x.top]) },
  { name: 'cap_cov_ret', compute: (x) => coverage(x.c, x.facts.capt, x.ret) },
  /** ln(1 + the best hop-1 score) / 3 */
  { name: 'log_smax', compute: (x) => Math.log1p(Math.max(x.q.sMax[0], 0)) / 3 },
  /** the question's "of"s, possessives and wh-words, capped */
  { name: 'n_of', compute: (x) => Math.min(x.facts.nOf, 4) / 4 },
  { name: 'n_poss', compute: (x) => Math.min(x.facts.nPoss, 3) / 3 },
  { name: 'n_wh', compute: (x) => Math.min(x.facts.nWh, 3) / 3 },
  /** share of the list in its first passage's document, and documents in the list / k */
  {
    name: 'top_doc_share',
    compute: ({ c, ret }) => (ret.length ? ret.filter((r) => c.docOf(r) === c.docOf(ret[0])).length / ret.length : 0),
  },
  { name: 'ret_docs', compute: (x) => x.retDocs.size / Math.max(x.k, 1) },
  /** share of the question's idf mass no passage the search may return holds */
  { name: 'unseen_idf', compute: (x) => unseenIdf(x.c, x.q) },
  /** the rarest question term missing from the top chain, against the rarest of all */
  { name: 'miss_idf_top', compute: (x) => missingIdf(x.q, x.st.chains[x.top]) },
  /** question terms missing from the top chain (capped at 8) and from the list (capped at 6) */
  { name: 'miss_n_top', compute: (x) => Math.min(missingTerms(x.q, x.st.chains[x.top]), 8) / 8 },
  { name: 'miss_n_ret', compute: (x) => Math.min(missingTerms(x.q, x.ret), 6) / 6 },
  /** the question's depth (question.ts), capped at 6 */
  { name: 'depth', compute: (x) => Math.min(x.facts.depth, 6) / 6 },
  /** share of the question's multi-word names some listed passage holds as a phrase or opens with */
  { name: 'name_held_ret', compute: (x) => nameCoverage(x.c, x.facts.names, x.ret) },
  /** share of the top chain's passages whose title the question names */
  { name: 'named_top', compute: ({ c, q, st, top }) => namedShare(c, q, st.chains[top]) },
  /** the largest share of the question's idf mass one sentence of the top chain holds */
  { name: 'sent_top', compute: ({ c, q, st, top }) => Math.max(0, ...st.chains[top].map((r) => h1Features(c, q, r)[SENTCOV])) },
  /** the top chain's first passage as hop 1 scores it: each of its hop-1 features */
  ...H1_NAMES.map(
    (name, i): Feature<StageContext> => ({
      name: `first.${name}`,
      compute: ({ c, q, st, top }) => h1Features(c, q, st.chains[top][0])[i],
    }),
  ),
];

export const SUFFICIENCY_NAMES = namesOf(SUFFICIENCY);

/**
 * The sufficiency features of a stage whose list is cut at k. A value that cannot be computed reads
 * 0, so the confidence stays a number: a stage whose every chain scores -Infinity (probabilities
 * 0 / 0) no longer comes from passages dying under a search (a search reads the dead flags as at its
 * snapshot: index/segment-blocks.ts ownDeadFlags), except where the engine memory had no room for
 * that copy. Every value of a stage read from an unchanging store is finite, so training reads the
 * same features either way.
 */
export function sufficiencyFeatures(c: SearchCorpus, q: Query, st: Stage, k: number): Float64Array {
  const ret = st.ret.slice(0, k);
  const mx = Math.max(...st.scores);
  const ex = st.scores.map((v) => Math.exp(v - mx));
  const order = chainOrder(st.scores);
  const ctx: StageContext = {
    c,
    q,
    st,
    k,
    ret,
    retDocs: new Set(ret.map((r) => c.docOf(r))),
    ex,
    z: ex.reduce((a, b) => a + b, 0),
    order,
    top: order[0],
    facts: questionFacts(q),
  };
  const f = computeFeatures(SUFFICIENCY, ctx);
  for (let i = 0; i < f.length; i++) if (!Number.isFinite(f[i])) f[i] = 0;
  return f;
}

/** The chains' probability mass (softmax of their scores) of the chains whose documents are all in the list. */
function massIn({ c, st, ex, z, retDocs }: StageContext): number {
  let m = 0;
  st.chains.forEach((ch, i) => {
    if (ch.every((r) => retDocs.has(c.docOf(r)))) m += ex[i] / z;
  });
  return m;
}

/** Documents the best n chains hold. */
function topDocs({ c, st, order }: StageContext, n: number): number {
  const docs = new Set<number>();
  for (const j of order.slice(0, n)) for (const r of st.chains[j]) docs.add(c.docOf(r));
  return docs.size;
}

function coverage(c: SearchCorpus, terms: number[], rows: number[]): number {
  if (terms.length === 0 || rows.length === 0) return 1;
  const seqs = rows.map((r) => c.seq(r).terms);
  let held = 0;
  for (const t of terms) if (seqs.some((seq) => seq.includes(t))) held++;
  return held / terms.length;
}

/** Share of the question's idf mass carried by terms that no passage the search may return holds. */
function unseenIdf(c: SearchCorpus, q: Query): number {
  let unseen = 0;
  q.qt.forEach((t, i) => {
    if (!c.searchable(t)) unseen += q.qidf[i];
  });
  return unseen / q.qidfSum;
}

/** The largest idf of a question term absent from the chain, over the question's largest idf. */
function missingIdf(q: Query, chain: number[]): number {
  const present = heldBy(q, chain);
  let miss = 0;
  q.qidf.forEach((v, i) => {
    if (!present[i]) miss = Math.max(miss, v);
  });
  return miss / Math.max(...q.qidf, 1e-6);
}

/** How many question terms (stop words aside) none of the rows holds. */
function missingTerms(q: Query, rows: number[]): number {
  return heldBy(q, rows).reduce((n, v) => n + (v ? 0 : 1), 0);
}

/**
 * Share of the question's names that some row holds (1 when the question names none): as a phrase
 * anywhere, or at the row's start or just after its title line, the name or its head with a few
 * words between (a passage about "Devotion (1929 Film)" or "David Dzakhov" that has no title line
 * opens "Devotion (German: Hingabe) is ..." or "David Yuryevich Dzakhov ( born ..."). Scattered
 * words do not count: a store without the film "The Last Lord" still has "last" and "lord" somewhere.
 */
function nameCoverage(c: SearchCorpus, names: QuestionName[], rows: number[]): number {
  if (names.length === 0) return 1;
  // each row's terms, and where it may open with a name: its start, and its body after a title line
  const read = rows.map((r) => {
    const body = c.titleLineLength(r);
    return { ...c.seq(r), starts: body > 0 ? [0, body] : [0] };
  });
  const held = (n: QuestionName, { terms, flags, starts }: (typeof read)[number]) => {
    if (containsPhrase(terms, 0, n.terms)) return true;
    const forms = n.head.length < n.terms.length ? [n.terms, n.head] : [n.terms];
    return starts.some((at) => forms.some((f) => opensWith(terms, flags, at, f)));
  };
  return names.filter((n) => read.some((r) => held(n, r))).length / names.length;
}

/** Share of the chain's passages whose document's title the question names (hop 1's `hit`). */
function namedShare(c: SearchCorpus, q: Query, chain: number[]): number {
  return chain.filter((r) => h1Features(c, q, r)[HIT] === 1).length / Math.max(chain.length, 1);
}
