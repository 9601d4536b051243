// The console's pages, as parsed from a URL under /console/.

export type Route =
  | { page: 'stores' }
  | { page: 'documents'; store: string }
  | { page: 'document'; store: string; id: string }
  | { page: 'search'; store: string }
  | { page: 'ingest'; store: string }
  | { page: 'missing'; path: string };

/** What a page is given: where it renders, the query string and a signal aborted when the user leaves it. */
export interface PageContext {
  main: HTMLElement;
  params: URLSearchParams;
  hash: string;
  signal: AbortSignal;
}
