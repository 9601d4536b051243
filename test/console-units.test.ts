// The web console's pure parts, run in Node: its URLs (href and parse are inverse for any store name
// and document id the API takes; unknown paths are no page), the "copy as curl" command (run by a
// POSIX shell with curl stubbed, it sends exactly the request, with the key from $SVC_API_KEY and
// never the key itself) and client code, and the verdict on a confidence at the documented threshold.
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { CERTAIN, SUFFICIENT, verdict } from '../src/console/confidence.js';
import { href, parse, rangeHref } from '../src/console/routes.js';
import { clientSnippet, curlSnippet } from '../src/console/snippets.js';

const NAMES = ['wiki', 'a/b', '%41', 'é ü', '?x=1#y', 'dots...', "it's", 'a\\b', '🦀'];

t.test('href and parse are inverse', async (t) => {
  const rel = (h: string) => new URL(h, 'http://x/console/').pathname.slice('/console/'.length);
  t.same(parse(rel(href({ page: 'stores' }))), { page: 'stores' });
  for (const store of NAMES) {
    for (const page of ['documents', 'search', 'ingest'] as const)
      t.same(parse(rel(href({ page, store }))), { page, store }, `${page} ${store}`);
    for (const id of NAMES) t.same(parse(rel(href({ page: 'document', store, id }))), { page: 'document', store, id }, `document ${id}`);
  }
  t.equal(href({ page: 'search', store: 'wiki' }, { q: 'who?', max_hops: '2', filter: '' }), './stores/wiki/search?q=who%3F&max_hops=2');
  t.equal(rangeHref('wiki', 'a.txt', 3, 9), './stores/wiki/documents/a.txt#p=3-9');
  t.equal(parse('stores/wiki/').page, 'documents', 'a trailing slash is the same page');
  for (const p of ['nope', 'stores', 'stores//search', 'stores/w/other', 'stores/w/search/x', 'stores/w/documents', 'stores/%E0%A4%A'])
    t.equal(parse(p).page, 'missing', p);
});

t.test('copy as curl: a shell runs exactly the request', async (t) => {
  const body = { query: 'Who\'s the director of "Devotion"? $HOME `id`', max_hops: 3, return_trace: true, filter: { lang: 'en' } };
  const run = (snippet: string) =>
    execFileSync('sh', ['-c', `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${snippet}`], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, SVC_API_KEY: 'the-key' },
    })
      .split('\0')
      .slice(0, -1);
  const authed = run(curlSnippet('http://h:8080/v1', 'my store', body, true));
  t.equal(authed[3], 'http://h:8080/v1/stores/my%20store/search');
  t.ok(authed.includes('Authorization: Bearer the-key'), 'the key comes from $SVC_API_KEY');
  t.same(JSON.parse(authed[authed.indexOf('-d') + 1]), body, 'the body, quotes and $ included');
  const open = run(curlSnippet('http://h/v1', 'wiki', body, false, 'alpha'));
  t.ok(open.includes('X-Svc-Project: alpha') && !open.some((a) => a.startsWith('Authorization')), 'under --no-auth: the project');
  const code = clientSnippet('http://h/v1', 'wiki', body, true);
  t.match(code, 'apiKey: process.env.SVC_API_KEY');
  t.match(code, `svc.search("wiki", ${JSON.stringify(body, null, 2)})`);
});

t.test('the verdict on a confidence', async (t) => {
  t.equal(SUFFICIENT, 0.5);
  t.equal(CERTAIN, 0.8);
  t.same(
    [0, 0.49, 0.5, 0.79, 0.8, 1].map((c) => verdict(c, 3).enough),
    [false, false, true, true, true, true],
  );
  t.equal(verdict(0.9, 0).label, 'Nothing found');
  t.not(verdict(0.6, 2).advice, verdict(0.9, 2).advice, 'probably and very likely read differently');
});
