// A training set: questions over one store, with what counts as evidence for them. Multi-hop
// questions need every supporting document (any passage of each); single-hop questions over long
// documents need one passage of the gold document that contains an answer string.

import type { InProcessStore, ModelParams } from '../engine/index.js';
import type { TrainQuery } from './data.js';

/** A model as the in-process stores take it: its parameters so far and its weight files. */
export type Model = { name: string; version: string; params: ModelParams; files: Map<string, Uint8Array> };

export type Judge = 'all-gold-docs' | 'answer-passage';

export interface TrainSet {
  name: string;
  store: InProcessStore;
  queries: TrainQuery[];
  judge: Judge;
  /** Whether the set's questions train the chain scorers W2 and W3 (multi-hop sets only). */
  chains: boolean;
}

/** Rows that are evidence for a question. */
export function evidenceRows(set: TrainSet, q: TrainQuery): Set<number> {
  const rows = q.gold.flatMap((g) => set.store.rowsOf(g));
  if (set.judge === 'all-gold-docs') return new Set(rows);
  return new Set(rows.filter((r) => (q.answers ?? []).some((a) => set.store.passageText(r).includes(a))));
}

/** Whether the first rows of a result hold sufficient evidence. */
export function sufficient(set: TrainSet, q: TrainQuery, rows: number[], evidence = evidenceRows(set, q)): boolean {
  if (set.judge === 'answer-passage') return rows.some((r) => evidence.has(r));
  const docs = new Set(rows.map((r) => set.store.docIdOf(r)));
  return q.gold.every((g) => docs.has(g));
}
