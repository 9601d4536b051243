// Main-thread side of a search: snapshots the segments, builds the filter mask, runs the `search`
// op in a worker with its scratch, then maps the rows it returns to documents and renders the trace.
// Rows whose document changed while the search ran are dropped (never returned with stale text).
import { cleanTag, type SearchTask, type SearchTaskResult, searchScratchBytes, snapshotOf } from '../ranking/index.js';
import type { PassageHit, SearchParams } from '../types.js';
import { explain } from './explain.js';
import type { EngineContext, PendingResult, Segment } from './types.js';

/**
 * `blockedRows`: with a filter, one byte per global row of the snapshot, 1 for a row the filter
 * excludes. `started`: when the search began (its latency counts the filter's evaluation too).
 */
export async function runSearch(
  ctx: EngineContext,
  snapshot: Segment[],
  stats: SearchTask['stats'],
  params: SearchParams,
  blockedRows?: Uint8Array,
  started = performance.now(),
): Promise<PendingResult> {
  const totalRows = snapshot.reduce((n, s) => n + s.nRows, 0);
  const dim = ctx.model.params.dense?.dim ?? 0;
  let blocked = 0;
  let result: SearchTaskResult;
  try {
    if (blockedRows) {
      blocked = ctx.heap.alloc(Math.max(totalRows, 1));
      ctx.heap.views.write(blocked, blockedRows);
    }
    const task: Omit<SearchTask, 'scratch'> = {
      query: params.query,
      maxHops: params.maxHops,
      maxResults: params.maxResults,
      lead: params.lead,
      trace: params.trace,
      segments: snapshot.map(snapshotOf),
      stats,
      blocked,
      scan: params.scan,
      scanBudget: params.scanBudget,
      spreadPostings: params.spreadPostings,
      keepClean: params.keepClean,
    };
    result = await ctx.withScratch<SearchTaskResult>(
      'search',
      searchScratchBytes(totalRows, dim, params.maxResults),
      task as unknown as Record<string, unknown>,
      {},
      cleanTag(totalRows),
    );
  } finally {
    if (blocked) ctx.heap.free(blocked);
  }
  return {
    resolve(rowRef, readText) {
      const passages: PassageHit[] = [];
      for (const h of result.hits) {
        const ref = rowRef(snapshot[h.seg], h.row);
        if (ref) passages.push({ ...ref, score: h.score, hop: h.hop, marks: h.marks });
      }
      const trace = params.trace ? explain(params.query, result.steps, (seg, row) => rowRef(snapshot[seg], row), readText) : undefined;
      return {
        passages,
        confidence: result.confidence,
        hopsUsed: result.hopsUsed,
        stage: result.stage,
        trace,
        latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
      };
    },
  };
}
