// Sufficiency features of a search stage and the calibrated confidence they give. A stage is a list
// of chains (rows) with scores and the result list assembled from them; the features describe how
// much of the chains' probability mass the returned list holds, how decisive the top chain is, and
// how much of the question (its rarest and its capitalised terms, and its multi-word names as
// phrases) the evidence covers, and how many entities the question describes rather than names (its
// depth). Two features ask whether the top chain is about what the question asks rather than merely
// mentioning its words: how many of its passages belong to a document whose title the question names,
// and how much of the question one sentence of it holds (a store without the answer still holds the
// question's words, scattered over passages on other subjects). The confidence a search returns
// is the chosen stage's, recalibrated (returnedConfidence), an increasing map of it.
import type { SearchCorpus } from './corpus.js';
import { h1Features, H1_NAMES, heldBy } from './features.js';
import { containsPhrase } from './phrases.js';
import type { Query } from './hops.js';

export const CONF_NAMES = [
  'm_in', 'p_top', 'top_raw', 'gap12', 'nq_terms', 'n_hits', 'qcov_top', 'lk_top', 'is3_top', 'ndocs_top5', 'logk',
  'rare_cov_top', 'rare_cov_ret', 'cap_cov_top', 'cap_cov_ret', 'log_smax', 'n_of', 'n_poss', 'n_wh', 'top_doc_share', 'ret_docs',
  'unseen_idf', 'miss_idf_top', 'miss_n_top', 'miss_n_ret', 'depth', 'name_cov_ret', 'named_top', 'sent_top',
];

const HIT = H1_NAMES.indexOf('hit');
const SENTCOV = H1_NAMES.indexOf('sentcov');

const WH = new Set(['who', 'whom', 'whose', 'which', 'where', 'when', 'what', 'that']);

/** Words that make a query a question (isQuestion). */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(['who', 'whom', 'whose', 'which', 'where', 'when', 'what', 'how', 'why']);

/**
 * Whether a query is phrased as a question (a question mark or a question word) rather than typed
 * as keywords ("director film The Last Lord died"): the two are calibrated by separate sufficiency
 * models, since a keyword query lacks the structure words several features read.
 */
export function isQuestion(query: string): boolean {
  return query.includes('?') || query.split(/\s+/).some(isQuestionWord);
}

/** Whether a word is a question word, in any case, with its punctuation and a contraction ("Who's", "who've") or not ("Who-related" is not). */
export function isQuestionWord(word: string): boolean {
  const w = word.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’](s|ve|re|d|ll)$/, '');
  return QUESTION_WORDS.has(w);
}
/** Words that tie a definite description to what it is described by ("the country where ..."). */
const LINKS = new Set(['of', 'where', 'who', 'which', 'that', 'in', 'whose', 'from', 'by', 'with', 'for', 'on', 'at']);

export interface ConfParams {
  w: number[];
  b: number;
  platt_a: number;
  platt_b: number;
}

