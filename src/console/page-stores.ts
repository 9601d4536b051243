// The landing page: the project's stores (name, documents, size, created; newest first, a page at a
// time), a form to create one, and delete behind a confirmation that asks for the store's name.
import type { Store } from '../client/index.js';
import { confirmDialog } from './confirm-dialog.js';
import { announce, h, replace } from './dom.js';
import { bytes, dateTime, plural } from './format.js';
import { errorBox, isAbort } from './notice.js';
import type { PageContext } from './page-context.js';
import { href } from './routes.js';
import { client } from './session.js';
import { dataTable } from './table.js';

const PAGE = 50;

function storeRow(s: Store, onDelete: (s: Store) => void): HTMLElement {
  return h(
    'tr',
    {},
    h(
      'th',
      { scope: 'row' },
      h('a', { href: href({ page: 'documents', store: s.name }) }, s.name),
      h('div', { class: 'muted small' }, s.id),
    ),
    h('td', { class: 'num', 'data-label': 'Documents' }, s.n_docs.toLocaleString('en')),
    h('td', { class: 'num', 'data-label': 'Size' }, bytes(s.size_bytes)),
    h('td', {}, h('time', { datetime: s.created_at }, dateTime(s.created_at))),
    h(
      'td',
      { class: 'row-actions' },
      h('a', { class: 'button ghost', href: href({ page: 'search', store: s.name }) }, 'Search'),
      h('a', { class: 'button ghost', href: href({ page: 'ingest', store: s.name }) }, 'Ingest'),
      h('button', { type: 'button', class: 'ghost danger', 'aria-label': `Delete store ${s.name}`, onclick: () => onDelete(s) }, 'Delete'),
    ),
  );
}

export async function storesPage(ctx: PageContext): Promise<void> {
  const svc = client();
  const status = h('div', { class: 'form-status', 'aria-live': 'polite' });
  const body = h('tbody', {});
  const more = h('div', { class: 'pager' });
  const listStatus = h('div', {});
  const name = h('input', {
    id: 'store-name',
    name: 'name',
    required: true,
    pattern: '[a-z0-9_\\-]{1,64}',
    maxlength: 64,
    autocomplete: 'off',
    'aria-describedby': 'store-name-help',
  });
  let shown = 0;

  const load = async (cursor?: string) => {
    try {
      const page = await svc.stores.list({ limit: PAGE, cursor, signal: ctx.signal });
      if (!cursor) replace(body);
      for (const s of page.stores) body.append(storeRow(s, remove));
      shown += page.stores.length;
      replace(listStatus, shown === 0 ? h('p', { class: 'empty' }, 'No stores yet: create one above.') : null);
      replace(
        more,
        page.next_cursor
          ? h('button', { type: 'button', class: 'ghost', onclick: () => load(page.next_cursor ?? undefined) }, 'Show more stores')
          : null,
      );
    } catch (err) {
      if (!isAbort(err, ctx.signal)) replace(listStatus, errorBox('The stores could not be listed', err));
    }
  };

  const remove = async (s: Store) => {
    const sure = await confirmDialog(
      `Delete store ${s.name}?`,
      `This deletes the store and its ${plural(s.n_docs, 'document')} for good; there is no undo.`,
      'Delete store',
      s.name,
    );
    if (!sure) return;
    try {
      await svc.stores.delete(s.name);
      announce(`Store ${s.name} deleted`);
      shown = 0;
      await load();
    } catch (err) {
      replace(listStatus, errorBox(`Store ${s.name} could not be deleted`, err));
    }
  };

  const create = async (e: Event) => {
    e.preventDefault();
    replace(status);
    try {
      const s = await svc.stores.create(name.value);
      name.value = '';
      replace(
        status,
        h('p', { class: 'ok' }, 'Created ', h('a', { href: href({ page: 'ingest', store: s.name }) }, s.name), ': add documents to it.'),
      );
      shown = 0;
      await load();
    } catch (err) {
      replace(status, errorBox('The store could not be created', err));
    }
  };

  replace(
    ctx.main,
    h('h1', {}, 'Stores'),
    h(
      'form',
      { class: 'inline-form', onsubmit: create, 'aria-labelledby': 'create-title' },
      h('h2', { id: 'create-title', class: 'visually-hidden' }, 'Create a store'),
      h('div', { class: 'field' }, h('label', { for: 'store-name' }, 'New store name'), name),
      h('button', { type: 'submit' }, 'Create store'),
      h('p', { id: 'store-name-help', class: 'help' }, '1 to 64 characters: lower-case letters, digits, - and _.'),
    ),
    status,
    dataTable('Stores of this project, newest first', [['Name'], ['Documents', 'num'], ['Size', 'num'], ['Created']], body),
    listStatus,
    more,
  );
  await load();
}
