// The web console in a real browser: the system's chromium (Debian's package; SVC_CHROMIUM names
// another executable; nothing is downloaded) driven by puppeteer-core against a real server.
// With auth on: the page loads without a key, and the 401 offers the key form; the key entered
// (kept in sessionStorage only) lists the stores; a store is created with the form; .txt, .md and
// .pdf files and pasted JSON lines are ingested through the ingest page until its progress bar is
// full, and land with the ids and text the API then returns; a bad line shows the API's message and
// fix. A search deep link runs on load and renders exactly the API's answer to that search: the
// passages in rank order with their highlighted words, the chain (each hop's document and why) and
// the confidence with its verdict; a passage opens the document with that range marked; a store is
// deleted only after its name is typed; a filter in the URL narrows the documents; the answer,
// "copy as curl", Enter for a new search and Back behave. No page makes a request outside the server
// or breaks its Content-Security-Policy. Under --no-auth the project chosen in the connection panel is
// the one the store lands in. Every form control of every page has a label. Screenshots at 1280x800
// and at a phone's 390x844, light and dark, are written to test-output/console/ (paths printed).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import t, { type Test } from 'tap';
import { curlSnippet } from '../src/console/snippets.js';
import { REPO, startTestServer, tempDir } from './helpers/server.js';

const SHOTS = path.join(REPO, 'test-output', 'console');
const QUESTION = 'Where does the river that meets the sea at Lisbon rise?';
const FILES: Record<string, string> = {
  'lisbon.txt': 'Lisbon\nLisbon is the capital of Portugal. It lies where the Tagus river meets the Atlantic Ocean.',
  'tagus.md': 'Tagus\nThe Tagus is the longest river of the Iberian Peninsula. It rises in the Sierra de Albarracin in Spain.',
};
const PDF_LINES = ['Sierra de Albarracin', 'The Sierra de Albarracin is a mountain range in Aragon, Spain.'];
/** A document of several passages: three paragraphs of about 700 characters. */
const IBERIA = ['Iberia', 'Rivers', 'Mountains']
  .map(
    (topic, i) => `${topic}. ${`The ${topic.toLowerCase()} of the peninsula were mapped in survey ${i + 1}, volume by volume. `.repeat(9)}`,
  )
  .join('\n\n');
const JSONL = [
  { id: 'iberia', text: IBERIA },
  { id: 'porto', text: 'Porto\nPorto lies on the Douro river, in the north of Portugal.', metadata: { lang: 'en', country: 'pt' } },
  {
    id: 'douro',
    text: 'Douro\nThe Douro rises in the Picos de Urbion in Spain and meets the Atlantic at Porto.',
    metadata: { lang: 'en' },
  },
];

const NO_ID = 'Braga\nBraga is a city in the north of Portugal.';
const PORTO = JSONL.find((d) => d.id === 'porto')!;

function chromiumPath(): string | undefined {
  if (process.env.SVC_CHROMIUM) return process.env.SVC_CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not on PATH: try the next name
    }
  }
  return undefined;
}

async function pdfBytes(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([420, 200]);
  lines.forEach((line, i) => {
    page.drawText(line, { x: 24, y: 160 - 18 * i, size: 12, font });
  });
  return doc.save();
}

/** Form controls without a label (by <label for>, wrapping label or aria-label). */
function unlabelled(page: Page): Promise<string[]> {
  return page.$$eval('input, textarea, select', (els) =>
    els
      .filter(
        (el) =>
          !(el as unknown as { labels: unknown[] }).labels.length && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'),
      )
      .map((el) => el.outerHTML.slice(0, 80)),
  );
}

async function shoot(t: Test, page: Page, name: string, fullPage = false): Promise<void> {
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage });
  t.ok(fs.statSync(file).size > 5000, `screenshot ${path.relative(REPO, file)}`);
  t.comment(`screenshot: ${file}`);
}

