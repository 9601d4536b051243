// A store's documents, most recently ingested first, a page at a time (Previous walks back the
// cursors this page followed), narrowed by the filter language; each can be opened or deleted, and
// the documents a filter matches can be deleted together. The filter and page size live in the URL.
import type { DocumentSummary, Filter } from '../client/index.js';
import { confirmDialog } from './confirm-dialog.js';
import { announce, h, replace } from './dom.js';
import { filterField, parseFilter } from './filter-field.js';
import { bytes, dateTime, plural } from './format.js';
import { metadataList } from './metadata.js';
import { replaceUrl } from './nav.js';
import { errorBox, isAbort } from './notice.js';
import type { PageContext } from './page-context.js';
import { href } from './routes.js';
import { client } from './session.js';
import { storeHeader } from './store-header.js';
import { dataTable } from './table.js';

const SIZES = [20, 50, 100];

export async function documentsPage(ctx: PageContext, store: string): Promise<void> {
  const svc = client();
  const initialLimit = SIZES.includes(Number(ctx.params.get('limit'))) ? Number(ctx.params.get('limit')) : SIZES[0];
  const { field, input } = filterField('doc-filter', ctx.params.get('filter') ?? '');
  const size = h(
    'select',
    { id: 'page-size', name: 'limit' },
    SIZES.map((n) => h('option', { value: n, selected: n === initialLimit }, String(n))),
  );
  const stats = h('p', { class: 'muted' });
  const body = h('tbody', {});
  const pager = h('div', { class: 'pager' });
  const status = h('div', {});
  const cursors: Array<string | undefined> = [undefined];
  let filter: Filter | undefined;

  const loadStats = () =>
    svc.stores.get(store, { signal: ctx.signal }).then(
      (s) => replace(stats, `${plural(s.n_docs, 'document')} · ${bytes(s.size_bytes)} · created ${dateTime(s.created_at)}`),
      () => replace(stats),
    );

  const row = (d: DocumentSummary) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row', class: 'id' }, h('a', { href: href({ page: 'document', store, id: d.id }) }, d.id)),
      h('td', {}, metadataList(d.metadata)),
      h('td', { class: 'num', 'data-label': 'Tokens' }, d.n_tokens.toLocaleString('en')),
      h('td', {}, h('time', { datetime: d.updated_at }, dateTime(d.updated_at))),
      h(
        'td',
        { class: 'row-actions' },
        h(
          'button',
          { type: 'button', class: 'ghost danger', 'aria-label': `Delete document ${d.id}`, onclick: () => remove(d.id) },
          'Delete',
        ),
      ),
    );

  const show = async () => {
    const cursor = cursors[cursors.length - 1];
    try {
      const page = await svc.documents.list(store, { limit: Number(size.value), cursor, filter, signal: ctx.signal });
      replace(body, page.documents.map(row));
      replace(
        status,
        page.documents.length === 0
          ? h(
              'p',
              { class: 'empty' },
              filter ? 'No document on this page matches the filter.' : 'No documents yet: ',
              filter ? null : h('a', { href: href({ page: 'ingest', store }) }, 'ingest some'),
            )
          : null,
      );
      replace(
        pager,
        h('button', { type: 'button', class: 'ghost', disabled: cursors.length === 1, onclick: () => step(-1) }, 'Previous page'),
        h('span', { class: 'muted' }, `Page ${cursors.length}`),
        h(
          'button',
          { type: 'button', class: 'ghost', disabled: !page.next_cursor, onclick: () => step(1, page.next_cursor ?? undefined) },
          'Next page',
        ),
      );
    } catch (err) {
      if (!isAbort(err, ctx.signal)) replace(status, errorBox('The documents could not be listed', err));
    }
  };

  const step = (dir: number, next?: string) => {
    if (dir > 0) cursors.push(next);
    else cursors.pop();
    void show().then(() => announce(`Page ${cursors.length}`));
  };

  const remove = async (id: string) => {
    if (!(await confirmDialog(`Delete document ${id}?`, 'The document and its passages are deleted for good.', 'Delete document'))) return;
    try {
      await svc.documents.delete(store, id);
      announce(`Document ${id} deleted`);
      await Promise.all([show(), loadStats()]);
    } catch (err) {
      replace(status, errorBox(`Document ${id} could not be deleted`, err));
    }
  };

  const removeMatching = async () => {
    if (!filter) return;
    const sure = await confirmDialog(
      'Delete every document the filter matches?',
      `Every document of ${store} matching ${JSON.stringify(filter)} is deleted, in one transaction, for good.`,
      'Delete documents',
      'delete',
    );
    if (!sure) return;
    try {
      const n = await svc.documents.deleteMany(store, { filter });
      announce(`${plural(n, 'document')} deleted`);
      replace(status, h('p', { class: 'ok' }, `${plural(n, 'document')} deleted.`));
      cursors.splice(1);
      await Promise.all([show(), loadStats()]);
    } catch (err) {
      replace(status, errorBox('The documents could not be deleted', err));
    }
  };

  const deleteMatching = h(
    'button',
    { type: 'button', class: 'ghost danger', hidden: true, onclick: removeMatching },
    'Delete all matching',
  );
  /** Reads the filter field into `filter` (and shows Delete all matching with one); false, with the error shown, when it is not valid. */
  const readFilter = (): boolean => {
    try {
      filter = parseFilter(input.value);
    } catch (err) {
      replace(status, errorBox('The filter is not valid', err));
      return false;
    }
    deleteMatching.hidden = !filter;
    return true;
  };
  const apply = (e: Event) => {
    e.preventDefault();
    if (!readFilter()) return;
    const url = new URL(
      href({ page: 'documents', store }, { filter: input.value.trim(), limit: Number(size.value) === SIZES[0] ? undefined : size.value }),
      document.baseURI,
    );
    replaceUrl(url);
    cursors.splice(1);
    void show();
  };

  replace(
    ctx.main,
    storeHeader(store, 'documents'),
    stats,
    h(
      'form',
      { class: 'filter-form', onsubmit: apply },
      field,
      h('div', { class: 'field' }, h('label', { for: 'page-size' }, 'Per page'), size),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Apply'), deleteMatching),
    ),
    dataTable(`Documents of ${store}, most recently ingested first`, [['Id'], ['Metadata'], ['Tokens', 'num'], ['Updated']], body),
    status,
    pager,
  );
  if (readFilter()) await Promise.all([show(), loadStats()]);
}
