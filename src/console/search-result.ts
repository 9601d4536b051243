// A search result as the playground shows it: the verdict of the confidence (found enough or not,
// against the documented threshold), hops used, latency and engine; the chain of hops with each
// step's document, `why` and what it searched with; the answer when asked; the passages grouped by
// the hop that found them, each with its rank, document, score, offsets and highlighted words; the
// copy tools and the raw response right under the verdict. Everything from the server is rendered
// as text.
import type { Answer, Passage, SearchResult, TraceStep } from '../client/index.js';
import { CERTAIN, SUFFICIENT, verdict } from './confidence.js';
import { h } from './dom.js';
import { ms, plural } from './format.js';
import { marked } from './highlight.js';
import { metadataList } from './metadata.js';
import { href, rangeHref } from './routes.js';

function summary(r: SearchResult, maxHops: number): HTMLElement {
  const v = verdict(r.confidence, r.passages.length);
  return h(
    'section',
    { class: `summary ${v.enough ? 'enough' : 'short'}`, 'aria-labelledby': 'verdict' },
    h('h2', { id: 'verdict' }, v.label),
    h(
      'div',
      { class: 'confidence' },
      h('label', { for: 'confidence-meter' }, 'Confidence ', h('strong', {}, r.confidence.toFixed(2))),
      h(
        'meter',
        { id: 'confidence-meter', min: 0, max: 1, low: SUFFICIENT, high: CERTAIN, optimum: 1, value: r.confidence },
        r.confidence.toFixed(2),
      ),
      h(
        'p',
        { class: 'small' },
        `Threshold ${SUFFICIENT.toFixed(2)}: at or above it the evidence is probably sufficient, at ${CERTAIN.toFixed(2)} very likely. `,
        v.advice,
      ),
    ),
    h(
      'dl',
      { class: 'stats' },
      h('div', {}, h('dt', {}, 'Hops used'), h('dd', { 'data-testid': 'hops-used' }, `${r.hops_used} of at most ${maxHops}`)),
      h('div', {}, h('dt', {}, 'Latency'), h('dd', {}, ms(r.latency_ms))),
      h('div', {}, h('dt', {}, 'Passages'), h('dd', {}, String(r.passages.length))),
      h('div', {}, h('dt', {}, 'Engine'), h('dd', {}, r.engine)),
    ),
  );
}

function chain(store: string, trace: TraceStep[]): HTMLElement {
  return h(
    'section',
    { class: 'chain-wrap', 'aria-labelledby': 'chain-title' },
    h('h2', { id: 'chain-title' }, 'How the search went'),
    trace.length === 0
      ? h('p', { class: 'muted' }, 'No hop read a passage.')
      : h(
          'ol',
          { class: 'chain' },
          trace.map((s) =>
            h(
              'li',
              { class: 'step' },
              h('p', { class: 'step-hop' }, `Hop ${s.hop}`),
              h('p', { class: 'step-doc' }, 'read ', h('a', { href: href({ page: 'document', store, id: s.doc_id }) }, s.doc_id)),
              h('p', { class: 'step-why' }, s.why),
              h('p', { class: 'step-query small' }, h('span', { class: 'muted' }, 'searched with: '), s.query),
              h('p', { class: 'muted small' }, `${plural(s.candidates, 'candidate')} · ${ms(s.ms)}`),
            ),
          ),
        ),
  );
}

function answerBox(store: string, a: Answer): HTMLElement {
  return h(
    'section',
    { class: 'answer', 'aria-labelledby': 'answer-title' },
    h('h2', { id: 'answer-title' }, 'Answer'),
    a.error
      ? h('div', { class: 'alert' }, h('p', {}, a.error.message), h('p', { class: 'fix' }, h('strong', {}, 'Fix: '), a.error.fix))
      : h('p', { class: 'answer-text' }, a.text || 'No answer in the passages.'),
    a.citations.length
      ? h(
          'p',
          { class: 'small' },
          'Cites ',
          a.citations.map((id, i) => [i ? ', ' : '', h('a', { href: href({ page: 'document', store, id }) }, id)]),
        )
      : null,
    h('p', { class: 'muted small' }, `Source: ${a.source}`),
  );
}

function passageCard(store: string, p: Passage, rank: number): HTMLElement {
  return h(
    'li',
    { class: 'passage' },
    h(
      'article',
      { 'aria-label': `Passage ${rank} from ${p.doc_id}` },
      h(
        'header',
        {},
        h('span', { class: 'rank' }, `#${rank}`),
        h('a', { class: 'id', href: rangeHref(store, p.doc_id, p.start, p.end) }, p.doc_id),
        h('span', { class: 'muted small' }, `score ${p.score.toFixed(3)} · hop ${p.hop} · characters ${p.start}–${p.end}`),
      ),
      Object.keys(p.metadata).length ? metadataList(p.metadata) : null,
      h('p', { class: 'passage-text' }, marked(p.text, p.highlights)),
    ),
  );
}

function passagesByHop(store: string, passages: Passage[]): HTMLElement {
  const hops = [...new Set(passages.map((p) => p.hop))].sort((a, b) => a - b);
  return h(
    'section',
    { class: 'results', 'aria-labelledby': 'passages-title' },
    h('h2', { id: 'passages-title' }, 'Passages'),
    passages.length === 0 ? h('p', { class: 'empty' }, 'No passage matches.') : null,
    hops.map((hop) =>
      h(
        'section',
        { class: 'hop-group', 'aria-labelledby': `hop-${hop}` },
        h(
          'h3',
          { id: `hop-${hop}` },
          `Hop ${hop}`,
          h('span', { class: 'muted' }, ` · ${plural(passages.filter((p) => p.hop === hop).length, 'passage')}`),
        ),
        h(
          'ol',
          { class: 'passages' },
          passages.map((p, i) => (p.hop === hop ? passageCard(store, p, i + 1) : null)),
        ),
      ),
    ),
  );
}

export function resultView(store: string, r: SearchResult, maxHops: number, tools: HTMLElement): HTMLElement {
  return h(
    'div',
    { class: 'result' },
    summary(r, maxHops),
    tools,
    h('details', { class: 'raw' }, h('summary', {}, 'Raw JSON'), h('pre', { tabindex: 0 }, JSON.stringify(r, null, 2))),
    r.trace ? chain(store, r.trace) : null,
    r.answer ? answerBox(store, r.answer) : null,
    passagesByHop(store, r.passages),
  );
}