const executablePath = chromiumPath();
if (!executablePath) {
  t.fail('no chromium on PATH', { fix: 'apt-get install -y chromium (Debian), or set SVC_CHROMIUM to a Chrome or Chromium executable' });
} else {
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser: Browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  t.teardown(() => browser.close());
  const errors: string[] = [];
  const newPage = async (width = 1280, height = 800) => {
    const page = await (await browser.createBrowserContext()).newPage();
    page.setDefaultTimeout(60_000);
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (/Content Security Policy/.test(m.text())) errors.push(m.text());
    });
    page.on('request', (r) => {
      if (!/^(http:\/\/127\.0\.0\.1:\d+\/|data:)/.test(r.url())) errors.push(`a request left the server: ${r.url()}`);
    });
    await page.setViewport({ width, height });
    return page;
  };

  t.test('with auth: key, create, ingest, deep-linked search, document, delete', async (t) => {
    const { server, api } = await startTestServer(t, { noAuth: false, threads: 1 });
    const key = server.services.keys.create('acme').key;
    const authed = api.with({ authorization: `Bearer ${key}` });
    const origin = server.url.replace(/\/v1$/, '');
    const page = await newPage();

    await page.goto(`${origin}/`, { waitUntil: 'networkidle0' });
    t.equal(new URL(page.url()).pathname, '/console/', '/ redirects to the console');
    await page.keyboard.press('Tab');
    t.equal(await page.evaluate('document.activeElement.className'), 'skip', 'the first tab stop skips to the content');
    const alert = await page.waitForSelector('.alert');
    t.match(await alert!.evaluate((e) => e.textContent), /unauthorized/, 'without a key the API answers 401, shown');
    await page.click('.alert button');
    t.equal(await page.evaluate('document.activeElement.id'), 'api-key', 'the key field takes the focus');
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.empty');
    t.same(
      await page.evaluate("[sessionStorage.getItem('svc.apiKey'), localStorage.length, document.cookie]"),
      [key, 0, ''],
      'the key is in sessionStorage only',
    );
    t.same(await unlabelled(page), [], 'stores page: every control is labelled');
    await shoot(t, page, 'stores-empty-desktop');

    for (const name of ['wiki', 'scratch']) {
      await page.type('#store-name', name);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`a[href="./stores/${name}"]`);
    }
    t.same(
      (await authed.get('/stores')).stores.map((s: { name: string }) => s.name),
      ['scratch', 'wiki'],
      'stores created through the form',
    );

    await page.click('a[href="./stores/wiki/ingest"]');
    await page.waitForSelector('#files');
    t.same(await unlabelled(page), [], 'ingest page: every control is labelled');
    const dir = tempDir(t);
    for (const [name, text] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), text);
    fs.writeFileSync(path.join(dir, 'albarracin.pdf'), await pdfBytes(PDF_LINES));
    const input = await page.$('#files');
    await input!.uploadFile(...['lisbon.txt', 'tagus.md', 'albarracin.pdf'].map((f) => path.join(dir, f)));
    t.same(
      await page.$$eval('.file-list .id', (els) => els.map((e) => e.textContent)),
      ['lisbon.txt', 'tagus.md', 'albarracin.pdf'],
      'the chosen files are listed',
    );
    await page.type('#jsonl', [...JSONL, { text: NO_ID }].map((d) => JSON.stringify(d)).join('\n'));
    await page.click('.ingest-form button[type=submit]');
    const done = await page.waitForSelector('div.ok');
    t.match(await done!.evaluate((e) => e.textContent), /7 documents written to wiki/);
    t.same(
      await page.$eval('#ingest-progress', (p) => [(p as unknown as { value: number }).value, (p as unknown as { max: number }).max]),
      [7, 7],
      'the progress bar is full',
    );
    await shoot(t, page, 'ingest-desktop');
    const listed = (await authed.get('/stores/wiki/documents')).documents.map((d: { id: string }) => d.id).sort();
    const noId = `sha256-${createHash('sha256').update(NO_ID).digest('hex').slice(0, 32)}`;
    t.same(
      listed,
      ['albarracin.pdf', 'douro', 'iberia', 'lisbon.txt', 'porto', noId, 'tagus.md'].sort(),
      'every document landed with its id (a line without one named as svc ingest names it)',
    );
    const pdfDoc = await authed.get('/stores/wiki/documents/albarracin.pdf?include_text=true');
    t.match(pdfDoc.text, /mountain range in Aragon/, "the PDF's text layer was extracted by the server");
    t.same(pdfDoc.metadata, { path: 'albarracin.pdf' });
    t.same((await authed.get('/stores/wiki/documents/porto')).metadata, PORTO.metadata, 'JSONL metadata kept');

    const bad = { id: 'blank', text: '   ' };
    const refused = await authed.raw('POST', '/stores/wiki/documents', { documents: [bad] });
    t.equal(refused.status, 400);
    await page.type('#jsonl', JSON.stringify(bad));
    await page.click('.ingest-form button[type=submit]');
    const error = await page.waitForSelector('.alert');
    const errorText = (await error!.evaluate((e) => e.textContent)) ?? '';
    t.ok(errorText.includes(refused.body.error.message), `the API's message is shown: ${errorText}`);
    t.ok(errorText.includes(`Fix: ${refused.body.error.fix}`), "and the API's fix");

    await page.goto(`${origin}/console/stores/wiki?filter=${encodeURIComponent('{"lang": "en"}')}`);
    await page.waitForSelector('tbody tr');
    t.same(
      await page.$$eval('tbody th a', (els) => els.map((e) => e.textContent)),
      ['douro', 'porto'],
      'a filter in the URL narrows the list',
    );
    await page.click('button[aria-label="Delete document porto"]');
    await (await page.waitForSelector('dialog button.danger'))!.click();
    await page.waitForFunction(`!document.querySelector('button[aria-label="Delete document porto"]')`);
    t.equal((await authed.raw('GET', '/stores/wiki/documents/porto')).status, 404, 'a document deleted from the list');
    await authed.post('/stores/wiki/documents', { documents: [PORTO] });

    const expected = await authed.post('/stores/wiki/search', { query: QUESTION, max_hops: 3, return_trace: true, answer: true });
    const link = `${origin}/console/stores/wiki/search?q=${encodeURIComponent(QUESTION)}&max_hops=3&answer=true`;
    const search = await newPage();
    await search.browserContext().overridePermissions(origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await search.goto(`${origin}/console/`);
    await search.evaluate(`sessionStorage.setItem('svc.apiKey', ${JSON.stringify(key)})`);
    await search.goto(link);
    await search.waitForSelector('.summary');
    t.equal(await search.$eval('#query', (e) => (e as unknown as { value: string }).value), QUESTION, 'the deep link fills the form');
    await search.keyboard.press('Tab');
    await search.keyboard.press('Enter');
    t.same(
      await search.evaluate('[document.activeElement.id, location.href]'),
      ['main', link],
      'the skip link focuses the content, on the page',
    );
    const ranked = await search.$$eval('.passage', (els) =>
      els.map((e) => ({
        rank: Number(e.querySelector('.rank')?.textContent?.slice(1)),
        id: e.querySelector('a.id')?.textContent,
        marks: [...e.querySelectorAll('.passage-text mark')].map((m) => m.textContent),
        hop: Number(
          e
            .closest('.hop-group')
            ?.querySelector('h3')
            ?.textContent?.match(/Hop (\d+)/)?.[1],
        ),
      })),
    );
    ranked.sort((a, b) => a.rank - b.rank);
    t.ok(expected.passages.length >= 2, `the search finds passages (${expected.passages.length})`);
    t.same(
      ranked.map((p) => p.id),
      expected.passages.map((p: { doc_id: string }) => p.doc_id),
      'the passages, in rank order',
    );
    t.same(
      ranked.map((p) => p.hop),
      expected.passages.map((p: { hop: number }) => p.hop),
      'each under the hop that found it',
    );
    t.same(
      ranked.map((p) => p.marks),
      expected.passages.map((p: { text: string; highlights: number[][] }) => p.highlights.map(([s, e]) => p.text.slice(s, e))),
      'the highlighted words',
    );
    t.ok(
      ranked.some((p) => p.marks.length > 0),
      'some words are highlighted',
    );
    const steps = await search.$$eval('.chain .step', (els) =>
      els.map((e) => [e.querySelector('.step-doc a')?.textContent, e.querySelector('.step-why')?.textContent]),
    );
    t.same(
      steps,
      expected.trace.map((s: { doc_id: string; why: string }) => [s.doc_id, s.why]),
      'the chain: each hop with its document and why',
    );
    t.ok(steps.length >= 1, `${steps.length} hops in the chain`);
    t.equal(
      Number(await search.$eval('#confidence-meter', (m) => (m as unknown as { value: number }).value).then((v) => v.toFixed(6))),
      Number(expected.confidence.toFixed(6)),
      'the confidence',
    );
    t.equal(
      await search.$eval('#verdict', (e) => e.textContent),
      expected.confidence >= 0.5 ? 'Found enough' : 'Not enough',
      'its verdict',
    );
    t.match(await search.$eval('.confidence', (e) => e.textContent), /Threshold 0\.50/, 'and the threshold');
    t.equal(await search.$eval('[data-testid=hops-used]', (e) => e.textContent), `${expected.hops_used} of at most 3`);
    const raw = JSON.parse(await search.$eval('details.raw pre', (e) => e.textContent ?? ''));
    t.same(
      { ...raw, latency_ms: 0, trace: raw.trace.map((s: object) => ({ ...s, ms: 0 })) },
      {
        ...expected,
        latency_ms: 0,
        trace: expected.trace.map((s: object) => ({ ...s, ms: 0 })),
      },
      'the raw JSON is the response',
    );
    t.same(await unlabelled(search), [], 'search page: every control is labelled');
    t.equal(
      await search.$eval('.answer', (e) => e.querySelector('.answer-text, .alert')?.textContent),
      expected.answer.text ?? expected.answer.error.message,
      'the answer',
    );
    await search.click('.tools button');
    t.equal(
      await search.evaluate('navigator.clipboard.readText()'),
      curlSnippet(`${origin}/v1`, 'wiki', { query: QUESTION, return_trace: true, max_hops: 3, answer: true }, true),
      'copy as curl',
    );
    for (const [name, width, height] of [
      ['search-desktop', 1280, 800],
      ['search-phone', 390, 844],
    ] as const) {
      await search.setViewport({ width, height });
      t.equal(await search.evaluate(`document.documentElement.scrollWidth <= ${width}`), true, `no horizontal scroll at ${width} px`);
      for (const scheme of ['light', 'dark'] as const) {
        await search.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
        await shoot(t, search, `${name}-${scheme}`, width < 720);
      }
    }
    await search.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await search.setViewport({ width: 1280, height: 800 });

    await search.click('#query', { count: 3 });
    await search.keyboard.type('Where is Porto?');
    await search.keyboard.press('Enter');
    await search.waitForFunction("new URL(location.href).searchParams.get('q') === 'Where is Porto?'");
    await search.waitForFunction("document.querySelector('.search-out').getAttribute('aria-busy') === 'false'");
    t.ok(
      (await search.$$eval('.passage a.id', (els) => els.map((e) => e.textContent))).includes('porto'),
      'Enter in the query runs a new search, a new history entry',
    );
    await search.goBack();
    await search.waitForFunction(`document.querySelector('#query').value === ${JSON.stringify(QUESTION)}`);
    await search.waitForSelector('#verdict');
    t.equal(await search.$eval('.passage a.id', (e) => e.textContent), expected.passages[0].doc_id, 'Back shows the earlier search again');
    await search.goto(link.replace('&answer=true', ''));
    await search.waitForSelector('#verdict');
    await search.evaluate("scrollTo(0, document.querySelector('.summary').offsetTop - 16)");
    await shoot(t, search, 'search-results-desktop-light');

    await search.click('.passage a.id');
    const first = expected.passages[0];
    const mark = await search.waitForSelector(`.doc-text mark[id="p=${first.start}-${first.end}"]`);
    t.equal(await mark!.evaluate((m) => m.textContent), first.text, 'the document view marks the passage at its offsets');
    const firstDoc = await authed.get(`/stores/wiki/documents/${encodeURIComponent(first.doc_id)}?include_passages=true`);
    t.same(
      await search.$$eval('.passage-index li a', (els) => els.map((e) => e.textContent)),
      firstDoc.passages.map((p: { start: number; end: number }, i: number) => `#${i + 1} · characters ${p.start}–${p.end}`),
      "the document's passages, listed by their offsets",
    );
    t.match(
      await search.$eval('.passage-index li.found', (e) => e.textContent),
      `in the last search: hop ${first.hop}, score ${first.score.toFixed(3)}`,
      'the one the search returned says so',
    );
    await shoot(t, search, 'document-desktop');
    const iberia = await authed.get('/stores/wiki/documents/iberia?include_passages=true');
    t.ok(iberia.passages.length >= 3, `${iberia.passages.length} passages in a longer document`);
    await search.goto(`${origin}/console/stores/wiki/documents/iberia`);
    const second = iberia.passages[1];
    // the document view renders from a request of its own: click once its passage list is there
    const secondLink = `.passage-index a[href$="#p=${second.start}-${second.end}"]`;
    await search.waitForSelector(secondLink);
    await search.click(secondLink);
    const linked = await search.waitForSelector('.doc-text mark.linked');
    t.equal(
      await linked!.evaluate((m) => m.id),
      `p=${second.start}-${second.end}`,
      'a passage of the list is marked in the text when chosen',
    );
    t.equal(await linked!.evaluate((m) => m.textContent), IBERIA.slice(second.start, second.end));

    await page.goto(`${origin}/console/`);
    // the store list renders from a request of its own: click once it is there
    await page.waitForSelector('button[aria-label="Delete store scratch"]');
    await page.click('button[aria-label="Delete store scratch"]');
    const confirm = await page.waitForSelector('dialog button.danger');
    t.equal(await confirm!.evaluate((b) => (b as unknown as { disabled: boolean }).disabled), true, 'delete waits for the typed name');
    await page.type('#confirm-typed', 'scratch');
    t.equal(await confirm!.evaluate((b) => (b as unknown as { disabled: boolean }).disabled), false);
    await confirm!.click();
    await page.waitForSelector('a[href="./stores/scratch"]', { hidden: true });
    t.equal((await authed.raw('GET', '/stores/scratch')).status, 404, 'the store is gone');
    t.same(errors, [], 'no script error in the pages');
  });

  t.test('under --no-auth the project is chosen in the connection panel', async (t) => {
    const { server, api } = await startTestServer(t, { noAuth: true, threads: 1 });
    const page = await newPage(390, 844);
    await page.goto(`${server.url.replace(/\/v1$/, '')}/console/`);
    await page.waitForSelector('.empty');
    await page.click('#connection-toggle');
    t.equal(await page.evaluate('document.activeElement.id'), 'api-key', 'the panel opens on its first field');
    t.same(await unlabelled(page), [], 'connection panel: every control is labelled');
    await page.type('#project', 'alpha');
    await page.keyboard.press('Enter');
    t.match(await page.$eval('#connection-toggle', (e) => e.textContent), /project alpha/);
    await page.type('#store-name', 'in-alpha');
    await page.keyboard.press('Enter');
    await page.waitForSelector('a[href="./stores/in-alpha"]');
    t.same(
      (await api.get('/stores', { 'x-svc-project': 'alpha' })).stores.map((s: { name: string }) => s.name),
      ['in-alpha'],
      'created in project alpha',
    );
    t.same((await api.get('/stores')).stores, [], 'not in the default project');
    await shoot(t, page, 'stores-phone-light');
    t.same(errors, [], 'no script error in the pages');
  });
}
