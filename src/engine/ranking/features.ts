// Feature vectors of the learned scorers. Pure functions of the corpus snapshot and the search state;
// their order is part of the model (weights are fitted against it): changing a feature means
// retraining. Names: H1_NAMES, H2_NAMES, CONF_NAMES. Definitions follow the research recipe
// (lexical chains + title links).
import { FLAG_NUMBER, FLAG_SENTENCE_START, FLAG_STOP, FLAG_YEAR, termId } from '../text/analyze.js';
import type { SearchCorpus } from './corpus.js';
import { containsPhrase, phraseMentions, type TitleHit } from './phrases.js';

export const H1_NAMES = [
  's', 's_body', 's_title', 'lrank', 'hit', 'hit_len', 'hit_cap', 'hit_full', 'hit_idf', 'tcov', 'qcov', 'qcov_title', 'lnpass',
  'bigram', 'sentmax', 'docbm25', 'first', 'ans_num', 'ans_date', 'cap_cov', 'dense', 'docdense',
  'sentcov',
];

/** Average sentence length (terms) assumed by the sentence-level BM25. */
export const SENTENCE_AVG = 25;
export const H2_NAMES = ['e', 's2', 'lrank2', 'lk', 'lk_len', 'lk_cap', 'lk_pos', 'lk_full', 'lk_idf', 'lk_npass', 'rlk', 'same_title', 'qcov_union', 'qcov_gain', 'tin_p', 'c_in_beam', 'lk_prev'];

/** What features need from the question (built once per search). */
export interface QueryFeatureContext {
  qt: number[];
  qidf: number[];
  qset: Set<number>;
  /** index of each question term in qt */
  qindex: Map<number, number>;
  qidfSum: number;
  hits: Map<number, TitleHit>;
  /** the best rows by s, best first */
  order: number[];
  /** 0-based rank of a row by s, capped at 1000 */
  rankOf(row: number): number;
  /** max of s, s_body, s_title over every row (floored at 1e-6) */
  sMax: [number, number, number];
  s: Float32Array;
  sBody: Float32Array;
  sTitle: Float32Array;
  /** phrase mention counts, title sizes and F1 vectors, cached per search */
  mentions: Map<number, number>;
  titleSizes: Map<number, number>;
  f1: Map<number, Float64Array>;
  /** which question terms (by index in qt) a row's passage holds; memoised */
  present(row: number): Uint8Array;
  /** learned weight of each question term (1 when the model has none), aligned with qt */
  qw: number[];
  /** question bigrams (adjacent non-stop terms) and their weights */
  bigrams: Map<string, number>;
  /** capitalised question terms (not the first word) with their weights */
  capTerms: Map<number, number>;
  /** what the question asks for */
  asks: 'number' | 'date' | 'other';
  /** every question term, stop words included */
  allTerms: Set<number>;
  /** doc-level BM25 of a row's document over the best score of the pool's documents; memoised */
  docScore(row: number): number;
  /** cosine of the question's dense encoding with a row's, and with the row's document's centroid (0 without an encoder) */
  dense(row: number): number;
  docDense(row: number): number;
}

/** The passage read (p, the last of `reads`) and what features need of it. */
export interface HopFeatureContext {
  reads: number[];
  links: Map<number, TitleHit>;
  earlier: Set<number>;
  beam: ReadonlySet<number>;
  /** score the read passage's terms add to a row */
  e(row: number): number;
  eMax: number;
  s2: Float32Array;
  s2Max: number;
  /** 0-based rank of a row by s2, capped at 1000 */
  rank2Of(row: number): number;
  p: number;
  pTerms: Set<number>;
  pBodyLength: number;
  pTitle: Uint32Array;
  pBaseLen: number;
  pTitleKey: number;
  /** which question terms the passages read hold, and their coverage */
  readPresent: Uint8Array;
  readQcov: number;
}

/** Share of the question's idf mass held by the rows whose presence masks are given. */
export function qcovOf(q: QueryFeatureContext, ...masks: Uint8Array[]): number {
  let v = 0;
  for (let i = 0; i < q.qt.length; i++) if (masks.some((m) => m[i])) v += q.qidf[i];
  return v / q.qidfSum;
}

/** Which question terms (by index in qt) any of the rows holds. */
export function heldBy(q: Pick<QueryFeatureContext, 'qt' | 'present'>, rows: Iterable<number>): Uint8Array {
  const held = new Uint8Array(q.qt.length);
  for (const r of rows) q.present(r).forEach((v, i) => (held[i] |= v));
  return held;
}