export interface Stage {
  chains: number[][];
  scores: number[];
  /** returned rows (best first) and the hop of each */
  ret: number[];
  hops: number[];
  /** per chain: question coverage and whether its last step is a title link */
  qcov: number[];
  lk: number[];
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** log(p / (1 - p)) of v clamped to [1e-4, 1 - 1e-4]. */
export const logit = (v: number) => {
  const p = Math.min(Math.max(v, 1e-4), 1 - 1e-4);
  return Math.log(p / (1 - p));
};

/** Order of chains by score, best first, ties to the earlier chain. */
export function chainOrder(scores: number[]): number[] {
  return scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
}

function coverage(c: SearchCorpus, terms: number[], rows: number[]): number {
  if (terms.length === 0 || rows.length === 0) return 1;
  const present = new Set<number>();
  for (const r of rows) for (const t of c.seq(r).terms) present.add(t);
  return terms.filter((t) => present.has(t)).length / terms.length;
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
function missingIdf(c: SearchCorpus, q: Query, chain: number[]): number {
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
 * The question's depth: its definite descriptions ("the" followed within three words by a linking
 * word, unless a name follows "the"), possessives, and wh-words after the first word. Measured on the
 * suites' questions: 3.25 on average for MuSiQue's 3-hop ones, 1.85 for its 2-hop ones, 1.5 for
 * HotpotQA's bridge questions.
 */
export function questionDepth(q: Pick<Query, 'forms' | 'caps'>): number {
  const f = q.forms;
  let n = 0;
  f.forEach((w, i) => {
    if (i > 0 && (WH.has(w) || w === 's')) n++;
    if (w === 'the' && !q.caps[i + 1] && f.slice(i + 1, i + 4).some((x) => LINKS.has(x))) n++;
  });
  return n;
}

/**
 * Whether the question is written in Title Case or capitals, so its capitals mark no names: every
 * word after the first that is not a stop word is capitalised, and so is some stop word ("Who Wrote
 * The Old Man And The Sea") or every word ("Barack Obama Birth Place"). "When was the Marco Polo
 * Bridge Incident?" is not.
 */
function titleCased(q: Pick<Query, 'ids' | 'caps' | 'stops'>): boolean {
  let lower = false;
  let capitalStop = false;
  for (let i = 1; i < q.ids.length; i++) {
    if (!q.caps[i]) {
      if (!q.stops[i]) return false;
      lower = true;
    } else if (q.stops[i]) capitalStop = true;
  }
  return capitalStop || !lower;
}

/**
 * The question's multi-word names: runs of two or more capitalised tokens after its first word, not
 * all stop words ("The Last Lord", "Guitar World"), as term ids in question order; none when the
 * question is title-cased.
 */
export function questionNames(q: Pick<Query, 'ids' | 'caps' | 'stops'>): Uint32Array[] {
  const out: Uint32Array[] = [];
  if (titleCased(q)) return out;
  for (let i = 1; i < q.ids.length; ) {
    let j = i;
    while (j < q.ids.length && q.caps[j]) j++;
    if (j - i >= 2 && q.stops.slice(i, j).some((s) => !s)) out.push(q.ids.slice(i, j));
    i = Math.max(j, i + 1);
  }
  return out;
}

/**
 * Share of the names some row holds as a phrase (1 when the question names none). Scattered words
 * do not count: a store without the film "The Last Lord" still has "last" and "lord" somewhere.
 */
function nameCoverage(c: SearchCorpus, names: Uint32Array[], rows: number[]): number {
  if (names.length === 0) return 1;
  return names.filter((n) => rows.some((r) => containsPhrase(c.seq(r).terms, 0, n))).length / names.length;
}

interface QuestionFacts {
  /** the three question terms of largest idf, and the capitalised non-stop words after the first */
  rare: number[];
  capt: number[];
  nOf: number;
  nPoss: number;
  nWh: number;
  depth: number;
  names: Uint32Array[];
}

/** What the features read of the question alone, once per query (a search scores up to three stages, training each at four k). */
const facts = new WeakMap<Query, QuestionFacts>();
function questionFacts(q: Query): QuestionFacts {
  let f = facts.get(q);
  if (!f) {
    const count = (pred: (w: string) => boolean) => q.forms.filter(pred).length;
    f = {
      rare: q.qt.map((t, i) => [t, q.qidf[i]] as const).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([t]) => t),
      capt: [...new Set(Array.from(q.ids).filter((_, i) => i >= 1 && q.caps[i] && !q.stops[i]))],
      nOf: count((w) => w === 'of'),
      nPoss: count((w) => w === 's'),
      nWh: count((w) => WH.has(w)),
      depth: questionDepth(q),
      names: questionNames(q),
    };
    facts.set(q, f);
  }
  return f;
}

/** Share of the chain's passages whose document's title the question names (hop 1's `hit`). */
function namedShare(c: SearchCorpus, q: Query, chain: number[]): number {
  return chain.filter((r) => h1Features(c, q, r)[HIT] === 1).length / Math.max(chain.length, 1);
}

/** The largest share of the question's idf mass that one sentence of a chain passage holds. */
function sentenceCover(c: SearchCorpus, q: Query, chain: number[]): number {
  return Math.max(0, ...chain.map((r) => h1Features(c, q, r)[SENTCOV]));
}

export function confFeatures(c: SearchCorpus, q: Query, st: Stage, k: number): Float64Array {
  const ret = st.ret.slice(0, k);
  const mx = Math.max(...st.scores);
  const ex = st.scores.map((v) => Math.exp(v - mx));
  const z = ex.reduce((a, b) => a + b, 0);
  const retDocs = new Set(ret.map((r) => c.docOf(r)));
  let mIn = 0;
  st.chains.forEach((ch, i) => {
    if (ch.every((r) => retDocs.has(c.docOf(r)))) mIn += ex[i] / z;
  });
  const order = chainOrder(st.scores);
  const top = order[0];
  const gap = order.length > 1 ? st.scores[order[0]] - st.scores[order[1]] : 5;
  const d5 = new Set<number>();
  for (const j of order.slice(0, 5)) for (const r of st.chains[j]) d5.add(c.docOf(r));
  const { rare, capt, nOf, nPoss, nWh, depth, names } = questionFacts(q);
  return Float64Array.from([
    logit(mIn),
    logit(ex[top] / z),
    st.scores[top] / 10,
    Math.min(gap, 5),
    q.qt.length / 10,
    Math.min(q.hits.size, 6) / 6,
    st.qcov[top],
    st.lk[top],
    st.chains[top].length === 3 ? 1 : 0,
    d5.size / 10,
    Math.log(k) / 3,
    coverage(c, rare, st.chains[top]),
    coverage(c, rare, ret),
    coverage(c, capt, st.chains[top]),
    coverage(c, capt, ret),
    Math.log1p(Math.max(q.sMax[0], 0)) / 3,
    Math.min(nOf, 4) / 4,
    Math.min(nPoss, 3) / 3,
    Math.min(nWh, 3) / 3,
    ret.length ? ret.filter((r) => c.docOf(r) === c.docOf(ret[0])).length / ret.length : 0,
    retDocs.size / Math.max(k, 1),
    unseenIdf(c, q),
    missingIdf(c, q, st.chains[top]),
    Math.min(missingTerms(q, st.chains[top]), 8) / 8,
    Math.min(missingTerms(q, ret), 6) / 6,
    Math.min(depth, 6) / 6,
    nameCoverage(c, names, ret),
    namedShare(c, q, st.chains[top]),
    sentenceCover(c, q, st.chains[top]),
  ]);
}

/**
 * Platt scaling of the confidence a search returns, σ(a·logit(c) + b): the loop returns the most
 * confident of the stages it ran, and the largest of several estimates runs high; this maps it
 * to the rate at which such returned confidences were right on questions the model never saw.
 */
export interface ReturnedCalibration {
  a: number;
  b: number;
}

/** The returned confidence c as calibrated by p (c itself when the model has no such calibration). */
export function returnedConfidence(p: ReturnedCalibration | undefined, c: number): number {
  return p ? sigmoid(p.a * logit(c) + p.b) : c;
}

export function confidence(p: ConfParams, f: Float64Array): number {
  let z = p.b;
  for (let i = 0; i < f.length; i++) z += (p.w[i] ?? 0) * f[i];
  return sigmoid(p.platt_a * z + p.platt_b);
}
