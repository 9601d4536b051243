// Search, batch search, health and liveness. Search runs the engine's multi-hop loop on the store's index (in
// the worker pool) and resolves the passage references it returns to text; a passage whose document
// was deleted meanwhile is dropped rather than returned without text. The head of a one-hop result is
// re-ordered by the native reader when the model has re-ranking weights (answer/rerank.ts). A batch
// validates each of its searches on its own and answers each with a result or an error, in order.

import { rerankLead } from '../answer/index.js';
import type { Health, Passage, SearchBatchResponse, SearchResult } from '../api-types.js';
import { highlightSpans } from '../engine/index.js';
import { ApiError } from '../errors.js';
import type { Ctx, Handler } from './context.js';
import { engineTurn } from './fair-gate.js';
import { checkFilter } from './filter-check.js';
import { schemaChecker } from './validate.js';

/** A search request as validation leaves it: the fields with a default are filled in. */
type ValidSearch = Ctx<'search'>['body'];

/** One search of a store: the engine's loop, the passages' text and highlights, the reader's order of a one-hop head, the answer. */
async function runSearch(ctx: Ctx<'search'> | Ctx<'searchBatch'>, b: ValidSearch, where: string): Promise<SearchResult> {
  const { registry, engine } = ctx.services;
  const store = registry.get(ctx.project, ctx.params.store);
  checkFilter(b.filter, `${where}.filter`);
  // a document may be a whole book: its passages are read without decoding all of it (StoreDb.textReader)
  const read = store.db.textReader();
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
      read,
    ),
  );
  // the passages' texts read off this thread first: a store past the page cache would block it on the disk
  await store.db.prefetchTexts(outcome.passages.map((p) => p.docId));
  let passages: Passage[] = [];
  for (const p of outcome.passages) {
    const passage = read(p.docId, p.start, p.end);
    if (passage === undefined) continue;
    passages.push({
      doc_id: p.docId,
      text: passage,
      score: p.score,
      hop: p.hop,
      metadata: p.metadata,
      start: p.start,
      end: p.end,
      highlights: highlightSpans(passage, p.marks),
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
  ctx.services.metrics?.searched(body);
  return body;
}

export const search: Handler<'search'> = async (ctx) => ({ status: 200, body: await runSearch(ctx, ctx.body, 'body') });

/** Searches of a batch run this many at a time (each still takes its turn in the engine's fair gate). */
const BATCH_PARALLEL = 4;

export const searchBatch: Handler<'searchBatch'> = async (ctx) => {
  ctx.services.registry.get(ctx.project, ctx.params.store);
  const check = schemaChecker(ctx.services.openapi, 'SearchRequest');
  const searches = ctx.body.searches;
  const results: SearchBatchResponse['results'] = new Array(searches.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < searches.length; i = next++) {
      try {
        check(searches[i], `body.searches[${i}]`);
        // check() validated it against SearchRequest and filled in its defaults, as the router does for a search.
        results[i] = await runSearch(ctx, searches[i] as unknown as ValidSearch, `body.searches[${i}]`);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        results[i] = err.body();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_PARALLEL, searches.length) }, worker));
  return { status: 200, body: { results } };
};

export const health: Handler<'health'> = (ctx) => {
  const { state, version, engine } = ctx.services;
  const body: Health = { status: state, version, engine: engine.id };
  return state === 'ok' ? { status: 200, body } : { status: 503, body, headers: { 'Retry-After': '1' } };
};

export const livez: Handler<'livez'> = () => ({ status: 200, body: { status: 'alive' } });

export const openapi: Handler<'openapi'> = (ctx) => ({ status: 200, body: ctx.services.openapi });