/** Which of `terms` occur in `seq`, as a 0/1 mask in the order of `terms`. */
export function presence(terms: number[], index: Map<number, number>, seq: Uint32Array): Uint8Array {
  const m = new Uint8Array(terms.length);
  for (const t of seq) {
    const i = index.get(t);
    if (i !== undefined) m[i] = 1;
  }
  return m;
}

/** Title terms with idf > 2 (all title terms if none). */
function contentTitle(c: SearchCorpus, row: number): Uint32Array {
  const t = c.title(row);
  const rare = t.filter((x) => c.idf(x) > 2);
  return rare.length ? rare : t;
}

function mentionIdf(c: SearchCorpus, q: QueryFeatureContext, hit: TitleHit): number {
  const n = c.stats.rows;
  return Math.log((n + 1) / (phraseMentions(c, hit.terms, q.mentions) + 1)) / Math.log(Math.max(n, 2));
}

function nPassages(c: SearchCorpus, q: QueryFeatureContext, titleKey: number): number {
  if (!titleKey) return 0;
  let n = q.titleSizes.get(titleKey);
  if (n === undefined) q.titleSizes.set(titleKey, (n = c.titleRows(titleKey).length));
  return Math.log(Math.max(n, 1)) / 5;
}

/** F1: how well a row answers the question on its own (13 features); memoised per search. */
export function h1Features(c: SearchCorpus, q: QueryFeatureContext, row: number): Float64Array {
  const memo = q.f1.get(row);
  if (memo) return memo;
  const f = new Float64Array(H1_NAMES.length);
  f[0] = q.s[row] / q.sMax[0];
  f[1] = q.sBody[row] / q.sMax[1];
  f[2] = q.sTitle[row] / q.sMax[2];
  f[3] = Math.log1p(q.rankOf(row));
  const titleKey = c.titleKey(row);
  const hit = titleKey ? q.hits.get(titleKey) : undefined;
  if (hit) {
    f[4] = 1;
    f[5] = Math.min(hit.len, 6) / 6;
    f[6] = hit.capfrac;
    f[7] = hit.full ? 1 : 0;
    f[8] = mentionIdf(c, q, hit);
  }
  const ct = contentTitle(c, row);
  f[9] = ct.length ? ct.filter((t) => q.qset.has(t)).length / ct.length : 0;
  f[10] = qcovOf(q, q.present(row));
  f[11] = qcovOf(q, presence(q.qt, q.qindex, c.title(row)));
  f[12] = nPassages(c, q, titleKey);
  const { terms, flags } = c.seq(row);
  f[13] = bigramScore(q, terms, flags) / q.sMax[0];
  const best = bestSentence(c, q, terms, flags);
  f[14] = best.bm25 / q.sMax[0];
  f[15] = q.docScore(row);
  f[16] = c.docRows(row)[0] === row ? 1 : 0;
  f[17] = q.asks === 'number' && hasAnswerType(q, terms, flags, FLAG_NUMBER) ? 1 : 0;
  f[18] = q.asks === 'date' && (hasAnswerType(q, terms, flags, FLAG_YEAR) || terms.some((t) => MONTHS.has(t) && !q.allTerms.has(t))) ? 1 : 0;
  f[19] = capCoverage(q, terms);
  f[20] = q.dense(row);
  f[21] = q.docDense(row);
  f[22] = best.cov / q.qidfSum;
  q.f1.set(row, f);
  return f;
}

/** Term ids of the month names, for date answers. */
const MONTHS = new Set(['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'].map((m) => termId(m)));

/** Sum of the weights of the question bigrams found as adjacent non-stop terms of the passage. */
function bigramScore(q: QueryFeatureContext, terms: Uint32Array, flags: Uint8Array): number {
  if (q.bigrams.size === 0) return 0;
  let prev = -1;
  let v = 0;
  const seen = new Set<string>();
  for (let i = 0; i < terms.length; i++) {
    if (flags[i] & FLAG_STOP) continue;
    // A bigram of the question joins two question terms: only then is its key worth building.
    if (prev >= 0 && q.allTerms.has(terms[i]) && q.allTerms.has(prev)) {
      const key = `${prev}:${terms[i]}`;
      const w = q.bigrams.get(key);
      if (w !== undefined && !seen.has(key)) {
        seen.add(key);
        v += w;
      }
    }
    prev = terms[i];
  }
  return v;
}

