// Search and health. Search runs the engine's multi-hop loop on the store's index (in the worker
// pool) and resolves the passage references it returns to text; a passage whose document was
// deleted meanwhile is dropped rather than returned without text. The head of a one-hop result is
// re-ordered by the native reader when the model has re-ranking weights (answer/rerank.ts).

import { rerankLead } from '../answer/index.js';
import type { Health, Passage, SearchResult } from '../api-types.js';
import type { Handler } from './context.js';
import { engineTurn } from './fair-gate.js';

export const search: Handler<'search'> = async (ctx) => {
  const { registry, engine } = ctx.services;
  const store = registry.get(ctx.project, ctx.params.store);
  const b = ctx.body;
  const texts = new Map<string, string | undefined>();
  const text = (docId: string): string | undefined => {
    if (!texts.has(docId)) texts.set(docId, store.db.getText(docId));
    return texts.get(docId);
  };
  const outcome = await engineTurn(ctx, () =>
    store.index.search(
      {
        query: b.query,
        maxHops: b.max_hops,
        maxResults: b.max_results,
        lead: ctx.services.rerank?.params.n,
        trace: b.return_trace,
        filter: b.filter,
      },
      (docId, start, end) => text(docId)?.slice(start, end),
    ),
  );
  let passages: Passage[] = [];
  for (const p of outcome.passages) {
    const t = text(p.docId);
    if (t === undefined) continue;
    passages.push({
      doc_id: p.docId,
      text: t.slice(p.start, p.end),
      score: p.score,
      hop: p.hop,
      metadata: p.metadata,
      start: p.start,
      end: p.end,
    });
  }
  // A one-hop result's head is re-ordered by the reader (the engine listed at least the head, so
  // max_results 1 gets the first of what 10 gets), then cut; its time counts in the server latency.
  const rr = ctx.services.rerank;
  const started = performance.now();
  if (rr && outcome.stage === 1) passages = rerankLead(rr.reader, rr.params, b.query, passages);
  passages = passages.slice(0, b.max_results);
  const body: SearchResult = {
    passages,
    confidence: outcome.confidence,
    hops_used: outcome.hopsUsed,
    latency_ms: Math.round((outcome.latencyMs + performance.now() - started) * 1000) / 1000,
    engine: engine.id,
  };
  if (b.return_trace) body.trace = outcome.trace ?? [];
  // answer=true (issue 7): built from the passages returned; a failure is reported inside `answer`.
  if (b.answer) body.answer = await ctx.services.enrichment.answerer.answer(b.query, passages);
  return { status: 200, body };
};

export const health: Handler<'health'> = (ctx) => {
  const { state, version, engine } = ctx.services;
  const body: Health = { status: state, version, engine: engine.id };
  return state === 'ok' ? { status: 200, body } : { status: 503, body, headers: { 'Retry-After': '1' } };
};

export const openapi: Handler<'openapi'> = (ctx) => ({ status: 200, body: ctx.services.openapi });
