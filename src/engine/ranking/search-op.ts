// The `search` worker op: runs the multi-hop loop of loop.ts over a snapshot of a store's
// segments and returns rows (segment index, local row) with their scores and hops, the hops used,
// the confidence and raw trace steps. Scratch: the hop buffers of buffers.ts (per-row score,
// mark and gather buffers, then top-k buffers); above SCAN.cleanRows rows (or as the task says)
// kept clean, and the result says whether it was handed back so. Its scans spread their segments
// over an idle worker through the task's board (scan-segments.ts).
import { denseScratchBytes, type ModelDescriptor } from '../model/index.js';
import { HOPS, SCAN } from '../params.js';
import type { OpContext } from '../runtime/index.js';
import { hopBuffers, hopScratchBytes } from './buffers.js';
import { SearchCorpus } from './corpus.js';
import { runLoop } from './loop.js';
import type { SearchTask, SearchTaskResult } from './types.js';

export function searchScratchBytes(totalRows: number, dim: number, maxResults: number): number {
  return hopScratchBytes(totalRows, Math.max(HOPS.rankCap, maxResults), denseScratchBytes(dim)) + 64;
}

export function searchOp(ctx: OpContext, t: SearchTask): SearchTaskResult {
  const model = ctx.shared as ModelDescriptor;
  const corpus = new SearchCorpus(ctx.kernels, t.segments, t.stats, model.params.lexical, t.blocked, ctx.regions);
  const approximate = t.scan ? t.scan === 'approximate' : corpus.totalRows > SCAN.approximateRows;
  const keepClean = t.keepClean ?? corpus.totalRows > SCAN.cleanRows;
  const scratch = keepClean ? (t.scratchClean ? 'clean' : 'dirty') : 'fill';
  const buf = hopBuffers(t.scratch, corpus.totalRows, Math.max(HOPS.rankCap, t.maxResults));
  corpus.stage = buf.stage;
  corpus.assist = ctx.assist;
  corpus.spreadPostings = t.spreadPostings ?? corpus.spreadPostings;
  const out = runLoop(corpus, model, { ...t, approximate, scratch }, buf);
  return {
    hits: out.hits.map((h) => {
      const [seg, row] = corpus.locate(h.row);
      return { seg, row, score: h.score, hop: h.hop, marks: h.marks };
    }),
    hopsUsed: out.hopsUsed,
    stage: out.stage,
    confidence: out.confidence,
    steps: out.steps.map((s) => {
      const [seg, row] = corpus.locate(s.row);
      const why = s.why.kind === 'query' ? s.why : { ...s.why, from: corpus.locate(s.why.fromRow) };
      return { hop: s.hop, seg, row, why, ms: s.ms, candidates: s.candidates };
    }),
    scratchClean: out.scratchClean,
  };
}
