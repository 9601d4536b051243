// Pieces several feature tables share: the question terms a row holds and the share of the
// question's idf mass they carry, a title's content terms, how rare a title mention is across the
// store and how many passages a title has. Pure functions of the corpus snapshot and the search
// state (the caches they fill change no value).
import type { SearchCorpus } from './corpus.js';
import { phraseMentions } from './phrases.js';
import type { QueryFeatureContext, TitleHit } from './types.js';

/** Share of the question's idf mass held by the rows whose presence masks are given (one or two). */
export function qcovOf(q: QueryFeatureContext, a: Uint8Array, b?: Uint8Array): number {
  let v = 0;
  for (let i = 0; i < q.qt.length; i++) if (a[i] || b?.[i]) v += q.qidf[i];
  return v / q.qidfSum;
}

/** Which question terms (by index in qt) any of the rows holds. */
export function heldBy(q: Pick<QueryFeatureContext, 'qt' | 'present'>, rows: Iterable<number>): Uint8Array {
  const held = new Uint8Array(q.qt.length);
  for (const r of rows) {
    q.present(r).forEach((v, i) => {
      held[i] |= v;
    });
  }
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

/**
 * Share of the row's title content terms (those with idf > 2, or every title term if none is) that
 * `set` holds; 0 for a row without a title. Counts in place: it runs for every row a hop scores.
 */
export function contentTitleShare(c: SearchCorpus, row: number, set: ReadonlySet<number>): number {
  const t = c.title(row);
  let rare = 0;
  let rareHeld = 0;
  let held = 0;
  for (let i = 0; i < t.length; i++) {
    const inSet = set.has(t[i]);
    if (inSet) held++;
    if (c.idf(t[i]) > 2) {
      rare++;
      if (inSet) rareHeld++;
    }
  }
  if (rare) return rareHeld / rare;
  return t.length ? held / t.length : 0;
}

/** How rare a title mention is in the store's bodies: 1 for a phrase no passage mentions, towards 0 for one every passage does. */
export function mentionIdf(c: SearchCorpus, q: QueryFeatureContext, hit: TitleHit): number {
  const n = c.stats.rows;
  return Math.log((n + 1) / (phraseMentions(c, hit.terms, q.mentions) + 1)) / Math.log(Math.max(n, 2));
}

/** ln(passages of the title) / 5 (0 for a row without a title); memoised per search. */
export function nPassages(c: SearchCorpus, q: QueryFeatureContext, titleKey: number): number {
  if (!titleKey) return 0;
  let n = q.titleSizes.get(titleKey);
  if (n === undefined) {
    n = c.titles.rows(titleKey).length;
    q.titleSizes.set(titleKey, n);
  }
  return Math.log(Math.max(n, 1)) / 5;
}

/** A mention's length as a feature: capped at 6 terms, over 6. */
export const mentionLength = (hit: TitleHit) => Math.min(hit.len, 6) / 6;
