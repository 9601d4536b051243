// The hop-1 features (H1): how well a row answers the question on its own. They re-rank hop 1's
// pool (the model's W1) and make up each passage's part of a chain's features (chain-features.ts).
// A table of {name, compute} over one row's context, computed once per row and search (memoised in
// the query); changing a definition means retraining.

import { FEATURE_TEXT } from '../params.js';
import { FLAG_NUMBER, FLAG_SENTENCE_START, FLAG_STOP, FLAG_YEAR, termId } from '../text/index.js';
import { bm25 } from './bm25.js';
import type { SearchCorpus } from './corpus.js';
import { computeFeatures, type Feature, namesOf } from './feature-table.js';
import { contentTitleShare, mentionIdf, mentionLength, nPassages, presence, qcovOf } from './features-common.js';
import type { QueryFeatureContext, TitleHit } from './types.js';

/** What the hop-1 features read of one row (built once per row). */
export interface RowContext {
  c: SearchCorpus;
  q: QueryFeatureContext;
  row: number;
  titleKey: number;
  /** the question's mention of the row's title, if it names it */
  hit: TitleHit | undefined;
  terms: Uint32Array;
  flags: Uint8Array;
  /** the row's best sentence over the question (bestSentence) */
  best: { bm25: number; cov: number };
}

/** Term ids of the month names, for date answers. */
const MONTHS = new Set(
  ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'].map((m) =>
    termId(m),
  ),
);

export const H1: ReadonlyArray<Feature<RowContext>> = [
  /** BM25 of the row (body + weighted title), of its body and of its title, each over its maximum in the store */
  { name: 's', compute: ({ q, row }) => q.s[row] / q.sMax[0] },
  { name: 's_body', compute: ({ q, row }) => q.sBody[row] / q.sMax[1] },
  { name: 's_title', compute: ({ q, row }) => q.sTitle[row] / q.sMax[2] },
  /** ln(1 + the row's rank by s) */
  { name: 'lrank', compute: ({ q, row }) => Math.log1p(q.rankOf(row)) },
  /** the question names the row's title: whether, the mention's length, its share of capitals, whether the full title, its rarity */
  { name: 'hit', compute: ({ hit }) => (hit ? 1 : 0) },
  { name: 'hit_len', compute: ({ hit }) => (hit ? mentionLength(hit) : 0) },
  { name: 'hit_cap', compute: ({ hit }) => (hit ? hit.capfrac : 0) },
  { name: 'hit_full', compute: ({ hit }) => (hit?.full ? 1 : 0) },
  { name: 'hit_idf', compute: ({ c, q, hit }) => (hit ? mentionIdf(c, q, hit) : 0) },
  /** share of the title's content terms the question holds */
  { name: 'tcov', compute: ({ c, q, row }) => contentTitleShare(c, row, q.qset) },
  /** share of the question's idf mass the passage holds, and its title holds */
  { name: 'qcov', compute: ({ q, row }) => qcovOf(q, q.present(row)) },
  { name: 'qcov_title', compute: ({ c, q, row }) => qcovOf(q, presence(q.qt, q.qindex, c.title(row))) },
  /** ln(passages of the title) / 5 */
  { name: 'lnpass', compute: ({ c, q, titleKey }) => nPassages(c, q, titleKey) },
  /** weighted question bigrams the passage holds, over the maximum s */
  { name: 'bigram', compute: ({ q, terms, flags }) => bigramScore(q, terms, flags) / q.sMax[0] },
  /** BM25 of the passage's best sentence, over the maximum s */
  { name: 'sentmax', compute: ({ q, best }) => best.bm25 / q.sMax[0] },
  /** BM25 of the whole document, over the best of the pool's documents */
  { name: 'docbm25', compute: ({ q, row }) => q.docScore(row) },
  /** the row is its document's first passage */
  { name: 'first', compute: ({ c, row }) => (c.docRows(row)[0] === row ? 1 : 0) },
  /** the question asks for a number (a date) and the passage holds one the question does not */
  { name: 'ans_num', compute: ({ q, terms, flags }) => (q.asks === 'number' && hasAnswerType(q, terms, flags, FLAG_NUMBER) ? 1 : 0) },
  {
    name: 'ans_date',
    compute: ({ q, terms, flags }) =>
      q.asks === 'date' && (hasAnswerType(q, terms, flags, FLAG_YEAR) || terms.some((t) => MONTHS.has(t) && !q.allTerms.has(t))) ? 1 : 0,
  },
  /** weighted share of the question's capitalised terms the passage holds */
  { name: 'cap_cov', compute: ({ q, terms }) => capCoverage(q, terms) },
  /** dense cosine of the question with the passage, and with its document's centroid */
  { name: 'dense', compute: ({ q, row }) => q.dense(row) },
  { name: 'docdense', compute: ({ q, row }) => q.docDense(row) },
  /** the largest share of the question's idf mass one sentence holds */
  { name: 'sentcov', compute: ({ q, best }) => best.cov / q.qidfSum },
];

export const H1_NAMES = namesOf(H1);

/** H1 of a row; memoised per search. */
export function h1Features(c: SearchCorpus, q: QueryFeatureContext, row: number): Float64Array {
  const memo = q.f1.get(row);
  if (memo) return memo;
  const titleKey = c.titleKey(row);
  const { terms, flags } = c.seq(row);
  const ctx: RowContext = {
    c,
    q,
    row,
    titleKey,
    hit: titleKey ? q.hits.get(titleKey) : undefined,
    terms,
    flags,
    best: bestSentence(c, q, terms, flags),
  };
  const f = computeFeatures(H1, ctx);
  q.f1.set(row, f);
  return f;
}

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

/** bestSentence's term counts per question term (all zero between calls) and the terms it set: reused, since it runs for every row a hop scores. */
let sentenceTf = new Float64Array(64);
const sentenceTouched: number[] = [];

/**
 * The passage's best sentences over the question terms: the highest BM25 (the model's k1 and b,
 * sentence-length normalised) and the highest idf mass of distinct question terms one sentence
 * holds (a passage whose terms sit together in one sentence answers more often than one that
 * scatters them).
 */
function bestSentence(c: SearchCorpus, q: QueryFeatureContext, terms: Uint32Array, flags: Uint8Array): { bm25: number; cov: number } {
  const best = { bm25: 0, cov: 0 };
  const { k1, b } = c.lexical;
  let start = 0;
  if (sentenceTf.length < q.qt.length) sentenceTf = new Float64Array(2 * q.qt.length);
  const tf = sentenceTf;
  const touched = sentenceTouched;
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
      v += q.qw[k] * c.idf(q.qt[k]) * bm25(tf[k], len, FEATURE_TEXT.sentenceAvg, k1, b);
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
  for (const [t, w] of q.capTerms) {
    all += w;
    if (terms.includes(t)) have += w;
  }
  return all > 0 ? have / all : 0;
}
