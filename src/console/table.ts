// A table of rows the page fills in `body`: a caption for screen readers, column heads (a class
// per column: `num` aligns numbers right), a last column of row actions, and a wrapper that
// scrolls sideways on a narrow screen instead of the page.
import { h } from './dom.js';

export function dataTable(caption: string, columns: Array<[string, string?]>, body: HTMLTableSectionElement): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map(([label, cls]) => h('th', { scope: 'col', class: cls }, label)),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      body,
    ),
  );
}
