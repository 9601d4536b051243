// Feature vectors of the learned scorers. Pure functions of the corpus snapshot and the search state;
// their order is part of the model (weights are fitted against it): changing a feature means
// retraining. Names: H1_NAMES, H2_NAMES, CONF_NAMES. Definitions follow the research recipe
// (lexical chains + title links).
import type { SearchCorpus } from './search-corpus.js';
import { containsPhrase, phraseMentions, type TitleHit } from './search-phrases.js';

export const H1_NAMES = ['s', 's_body', 's_title', 'lrank', 'hit', 'hit_len', 'hit_cap', 'hit_full', 'hit_idf', 'tcov', 'qcov', 'qcov_title', 'lnpass'];
export const H2_NAMES = ['e', 's2', 'lrank2', 'lk', 'lk_len', 'lk_cap', 'lk_pos', 'lk_full', 'lk_idf', 'lk_npass', 'rlk', 'same_title', 'qcov_union', 'qcov_gain', 'tin_p', 'c_in_beam', 'lk_prev'];

/** What features need from the question (built once per search). */
export interface QueryFeatureContext {
  qt: number[];
  qidf: number[];
  qset: Set<number>;
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
}

/** The passage read (p, the last of `reads`) and what features need of it. */
export interface HopFeatureContext {
  reads: number[];
  links: Map<number, TitleHit>;
  earlier: Set<number>;
  beam: ReadonlySet<number>;
  e: Float32Array;
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
  /** terms of every passage read */
  readTerms: Set<number>;
  /** question coverage of the passages read */
  readQcov: number;
}

/** Share of the question's idf mass whose terms appear in any of the given term sets. */
export function qcovOf(q: QueryFeatureContext, present: (t: number) => boolean): number {
  let v = 0;
  q.qt.forEach((t, i) => {
    if (present(t)) v += q.qidf[i];
  });
  return v / q.qidfSum;
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
  const body = new Set(c.seq(row).terms);
  f[10] = qcovOf(q, (t) => body.has(t));
  const title = new Set(c.title(row));
  f[11] = qcovOf(q, (t) => title.has(t));
  f[12] = nPassages(c, q, titleKey);
  q.f1.set(row, f);
  return f;
}

/** H2: how well a candidate continues the chain `reads` (17 features). */
export function h2Features(c: SearchCorpus, q: QueryFeatureContext, h: HopFeatureContext, row: number): Float64Array {
  const f = new Float64Array(H2_NAMES.length);
  f[0] = h.e[row] / h.eMax;
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
  const cTerms = new Set(cSeq);
  f[12] = qcovOf(q, (t) => h.readTerms.has(t) || cTerms.has(t));
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
