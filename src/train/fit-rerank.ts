// Fits the reader's re-ranking of one-hop results (answer/rerank.ts): for every training question,
// the first n passages of the loop's stage-1 list (built with the fitted W1), each with its hop-1
// score and the native reader's best-sentence logit, computed by the function serving uses; a
// softmax over those n with the evidence passages as positives (questions with evidence among them).
import type { LoopParams } from '../engine/search-loop.js';
import { thetaOf } from '../engine/search-loop.js';
import { buildHop1, hop1Chains, stageOf } from '../engine/search-stages.js';
import type { NativeReader } from '../answer/reader.js';
import { rerankScores, type RerankParams } from '../answer/rerank.js';
import type { Item } from './fit-chains.js';
import { fitSoftmax, type Group } from './learners.js';
import { evidenceRows } from './train-set.js';

/** [hop-1 score, best-sentence logit] of the head of each question's stage-1 list, with labels. */
function heads(items: Item[], search: LoopParams, reader: NativeReader, n: number): Group[] {
  const logit = { n, w: [0, 1] };
  return items.map(({ set, q }) => {
    const s = set.store.searcher([], thetaOf(search));
    const Q = s.query(q.text);
    if (Q.order.length === 0) return { x: [], pos: [] };
    const h = buildHop1(s, Q, search.W1);
    const st = stageOf(s.c, hop1Chains(s, Q, h), h.h1, n, h.ranked);
    const rows = st.ret.slice(0, n);
    const scores = rows.map((_, i) => st.scores[st.from[i]]);
    const texts = rows.map((r) => set.store.passageText(r));
    const z = rerankScores(reader, logit, q.text, scores, texts);
    const ev = evidenceRows(set, q);
    return { x: rows.map((_, i) => Float64Array.of(scores[i], z[i])), pos: rows.map((r) => ev.has(r)) };
  });
}

/** Re-ranking weights for the first n passages, and the training questions' hit@1 before and after. */
export function fitRerank(items: Item[], search: LoopParams, reader: NativeReader, o: { n: number; l2: number }): { params: RerankParams; at1: [number, number] } {
  const groups = heads(items, search, reader, o.n);
  const w = Array.from(fitSoftmax(groups, 2, o.l2));
  const top = (g: Group, f: (x: Float64Array) => number) => g.x.reduce((b, x, i) => (f(x) > f(g.x[b]) ? i : b), 0);
  const usable = groups.filter((g) => g.x.length > 0);
  const at1 = (f: (x: Float64Array) => number) => usable.filter((g) => g.pos[top(g, f)]).length / Math.max(usable.length, 1);
  return { params: { n: o.n, w }, at1: [at1((x) => x[0]), at1((x) => w[0] * x[0] + w[1] * x[1])] };
}
