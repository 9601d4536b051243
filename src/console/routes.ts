// URLs of the console's pages, relative to its root (/console/, the document's <base>), both ways:
// parse(path) of href(route) is the route again for any store name and document id (segments are
// percent-encoded) but '.' and '..', which the API refuses as names and ids since URL parsers
// resolve them even encoded.
import type { Route } from './route-types.js';

/** The href of a page (relative to the base), with an optional query. */
export function href(route: Exclude<Route, { page: 'missing' }>, query?: Record<string, string | undefined>): string {
  let path = '';
  if (route.page !== 'stores') {
    path = `stores/${encodeURIComponent(route.store)}`;
    if (route.page === 'document') path += `/documents/${encodeURIComponent(route.id)}`;
    else if (route.page !== 'documents') path += `/${route.page}`;
  }
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') q.set(k, v);
  const qs = q.toString();
  return `./${path}${qs ? `?${qs}` : ''}`;
}

/** The route of a path relative to the console root ('' is the stores page). */
export function parse(relative: string): Route {
  const parts = relative.split('/').filter((p, i, all) => p !== '' || i < all.length - 1);
  let decoded: string[];
  try {
    decoded = parts.map(decodeURIComponent);
  } catch {
    return { page: 'missing', path: relative };
  }
  const [first, store, third, id, ...rest] = decoded;
  if (decoded.length === 0) return { page: 'stores' };
  if (first !== 'stores' || !store) return { page: 'missing', path: relative };
  if (third === undefined) return { page: 'documents', store };
  if (third === 'documents' && id && rest.length === 0) return { page: 'document', store, id };
  if ((third === 'search' || third === 'ingest') && id === undefined) return { page: third, store };
  return { page: 'missing', path: relative };
}

/** The link to characters [start, end) of document `id` (hrefs resolve against the <base>, so a bare #hash would leave the page). */
export function rangeHref(store: string, id: string, start: number, end: number): string {
  return `${href({ page: 'document', store, id })}#p=${start}-${end}`;
}
