// A document's metadata as a list of key = value pairs (values as JSON, so a string "1" and the
// number 1 read differently). Empty metadata is a dash.
import type { Metadata } from '../client/index.js';
import { h } from './dom.js';

export function metadataList(m: Metadata): HTMLElement {
  const entries = Object.entries(m);
  if (entries.length === 0) return h('span', { class: 'muted' }, '—');
  return h(
    'dl',
    { class: 'meta' },
    entries.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, JSON.stringify(v)))),
  );
}
