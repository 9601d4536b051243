// The reader's re-ranking of a one-hop result: the first `n` passages of a result from the loop's
// stage 1 (whose scores are hop-1 scores) are re-ordered by the weighted sum of a named feature
// table, RERANK (the hop-1 score and the native reader's best-sentence logit). The weights are
// learned in training (train/fit-rerank.ts) on the same table and ship in the model folder as
// params.rerank, with the feature names; a model whose names differ keeps the engine's order. Invariants: only the order of the first n
// passages changes, never which passages are returned; the scores keep their values and are
// reassigned best-first, so a response's scores still fall as its list goes on.
import { computeFeatures, dotw, type Feature, type LoadedModelFolder, namesDiffer, namesOf, type RerankParams } from '../engine/index.js';
import type { NativeReader } from './reader.js';

/** What the re-ranking reads of one passage at the head of a one-hop list. */
export interface RerankInput {
  reader: NativeReader;
  question: string;
  /** the passage's hop-1 score, and its text */
  score: number;
  text: string;
}

/** The re-ranking's features, by name (the model's params.rerank.features lists them in this order). */
export const RERANK: ReadonlyArray<Feature<RerankInput>> = [
  { name: 'hop1_score', compute: (x) => x.score },
  /** the native reader's logit for the passage's best sentence */
  { name: 'sentence_logit', compute: (x) => x.reader.bestSentence(x.question, x.text) },
];

export const RERANK_NAMES = namesOf(RERANK);

/** The re-ranking features of each passage of the head (hop-1 scores `scores`, texts `texts`). */
export function rerankFeatures(reader: NativeReader, question: string, scores: number[], texts: string[]): Float64Array[] {
  return scores.map((score, i) => computeFeatures(RERANK, { reader, question, score, text: texts[i] }));
}

/** The combined score of the passages with hop-1 scores `scores` and texts `texts`. */
export function rerankScores(reader: NativeReader, p: RerankParams, question: string, scores: number[], texts: string[]): number[] {
  return rerankFeatures(reader, question, scores, texts).map((x) => dotw(p.w, x));
}

/** The passages with the first p.n re-ordered by rerankScores, scores reassigned best-first. */
export function rerankLead<T extends { text: string; score: number }>(
  reader: NativeReader,
  p: RerankParams,
  question: string,
  passages: T[],
): T[] {
  const n = Math.min(p.n, passages.length);
  if (n < 2) return passages;
  const head = passages.slice(0, n);
  const z = rerankScores(
    reader,
    p,
    question,
    head.map((x) => x.score),
    head.map((x) => x.text),
  );
  const order = head.map((_, i) => i).sort((a, b) => z[b] - z[a] || a - b);
  const scores = head.map((x) => x.score).sort((a, b) => b - a);
  return [...order.map((i, r) => ({ ...head[i], score: scores[r] })), ...passages.slice(n)];
}

/** The model folder's re-ranking parameters, or why there are none (its manifest's schema has checked their types). */
export function rerankParams({ manifest }: LoadedModelFolder): { params?: RerankParams; problem?: string } {
  const r = manifest.params.rerank;
  const where = `model ${manifest.name}@${manifest.version}`;
  if (r === undefined) return { problem: `${where} has no params.rerank (one-hop results keep the engine's order)` };
  const differ =
    namesDiffer(r.features, RERANK_NAMES) ??
    (r.w.length === RERANK_NAMES.length ? undefined : `it has ${r.w.length} weights for ${RERANK_NAMES.length} features`);
  return differ
    ? { problem: `${where}: params.rerank does not fit this version's re-ranking (${differ}); one-hop results keep the engine's order` }
    : { params: r };
}
