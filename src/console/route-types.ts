// The console's pages, as parsed from a URL under /console/.

export type Route =
  | { page: 'stores' }
  | { page: 'documents'; store: string }
  | { page: 'document'; store: string; id: string }
  | { page: 'search'; store: string }
  | { page: 'ingest'; store: string }
  | { page: 'missing'; path: string };
