// The console's entry: the shell of index.html (breadcrumbs, the server's version and readiness,
// asked again until it is ready; the connection panel) and the router. Pages are URLs under the
// document's <base> (/console/); a click on a link inside it, or Back and Forward, renders the page
// without a reload, aborts what the previous page was still loading and moves focus to the page's
// content (a change of #hash alone only scrolls). A file dropped outside a drop zone is ignored
// rather than opened by the browser in place of the console.

import { connectionLabel, renderConnection } from './connection.js';
import { h, replace } from './dom.js';
import { isShown, pushUrl, showing } from './nav.js';
import { CONNECT } from './notice.js';
import { documentPage } from './page-document.js';
import { documentsPage } from './page-documents.js';
import { ingestPage } from './page-ingest.js';
import { searchPage } from './page-search.js';
import { storesPage } from './page-stores.js';
import type { Route } from './route-types.js';
import { href, parse } from './routes.js';
import { client } from './session.js';

const main = document.getElementById('main') as HTMLElement;
const panel = document.getElementById('connection') as HTMLElement;
const toggle = document.getElementById('connection-toggle') as HTMLButtonElement;
const root = new URL(document.baseURI);
let current: AbortController | undefined;
/** How often the header asks /v1/health again while the server is not ready. */
const SERVER_POLL_MS = 3000;

function titleOf(r: Route): string {
  switch (r.page) {
    case 'stores':
      return 'Stores';
    case 'documents':
      return `${r.store} · documents`;
    case 'document':
      return `${r.id} · ${r.store}`;
    case 'search':
      return `${r.store} · search`;
    case 'ingest':
      return `${r.store} · ingest`;
    case 'missing':
      return 'Not found';
  }
}

function crumbs(r: Route): void {
  const items: HTMLElement[] = [
    h('li', {}, h('a', { href: href({ page: 'stores' }), 'aria-current': r.page === 'stores' ? 'page' : undefined }, 'Stores')),
  ];
  if (r.page !== 'stores' && r.page !== 'missing')
    items.push(h('li', {}, h('a', { href: href({ page: 'documents', store: r.store }) }, r.store)));
  if (r.page === 'document') items.push(h('li', {}, h('span', { class: 'id' }, r.id)));
  replace(document.getElementById('crumbs') as HTMLElement, items);
}

async function render(focus: boolean): Promise<void> {
  current?.abort();
  current = new AbortController();
  const url = new URL(location.href);
  showing(url);
  const route = url.pathname.startsWith(root.pathname)
    ? parse(url.pathname.slice(root.pathname.length))
    : ({ page: 'missing', path: url.pathname } as const);
  document.title = `${titleOf(route)} · svc console`;
  crumbs(route);
  const ctx = { main, params: url.searchParams, hash: url.hash, signal: current.signal };
  if (focus) main.focus();
  switch (route.page) {
    case 'stores':
      return storesPage(ctx);
    case 'documents':
      return documentsPage(ctx, route.store);
    case 'document':
      return documentPage(ctx, route.store, route.id);
    case 'search':
      return searchPage(ctx, route.store);
    case 'ingest':
      return ingestPage(ctx, route.store);
    case 'missing':
      replace(
        main,
        h('h1', {}, 'No such page'),
        h(
          'p',
          {},
          'Nothing in the console lives at ',
          h('code', {}, route.path),
          '. ',
          h('a', { href: href({ page: 'stores' }) }, 'Go to the stores'),
          '.',
        ),
      );
  }
}

function go(url: URL): void {
  if (isShown(url) && url.hash) {
    location.hash = url.hash;
    return;
  }
  pushUrl(url);
  void render(true);
}

document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest('a');
  if (
    !a ||
    e.defaultPrevented ||
    e.button !== 0 ||
    e.metaKey ||
    e.ctrlKey ||
    e.shiftKey ||
    e.altKey ||
    a.target ||
    a.hasAttribute('download')
  )
    return;
  // a bare #id (the skip link) would resolve against the <base> and leave the page: focus the target
  const raw = a.getAttribute('href') ?? '';
  if (raw.startsWith('#')) {
    e.preventDefault();
    document.getElementById(raw.slice(1))?.focus();
    return;
  }
  const url = new URL(a.href);
  if (url.origin !== root.origin || !url.pathname.startsWith(root.pathname)) return;
  e.preventDefault();
  go(url);
});
window.addEventListener('popstate', () => {
  if (!isShown(new URL(location.href))) void render(true);
});

function setPanel(open: boolean): void {
  panel.hidden = !open;
  toggle.setAttribute('aria-expanded', String(open));
  if (open) (panel.querySelector('input') as HTMLInputElement | null)?.focus();
}

function showConnection(): void {
  toggle.textContent = connectionLabel();
  renderConnection(panel, () => {
    setPanel(false);
    showConnection();
    void render(true);
  });
}

async function showServer(): Promise<void> {
  const box = document.getElementById('server') as HTMLElement;
  try {
    const health = await client().health({ timeoutMs: 10_000 });
    replace(
      box,
      h('span', { class: 'dot', 'data-state': health.status, 'aria-hidden': 'true' }),
      `svc ${health.version}`,
      health.status === 'ok' ? '' : ` · ${health.status}`,
    );
    box.title = health.engine;
    if (health.status === 'ok') return;
  } catch {
    replace(box, h('span', { class: 'dot', 'data-state': 'down', 'aria-hidden': 'true' }), 'server unreachable');
  }
  setTimeout(showServer, SERVER_POLL_MS);
}

toggle.addEventListener('click', () => setPanel(panel.hidden));
for (const type of ['dragover', 'drop']) document.addEventListener(type, (e) => e.preventDefault());
document.addEventListener(CONNECT, () => setPanel(true));
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !panel.hidden) {
    setPanel(false);
    toggle.focus();
  }
});
showConnection();
void showServer();
void render(false);
