// The `search` worker op: runs the multi-hop loop of search-loop.ts over a snapshot of a store's
// segments and returns rows (segment index, local row) with their scores and hops, the hops used,
// the confidence and raw trace steps. Scratch layout: three f32 score buffers of totalRows, then
// top-k buffers.
import type { ModelDescriptor } from './model.js';
import type { OpContext } from './op-registry.js';
import { SearchCorpus, type CorpusStats, type SnapshotSegment } from './search-corpus.js';
import { runLoop, TOPK_MAX } from './search-loop.js';
import { HIST_BINS } from './search-hops.js';
import { denseScratchBytes } from './dense-encoder.js';
import type { Why } from './search-stages.js';

export interface SearchTask {
  query: string;
  maxHops: number;
  maxResults: number;
  trace: boolean;
  segments: SnapshotSegment[];
  stats: CorpusStats;
  /** u8 per global row, 1 = excluded by the filter; 0 = no filter. */
  blocked: number;
  scratch: number;
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
  confidence: number;
  steps: RawStep[];
}

const BUFFERS = 4;

export function searchScratchBytes(totalRows: number, dim: number, maxResults: number): number {
  const rows = (Math.max(totalRows, 1) * 4 + 15) & ~15;
  return BUFFERS * rows + 8 * Math.max(TOPK_MAX, maxResults) + 4 * HIST_BINS + denseScratchBytes(dim) + 64;
}

export function searchOp(ctx: OpContext, t: SearchTask): SearchTaskResult {
  const model = ctx.shared as ModelDescriptor;
  const corpus = new SearchCorpus(ctx.kernels, t.segments, t.stats, model.params.lexical, t.blocked);
  const rows = (Math.max(corpus.totalRows, 1) * 4 + 15) & ~15;
  const top = t.scratch + BUFFERS * rows;
  const out = runLoop(corpus, model, t, {
    sBody: t.scratch,
    sTitle: t.scratch + rows,
    s: t.scratch + 2 * rows,
    s2: t.scratch + 3 * rows,
    topIdx: top,
    topScores: top + 4 * Math.max(TOPK_MAX, t.maxResults),
    hist: top + 8 * Math.max(TOPK_MAX, t.maxResults),
    dense: top + 8 * Math.max(TOPK_MAX, t.maxResults) + 4 * HIST_BINS,
  });
  return {
    hits: out.hits.map((h) => {
      const [seg, row] = corpus.locate(h.row);
      return { seg, row, score: h.score, hop: h.hop };
    }),
    hopsUsed: out.hopsUsed,
    confidence: out.confidence,
    steps: out.steps.map((s) => {
      const [seg, row] = corpus.locate(s.row);
      const why = s.why.kind === 'query' ? s.why : { ...s.why, from: corpus.locate(s.why.fromRow) };
      return { hop: s.hop, seg, row, why };
    }),
  };
}
