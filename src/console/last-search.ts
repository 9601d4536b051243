// The last search result of this tab, per store, so that a document opened from it shows which of
// its passages the search returned, with their hop and score (the document's own listing,
// include_passages, has only their offsets).
import type { Passage, SearchResult } from '../client/index.js';

const results = new Map<string, SearchResult>();

export function keepResult(store: string, result: SearchResult): void {
  results.set(store, result);
}

/** The passages of document `id` in the store's last result, in document order. */
export function passagesOf(store: string, id: string): Passage[] {
  return (results.get(store)?.passages ?? []).filter((p) => p.doc_id === id).sort((a, b) => a.start - b.start);
}
