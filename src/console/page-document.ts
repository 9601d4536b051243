// One document: its id, times, token count, metadata, its passages (passage-index.ts) and its full
// text, where the passages the tab's last search of this store returned from it are marked; a link's
// `#p=start-end` marks and scrolls to that range (a passage link from a search result or the list).
// Delete asks first, then goes back to the store.
import type { DocumentInfo } from '../client/index.js';
import { confirmDialog } from './confirm-dialog.js';
import { announce, h, replace } from './dom.js';
import { dateTime, plural } from './format.js';
import { marked } from './highlight.js';
import { passagesOf } from './last-search.js';
import { metadataList } from './metadata.js';
import { errorBox, isAbort } from './notice.js';
import type { PageContext } from './page-context.js';
import { passageIndex } from './passage-index.js';
import { href } from './routes.js';
import { client } from './session.js';
import { storeHeader } from './store-header.js';

/** The range of a `#p=start-end` hash, when it is one. */
function hashRange(hash: string): [number, number] | undefined {
  const m = /^#p=(\d+)-(\d+)$/.exec(hash);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

export async function documentPage(ctx: PageContext, store: string, id: string): Promise<void> {
  const svc = client();
  replace(ctx.main, storeHeader(store, undefined), h('p', { class: 'muted' }, 'Loading the document…'));
  let doc: DocumentInfo;
  try {
    doc = await svc.documents.get(store, id, { include_text: true, include_passages: true, signal: ctx.signal });
  } catch (err) {
    if (!isAbort(err, ctx.signal)) replace(ctx.main, storeHeader(store, undefined), errorBox(`Document ${id} could not be read`, err));
    return;
  }
  const text = doc.text ?? '';
  const passages = passagesOf(store, id);
  const body = h('pre', { class: 'doc-text', tabindex: 0 });
  /** Marks the last search's passages and the range of `hash`, and scrolls to that range. */
  const showText = (hash: string) => {
    const linked = hashRange(hash);
    const ranges = passages.map((p) => [p.start, p.end]);
    if (linked && !ranges.some(([s, e]) => s === linked[0] && e === linked[1])) ranges.push(linked);
    const isLinked = (i: number) => linked !== undefined && ranges[i][0] === linked[0] && ranges[i][1] === linked[1];
    replace(
      body,
      marked(text, ranges, (i) => ({ id: `p=${ranges[i][0]}-${ranges[i][1]}`, ...(isLinked(i) ? { class: 'linked' } : {}) })),
    );
    if (linked) document.getElementById(`p=${linked[0]}-${linked[1]}`)?.scrollIntoView({ block: 'center' });
  };
  window.addEventListener('hashchange', () => showText(location.hash), { signal: ctx.signal });
  const status = h('div', {});
  const remove = async () => {
    if (!(await confirmDialog(`Delete document ${id}?`, 'The document and its passages are deleted for good.', 'Delete document'))) return;
    try {
      await svc.documents.delete(store, id);
      announce(`Document ${id} deleted`);
      location.assign(new URL(href({ page: 'documents', store }), document.baseURI));
    } catch (err) {
      replace(status, errorBox(`Document ${id} could not be deleted`, err));
    }
  };
  replace(
    ctx.main,
    storeHeader(store, undefined),
    h(
      'article',
      { class: 'document', 'aria-labelledby': 'doc-title' },
      h('h2', { id: 'doc-title', class: 'id' }, doc.id),
      h(
        'p',
        { class: 'muted' },
        `${plural(doc.n_tokens, 'token')} · ${plural(text.length, 'character')} · ingested `,
        h('time', { datetime: doc.ingested_at }, dateTime(doc.ingested_at)),
        ' · updated ',
        h('time', { datetime: doc.updated_at }, dateTime(doc.updated_at)),
      ),
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'ghost danger', onclick: remove }, 'Delete document')),
      status,
      h('h3', {}, 'Metadata'),
      metadataList(doc.metadata),
      h('h3', {}, `Passages (${(doc.passages ?? []).length})`),
      passageIndex(store, id, text, doc.passages ?? [], passages),
      h('h3', {}, 'Text'),
      body,
    ),
  );
  showText(ctx.hash);
}
