// The `search` worker op: runs the multi-hop loop of search-loop.ts over a snapshot of a store's
// segments and returns rows (segment index, local row) with their scores and hops, the hops used,
// the confidence and raw trace steps. Scratch: the hop buffers of hop-buffers.ts (per-row score,
// mark and gather buffers, then top-k buffers).
import type { ModelDescriptor } from '../model/place.js';
import type { OpContext } from '../runtime/op-registry.js';
import { SearchCorpus, type CorpusStats, type SnapshotSegment } from './corpus.js';
import { runLoop, TOPK_MAX } from './loop.js';
import { hopBuffers, hopScratchBytes } from './buffers.js';
import { APPROXIMATE_ROWS } from './scan-budget.js';
import { denseScratchBytes } from '../model/dense-encoder.js';
import type { Why } from './stages.js';

export interface SearchTask {
  query: string;
  maxHops: number;
  maxResults: number;
  /** see SearchParams.lead */
  lead?: number;
  trace: boolean;
  segments: SnapshotSegment[];
  stats: CorpusStats;
  /** u8 per global row, 1 = excluded by the filter; 0 = no filter. */
  blocked: number;
  scratch: number;
  /** 'exact' scores every row; 'approximate' prunes common terms; absent: approximate above APPROXIMATE_ROWS rows */
  scan?: 'exact' | 'approximate';
  /** postings an approximate scan reads in full (default SCAN_BUDGET of scan-budget.ts) */
  scanBudget?: number;
}

export interface RawStep {
  hop: number;
  seg: number;
  row: number;
  /** the step's why, with the row it came from as [segment, row] */
  why: Why & { from?: [number, number] };
}

export interface SearchTaskResult {
  hits: Array<{ seg: number; row: number; score: number; hop: number }>;
  hopsUsed: number;
  stage: number;
  confidence: number;
  steps: RawStep[];
}

export function searchScratchBytes(totalRows: number, dim: number, maxResults: number): number {
  return hopScratchBytes(totalRows, Math.max(TOPK_MAX, maxResults), denseScratchBytes(dim)) + 64;
}

export function searchOp(ctx: OpContext, t: SearchTask): SearchTaskResult {
  const model = ctx.shared as ModelDescriptor;
  const corpus = new SearchCorpus(ctx.kernels, t.segments, t.stats, model.params.lexical, t.blocked);
  const approximate = t.scan ? t.scan === 'approximate' : corpus.totalRows > APPROXIMATE_ROWS;
  const out = runLoop(corpus, model, { ...t, approximate }, hopBuffers(t.scratch, corpus.totalRows, Math.max(TOPK_MAX, t.maxResults)));
  return {
    hits: out.hits.map((h) => {
      const [seg, row] = corpus.locate(h.row);
      return { seg, row, score: h.score, hop: h.hop };
    }),
    hopsUsed: out.hopsUsed,
    stage: out.stage,
    confidence: out.confidence,
    steps: out.steps.map((s) => {
      const [seg, row] = corpus.locate(s.row);
      const why = s.why.kind === 'query' ? s.why : { ...s.why, from: corpus.locate(s.why.fromRow) };
      return { hop: s.hop, seg, row, why };
    }),
  };
}
