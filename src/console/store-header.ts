// The head of a store's pages: its name, and tabs for its documents, search and ingest (the current
// one marked with aria-current).
import { h } from './dom.js';
import { href } from './routes.js';

type Tab = 'documents' | 'search' | 'ingest';

const TABS: Array<[Tab, string]> = [
  ['documents', 'Documents'],
  ['search', 'Search'],
  ['ingest', 'Ingest'],
];

export function storeHeader(store: string, active: Tab | undefined): HTMLElement[] {
  return [
    h('h1', {}, h('span', { class: 'muted' }, 'Store '), store),
    h(
      'nav',
      { class: 'tabs', 'aria-label': `Store ${store}` },
      TABS.map(([page, label]) => h('a', { href: href({ page, store }), 'aria-current': page === active ? 'page' : undefined }, label)),
    ),
  ];
}
