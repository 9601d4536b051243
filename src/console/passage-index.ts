// The passages of a document, as its page lists them: every passage the document was cut into, by
// its offsets, with the start of its text; those the tab's last search returned say at which hop
// and score. Each links to its range in the text. A long document lists its first PAGE passages and
// the rest on request.
import type { Passage, PassageSpan } from '../client/index.js';
import { h, replace } from './dom.js';
import { plural } from './format.js';
import { rangeHref } from './routes.js';

const PAGE = 200;
const PREVIEW = 90;

export function passageIndex(store: string, id: string, text: string, spans: PassageSpan[], found: Passage[]): HTMLElement {
  const item = (p: PassageSpan, i: number) => {
    const hit = found.find((f) => f.start === p.start && f.end === p.end);
    const preview = text.slice(p.start, Math.min(p.end, p.start + PREVIEW)).replace(/\s+/g, ' ');
    return h(
      'li',
      { class: hit ? 'found' : undefined },
      h('a', { href: rangeHref(store, id, p.start, p.end) }, `#${i + 1} · characters ${p.start}–${p.end}`),
      hit ? h('strong', { class: 'small' }, ` · in the last search: hop ${hit.hop}, score ${hit.score.toFixed(3)}`) : null,
      h('span', { class: 'muted small preview' }, `${preview}${p.end - p.start > PREVIEW ? '…' : ''}`),
    );
  };
  const list = h('ol', { class: 'passage-index' }, spans.slice(0, PAGE).map(item));
  const more =
    spans.length > PAGE
      ? h(
          'button',
          {
            type: 'button',
            class: 'ghost',
            onclick: () => {
              replace(list, spans.map(item));
              more?.remove();
            },
          },
          `Show all ${plural(spans.length, 'passage')}`,
        )
      : null;
  return h('div', {}, list, more);
}