/**
 * The passage's best sentences over the question terms: the highest BM25 (k1 1.2, b 0.75,
 * sentence-length normalised) and the highest idf mass of distinct question terms one sentence
 * holds (a passage whose terms sit together in one sentence answers more often than one that
 * scatters them).
 */
function bestSentence(c: SearchCorpus, q: QueryFeatureContext, terms: Uint32Array, flags: Uint8Array): { bm25: number; cov: number } {
  const best = { bm25: 0, cov: 0 };
  let start = 0;
  const tf = new Float64Array(q.qt.length);
  const touched: number[] = [];
  for (let i = 1; i <= terms.length; i++) {
    if (i < terms.length && !(flags[i] & FLAG_SENTENCE_START)) continue;
    const len = i - start;
    for (let j = start; j < i; j++) {
      const k = q.qindex.get(terms[j]);
      if (k === undefined) continue;
      if (tf[k] === 0) touched.push(k);
      tf[k]++;
    }
    let v = 0;
    let cov = 0;
    for (const k of touched) {
      const n = tf[k];
      v += q.qw[k] * c.idf(q.qt[k]) * ((n * 2.2) / (n + 1.2 * (0.25 + (0.75 * len) / SENTENCE_AVG)));
      cov += q.qidf[k];
      tf[k] = 0;
    }
    if (v > best.bm25) best.bm25 = v;
    if (cov > best.cov) best.cov = cov;
    touched.length = 0;
    start = i;
  }
  return best;
}

function hasAnswerType(q: QueryFeatureContext, terms: Uint32Array, flags: Uint8Array, flag: number): boolean {
  for (let i = 0; i < terms.length; i++) if (flags[i] & flag && !q.allTerms.has(terms[i])) return true;
  return false;
}

/** Weighted share of the question's capitalised terms the passage holds (0 when it has none). */
function capCoverage(q: QueryFeatureContext, terms: Uint32Array): number {
  if (q.capTerms.size === 0) return 0;
  let have = 0;
  let all = 0;
  const held = new Set<number>();
  for (let i = 0; i < terms.length; i++) if (q.capTerms.has(terms[i])) held.add(terms[i]);
  for (const [t, w] of q.capTerms) {
    all += w;
    if (held.has(t)) have += w;
  }
  return all > 0 ? have / all : 0;
}

/** H2: how well a candidate continues the chain `reads` (17 features). */
export function h2Features(c: SearchCorpus, q: QueryFeatureContext, h: HopFeatureContext, row: number): Float64Array {
  const f = new Float64Array(H2_NAMES.length);
  f[0] = h.e(row) / h.eMax;
  f[1] = h.s2[row] / h.s2Max;
  f[2] = Math.log1p(h.rank2Of(row));
  const titleKey = c.titleKey(row);
  const link = titleKey ? h.links.get(titleKey) : undefined;
  if (link) {
    f[3] = 1;
    f[4] = Math.min(link.len, 6) / 6;
    f[5] = link.capfrac;
    f[6] = link.pos / h.pBodyLength;
    f[7] = link.full ? 1 : 0;
    f[8] = mentionIdf(c, q, link);
    f[9] = nPassages(c, q, titleKey);
  }
  const cSeq = c.seq(row).terms;
  f[10] = h.pTitle.length && mentions(cSeq, c.titleLineLength(row), h.pTitle, h.pBaseLen) ? 1 : 0;
  f[11] = titleKey !== 0 && titleKey === h.pTitleKey ? 1 : 0;
  f[12] = qcovOf(q, h.readPresent, q.present(row));
  f[13] = f[12] - h.readQcov;
  const ct = contentTitle(c, row);
  f[14] = ct.length ? ct.filter((t) => h.pTerms.has(t)).length / ct.length : 0;
  f[15] = h.beam.has(row) ? 1 : 0;
  f[16] = titleKey !== 0 && h.earlier.has(titleKey) ? 1 : 0;
  return f;
}

/** Whether seq[skip:] mentions a title: its full form, or its base form when it has one. */
function mentions(seq: Uint32Array, skip: number, title: Uint32Array, baseLen: number): boolean {
  return containsPhrase(seq, skip, title) || (baseLen > 0 && containsPhrase(seq, skip, title.subarray(0, baseLen)));
}
