// Which words of a returned passage to highlight, as term ids (the main thread turns them into
// character offsets, index/highlight.ts): the question's content terms the passage holds, and for a
// passage a later hop found, the content terms it shares with the passage before it in its chain
// (the words the hop carried over, or the title it followed). Stopwords are never marked. Pure.
import { termId } from '../text/index.js';
import type { SearchCorpus } from './corpus.js';
import type { Stage } from './types.js';

const stopIdCache = new WeakMap<readonly string[], ReadonlySet<number>>();

/** The term ids of a model's stopwords (built once per list). */
export function stopIds(stop: readonly string[]): ReadonlySet<number> {
  let ids = stopIdCache.get(stop);
  if (!ids) {
    ids = new Set(stop.map(termId));
    stopIdCache.set(stop, ids);
  }
  return ids;
}

/** The row before a returned row in the chain whose score it carries, when a later hop found it. */
export function previousRow(st: Stage & { from: number[] }, i: number): number | undefined {
  const hop = st.hops[i];
  return hop >= 2 ? st.chains[st.from[i]]?.[hop - 2] : undefined;
}

export function markTerms(c: SearchCorpus, question: readonly number[], stop: ReadonlySet<number>, row: number, prev?: number): number[] {
  const asked = new Set(question);
  const carried = prev === undefined ? undefined : new Set(c.seq(prev).terms);
  const out = new Set<number>();
  for (const t of c.seq(row).terms) if (asked.has(t) || (carried?.has(t) && !stop.has(t))) out.add(t);
  return [...out];
}
