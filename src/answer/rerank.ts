// The reader's re-ranking of a one-hop result: the first `n` passages of a result from the loop's
// stage 1 (whose scores are hop-1 scores) are re-ordered by w[0]·score + w[1]·(the native reader's
// best-sentence logit). The weights are learned in training (train/fit-rerank.ts) on the same
// function and ship in the model folder as params.rerank. Invariants: only the order of the first n
// passages changes, never which passages are returned; the scores keep their values and are
// reassigned best-first, so a response's scores still fall as its list goes on.
import type { LoadedModelFolder } from '../engine/model/folder.js';
import type { NativeReader } from './reader.js';

export interface RerankParams {
  /** passages re-ordered at the head of a one-hop result */
  n: number;
  /** weights of [hop-1 score, best-sentence logit] */
  w: number[];
}

/** The combined score of the passages with hop-1 scores `scores` and texts `texts`. */
export function rerankScores(reader: NativeReader, p: RerankParams, question: string, scores: number[], texts: string[]): number[] {
  return scores.map((s, i) => p.w[0] * s + p.w[1] * reader.bestSentence(question, texts[i]));
}

/** The passages with the first p.n re-ordered by rerankScores, scores reassigned best-first. */
export function rerankLead<T extends { text: string; score: number }>(reader: NativeReader, p: RerankParams, question: string, passages: T[]): T[] {
  const n = Math.min(p.n, passages.length);
  if (n < 2) return passages;
  const head = passages.slice(0, n);
  const z = rerankScores(reader, p, question, head.map((x) => x.score), head.map((x) => x.text));
  const order = head.map((_, i) => i).sort((a, b) => z[b] - z[a] || a - b);
  const scores = head.map((x) => x.score).sort((a, b) => b - a);
  return [...order.map((i, r) => ({ ...head[i], score: scores[r] })), ...passages.slice(n)];
}

/** The model folder's re-ranking parameters, or why there are none (an older model has none). */
export function rerankParams({ manifest }: LoadedModelFolder): { params?: RerankParams; problem?: string } {
  const r = (manifest.params as { rerank?: Partial<RerankParams> }).rerank;
  const where = `model ${manifest.name}@${manifest.version}`;
  if (r === undefined) return { problem: `${where} has no params.rerank (one-hop results keep the engine's order)` };
  const ok = Number.isInteger(r.n) && r.n! >= 1 && r.n! <= 100 && Array.isArray(r.w) && r.w.length === 2 && r.w.every(Number.isFinite);
  return ok ? { params: { n: r.n!, w: r.w! } } : { problem: `${where}: params.rerank is not {n: 1..100, w: [2 numbers]}; one-hop results keep the engine's order` };
}
