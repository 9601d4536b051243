// Warm-up of a restarted server, run after its stores are read and before it answers anything but
// health: the first searches of a fresh process run cold code (V8 compiles the engine's JavaScript
// in each worker, and tiers its WebAssembly up, only as calls accumulate), and took 50 to 120 ms on
// hotpotqa-dev's store against 8 to 15 ms once warm. Invariants: read-only (searches only, through
// the search handler itself, so every stage a request runs is warmed); queries come from the text of
// the largest store's first documents, as questions and as keywords, so both sufficiency paths run
// (the largest store is opened for it: the store a restarted server is most likely asked about);
// bounded by a count and a time budget; a server with no documents does nothing.
import type { Services } from './context.js';
import { search } from './handlers-search.js';
import { LIMITS } from './schemas.js';
import type { OpenStore } from './store-registry.js';

export interface WarmUpReport {
  store?: string;
  searches: number;
  ms: number;
}

/** Searches enough to bring the next ones near steady-state latency (30 of hotpotqa-dev's questions did). */
const SEARCHES = 48;
const BUDGET_MS = 3000;
const MAX_WORDS = 7;
/** Longer runs of letters (a blob, a URL) make no word; ten words then stay within a query's limit. */
const MAX_WORD_CHARS = 40;

/**
 * Warm-up queries from a store's documents, shaped like the questions a search gets: words of one
 * document's second sentence (its first often just names it) with the opening words of the next
 * document, as a question, or every third one as keywords.
 */
export function warmUpQueries(texts: string[], n: number): string[] {
  const words = (s: string | undefined) =>
    (s?.match(/[\p{L}][\p{L}\p{N}'-]*/gu) ?? []).filter((w) => w.length > 2 && w.length <= MAX_WORD_CHARS);
  const queries: string[] = [];
  for (let i = 0; i < texts.length && queries.length < n; i++) {
    const sentences = texts[i].split(/(?<=[.!?])\s+/);
    const own = words(sentences[1] ?? sentences[0]).slice(0, MAX_WORDS);
    const other = words(texts[(i + 1) % texts.length]).slice(0, 3);
    if (own.length === 0) continue;
    const q = [...own, ...other].join(' ');
    queries.push(queries.length % 3 === 2 ? q : `What ${q}?`);
  }
  return queries;
}

/** Runs up to SEARCHES searches on the largest store (opening it first), `parallel` at once, within BUDGET_MS. */
export async function warmUp(services: Services, parallel: number): Promise<WarmUpReport> {
  const largest = services.registry.largest();
  if (!largest) return { searches: 0, ms: 0 };
  const { project, entry } = largest;
  const lease = await services.registry.acquire(project, entry.meta.id);
  try {
    return await warmUpOn(services, parallel, project, lease.store, performance.now());
  } finally {
    lease.release();
  }
}

async function warmUpOn(services: Services, parallel: number, project: string, store: OpenStore, started: number): Promise<WarmUpReport> {
  const texts = (store.db.textBatches(SEARCHES, 2_000_000).next().value ?? []).map((d: { text: string }) => d.text);
  const queries = warmUpQueries(texts, SEARCHES);
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < queries.length && performance.now() - started < BUDGET_MS) {
      const i = next++;
      const body = {
        query: queries[i],
        max_hops: LIMITS.maxHops.default,
        max_results: LIMITS.maxResults.default,
        return_trace: i % 4 === 3,
        answer: false,
      };
      await search({ project, params: { store: store.db.meta.id }, query: {}, body, headers: {}, requestId: 'warm-up', services });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, one));
  return { store: store.db.meta.name, searches: next, ms: Math.round(performance.now() - started) };
}
