// The hop features (H2): how well a candidate continues a chain whose last passage, p, was just read.
// They make up a chain's step features (chain-features.ts). A table of {name, compute} over one
// candidate's context; changing a definition means retraining.
import type { SearchCorpus } from './corpus.js';
import { computeFeatures, type Feature, namesOf } from './feature-table.js';
import { contentTitleShare, mentionIdf, mentionLength, nPassages, qcovOf } from './features-common.js';
import { containsPhrase } from './phrases.js';
import type { HopFeatureContext, QueryFeatureContext, TitleHit } from './types.js';

/** What the hop features read of one candidate row (built once per candidate). */
export interface StepContext {
  c: SearchCorpus;
  q: QueryFeatureContext;
  h: HopFeatureContext;
  row: number;
  titleKey: number;
  /** p's mention of the candidate's title, if p names it */
  link: TitleHit | undefined;
}

export const H2: ReadonlyArray<Feature<StepContext>> = [
  /** what p's terms add to the candidate's score, over its maximum */
  { name: 'e', compute: ({ h, row }) => h.e(row) / h.eMax },
  /** the candidate's score with p's terms added, over its maximum, and ln(1 + its rank by it) */
  { name: 's2', compute: ({ h, row }) => h.s2[row] / h.s2Max },
  { name: 'lrank2', compute: ({ h, row }) => Math.log1p(h.rank2Of(row)) },
  /** p names the candidate's title: whether, the mention's length, its capitals, where in p, full title, rarity, the title's passages */
  { name: 'lk', compute: ({ link }) => (link ? 1 : 0) },
  { name: 'lk_len', compute: ({ link }) => (link ? mentionLength(link) : 0) },
  { name: 'lk_cap', compute: ({ link }) => (link ? link.capfrac : 0) },
  { name: 'lk_pos', compute: ({ h, link }) => (link ? link.pos / h.pBodyLength : 0) },
  { name: 'lk_full', compute: ({ link }) => (link?.full ? 1 : 0) },
  { name: 'lk_idf', compute: ({ c, q, link }) => (link ? mentionIdf(c, q, link) : 0) },
  { name: 'lk_npass', compute: ({ c, q, titleKey, link }) => (link ? nPassages(c, q, titleKey) : 0) },
  /** the candidate names p's title (a reverse link) */
  {
    name: 'rlk',
    compute: ({ c, h, row }) => (h.pTitle.length && mentions(c.seq(row).terms, c.titleLineLength(row), h.pTitle, h.pBaseLen) ? 1 : 0),
  },
  /** the candidate shares p's title */
  { name: 'same_title', compute: ({ h, titleKey }) => (titleKey !== 0 && titleKey === h.pTitleKey ? 1 : 0) },
  /** share of the question's idf mass the chain with the candidate holds, and what the candidate adds to it */
  { name: 'qcov_union', compute: ({ q, h, row }) => qcovOf(q, h.readPresent, q.present(row)) },
  { name: 'qcov_gain', compute: ({ q, h, row }) => qcovOf(q, h.readPresent, q.present(row)) - h.readQcov },
  /** share of the candidate's title content terms p holds */
  { name: 'tin_p', compute: ({ c, h, row }) => contentTitleShare(c, row, h.pTerms) },
  /** the candidate is in hop 1's beam */
  { name: 'c_in_beam', compute: ({ h, row }) => (h.beam.has(row) ? 1 : 0) },
  /** a passage read before p names the candidate's title */
  { name: 'lk_prev', compute: ({ h, titleKey }) => (titleKey !== 0 && h.earlier.has(titleKey) ? 1 : 0) },
];

export const H2_NAMES = namesOf(H2);

/** H2 of a candidate continuing the chain read so far. */
export function h2Features(c: SearchCorpus, q: QueryFeatureContext, h: HopFeatureContext, row: number): Float64Array {
  const titleKey = c.titleKey(row);
  return computeFeatures(H2, { c, q, h, row, titleKey, link: titleKey ? h.links.get(titleKey) : undefined });
}

/** Whether seq[skip:] mentions a title: its full form, or its base form when it has one. */
function mentions(seq: Uint32Array, skip: number, title: Uint32Array, baseLen: number): boolean {
  return containsPhrase(seq, skip, title) || (baseLen > 0 && containsPhrase(seq, skip, title.subarray(0, baseLen)));
}
