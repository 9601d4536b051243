// Which terms an approximate scan prunes. Above SCAN.approximateRows rows (params.ts) a store searches
// approximately by default: each scan (hop 1's question, a later hop's expansion) reads in full the
// postings of its rarest terms while their total fits the budget, and the remaining (common) terms
// only add to the rows those touched, so a scan's cost is bounded by the budget, not the store
// size. Rows holding only common terms are not scored; every row that is scored gets its exact score.
import type { SearchCorpus } from './corpus.js';

/**
 * Which terms of a scan only add to rows already touched: none when `budget` is 0 (exact);
 * otherwise every term past the rarest ones whose postings (body and title) fit the budget (the
 * rarest always reads in full).
 */
export function restrictedTerms(c: SearchCorpus, terms: ArrayLike<number>, budget: number): boolean[] {
  const out = Array.from(terms, () => false);
  if (!budget) return out;
  const cost = Array.from(terms, (t) => c.df(t) + c.titleDf(t));
  const order = cost.map((_, i) => i).sort((a, b) => cost[a] - cost[b] || a - b);
  let spent = 0;
  order.forEach((i, rank) => {
    spent += cost[i];
    out[i] = rank > 0 && spent > budget;
  });
  return out;
}
