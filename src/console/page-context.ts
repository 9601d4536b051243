// What a page of the console is given when the router renders it.

/** What a page is given: where it renders, the query string and a signal aborted when the user leaves it. */
export interface PageContext {
  main: HTMLElement;
  params: URLSearchParams;
  hash: string;
  signal: AbortSignal;
}
