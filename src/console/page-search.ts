// The search playground of a store: query, max_hops, max_results, filter and the answer toggle. The
// request lives in the URL (q, max_hops, max_results, filter, answer), so a link to
// /console/stores/{store}/search?q=... runs that search when it opens and a result can be shared;
// each search typed here is a new history entry. The trace is always asked for (it draws the chain).
import type { SearchRequest } from '../client/index.js';
import { copyButton } from './clipboard.js';
import { announce, h, replace } from './dom.js';
import { field } from './field.js';
import { filterField, parseFilter } from './filter-field.js';
import { keepResult } from './last-search.js';
import { pushUrl } from './nav.js';
import { errorBox, isAbort } from './notice.js';
import type { PageContext } from './page-context.js';
import { href } from './routes.js';
import { resultView } from './search-result.js';
import { API_ROOT, apiKey, client, project } from './session.js';
import { clientSnippet, curlSnippet } from './snippets.js';
import { storeHeader } from './store-header.js';

const DEFAULT_HOPS = 4;
const DEFAULT_RESULTS = 10;

/** The request a URL's query string describes (q empty: none). The filter is checked when it runs. */
function fromParams(p: URLSearchParams): { query: string; hops: string; results: string; filter: string; answer: boolean } {
  return {
    query: p.get('q') ?? '',
    hops: p.get('max_hops') ?? '',
    results: p.get('max_results') ?? '',
    filter: p.get('filter') ?? '',
    answer: p.get('answer') === 'true' || p.get('answer') === '1',
  };
}

function numberField(
  id: string,
  label: string,
  value: string,
  max: number,
  fallback: number,
): { field: HTMLElement; input: HTMLInputElement } {
  const input = h('input', { id, name: id, type: 'number', min: 1, max, step: 1, inputmode: 'numeric', placeholder: String(fallback) });
  input.value = value;
  return { input, field: field(input, label, `1 to ${max}; default ${fallback}`, 'field narrow') };
}

export async function searchPage(ctx: PageContext, store: string): Promise<void> {
  const initial = fromParams(ctx.params);
  const query = h('textarea', { id: 'query', name: 'q', rows: 2, required: true, maxlength: 4096 });
  query.value = initial.query;
  const hops = numberField('max_hops', 'Max hops', initial.hops, 8, DEFAULT_HOPS);
  const results = numberField('max_results', 'Max results', initial.results, 100, DEFAULT_RESULTS);
  const filter = filterField('search-filter', initial.filter);
  const answer = h('input', { id: 'answer', name: 'answer', type: 'checkbox', checked: initial.answer });
  const out = h('div', { class: 'search-out', 'aria-live': 'polite', 'aria-busy': 'false' });
  const submit = h('button', { type: 'submit' }, 'Search');

  const request = (): SearchRequest => {
    const req: SearchRequest = { query: query.value, return_trace: true };
    if (hops.input.value) req.max_hops = Number(hops.input.value);
    if (results.input.value) req.max_results = Number(results.input.value);
    const f = parseFilter(filter.input.value);
    if (f) req.filter = f;
    if (answer.checked) req.answer = true;
    return req;
  };

  const run = async () => {
    let req: SearchRequest;
    try {
      req = request();
    } catch (err) {
      replace(out, errorBox('The filter is not valid', err));
      return;
    }
    submit.disabled = true;
    out.setAttribute('aria-busy', 'true');
    replace(out, h('p', { class: 'muted' }, 'Searching…'));
    try {
      const r = await client().search(store, req, { signal: ctx.signal });
      keepResult(store, r);
      const snippetArgs = [API_ROOT, store, req, apiKey() !== undefined, project()] as const;
      const tools = h(
        'div',
        { class: 'actions tools' },
        copyButton('Copy as curl', 'The curl command', () => curlSnippet(...snippetArgs)),
        copyButton('Copy as client code', 'The client code', () => clientSnippet(...snippetArgs)),
        copyButton('Copy raw JSON', 'The response', () => JSON.stringify(r, null, 2)),
        copyButton('Copy link', 'The link to this search', () => location.href),
      );
      replace(out, resultView(store, r, req.max_hops ?? DEFAULT_HOPS, tools));
      announce(`${r.passages.length} passages, confidence ${r.confidence.toFixed(2)}, ${r.hops_used} hops`);
    } catch (err) {
      if (!isAbort(err, ctx.signal)) replace(out, errorBox('The search failed', err));
    } finally {
      submit.disabled = false;
      out.setAttribute('aria-busy', 'false');
    }
  };

  const onSubmit = (e: Event) => {
    e.preventDefault();
    const params = {
      q: query.value,
      max_hops: hops.input.value,
      max_results: results.input.value,
      filter: filter.input.value.trim(),
      answer: answer.checked ? 'true' : undefined,
    };
    pushUrl(new URL(href({ page: 'search', store }, params), document.baseURI));
    void run();
  };

  query.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      query.form?.requestSubmit();
    }
  });

  replace(
    ctx.main,
    storeHeader(store, 'search'),
    h(
      'form',
      { class: 'search-form', onsubmit: onSubmit },
      field(query, 'Query', 'A question in plain words. Enter searches; Shift+Enter adds a line.'),
      h(
        'div',
        { class: 'row' },
        hops.field,
        results.field,
        h('div', { class: 'field check' }, answer, h('label', { for: 'answer' }, 'Answer from the passages')),
      ),
      filter.field,
      h('div', { class: 'actions' }, submit),
    ),
    out,
  );
  if (initial.query.trim()) await run();
  else query.focus();
}
