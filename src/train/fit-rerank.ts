// Fits the reader's re-ranking of one-hop results (answer/rerank.ts): for every training question,
// the first n passages of the loop's stage-1 list (built with the fitted W1), each with its hop-1
// score and the native reader's best-sentence logit (the features rerankScores weighs in serving); a
// softmax over those n with the evidence passages as positives (questions with evidence among them).

import { type NativeReader, RERANK_NAMES, rerankFeatures } from '../answer/index.js';
import { buildHop1, dotw, hop1Chains, type LoopParams, type RerankParams, stageOf, thetaOf } from '../engine/index.js';
import type { Item } from './fit-chains.js';
import { fitSoftmax, type Group } from './learners.js';
import { evidenceRows } from './train-set.js';

/** The re-ranking features (answer/rerank.ts RERANK) of the head of each question's stage-1 list, with labels. */
function heads(items: Item[], search: LoopParams, reader: NativeReader, n: number): Group[] {
  return items.map(({ set, q }) => {
    const s = set.store.searcher([], thetaOf(search));
    const Q = s.query(q.text);
    if (Q.order.length === 0) return { x: [], pos: [] };
    const h = buildHop1(s, Q, search.W1);
    const st = stageOf(s.c, hop1Chains(s, Q, h), h.h1, n, h.ranked);
    const ev = evidenceRows(set, q);
    return {
      x: rerankFeatures(
        reader,
        q.text,
        st.ret.map((_, i) => st.scores[st.from[i]]),
        st.ret.map((r) => set.store.passageText(r)),
      ),
      pos: st.ret.map((r) => ev.has(r)),
    };
  });
}

/** Re-ranking weights for the first n passages, and the training questions' hit@1 before and after. */
export function fitRerank(
  items: Item[],
  search: LoopParams,
  reader: NativeReader,
  o: { n: number; l2: number },
): { params: RerankParams; at1: [number, number] } {
  const groups = heads(items, search, reader, o.n);
  const w = Array.from(fitSoftmax(groups, RERANK_NAMES.length, o.l2));
  const top = (g: Group, f: (x: Float64Array) => number) => g.x.reduce((b, x, i) => (f(x) > f(g.x[b]) ? i : b), 0);
  const usable = groups.filter((g) => g.x.length > 0);
  const at1 = (f: (x: Float64Array) => number) => usable.filter((g) => g.pos[top(g, f)]).length / Math.max(usable.length, 1);
  return { params: { n: o.n, w, features: [...RERANK_NAMES] }, at1: [at1((x) => x[0]), at1((x) => dotw(w, x))] };
}
