// Ingest into a store: files dropped on the page or chosen (.txt, .md, .pdf, images, .jsonl) and
// JSON lines pasted, streamed through the client's ingestStream in batches small enough that the
// progress bar moves (about 50 steps), two in flight. Stop lets the batches in flight finish; an
// error shows the API's message and fix and how many documents were written before it. Each batch
// is applied whole or not at all, under its own Idempotency-Key.
import { type IngestProgress, MAX_BATCH_DOCS } from '../client/index.js';
import { announce, h, replace } from './dom.js';
import { field } from './field.js';
import { bytes, duration, plural } from './format.js';
import { ACCEPT, openSource, unsupported } from './ingest-source.js';
import { errorBox } from './notice.js';
import type { PageContext } from './page-context.js';
import { href } from './routes.js';
import { client } from './session.js';
import { storeHeader } from './store-header.js';

const STEPS = 50;

export function ingestPage(ctx: PageContext, store: string): void {
  const files: File[] = [];
  const input = h('input', {
    id: 'files',
    type: 'file',
    multiple: true,
    accept: ACCEPT,
    class: 'visually-hidden',
    'aria-describedby': 'files-help',
  });
  const list = h('ul', { class: 'file-list', 'aria-label': 'Files to ingest' });
  const pasted = h('textarea', {
    id: 'jsonl',
    name: 'jsonl',
    rows: 6,
    spellcheck: 'false',
    placeholder: '{"id": "doc-1", "text": "…", "metadata": {"lang": "en"}}',
  });
  const start = h('button', { type: 'submit' }, 'Ingest');
  const stop = h('button', { type: 'button', class: 'ghost', hidden: true }, 'Stop');
  const bar = h('progress', { id: 'ingest-progress', max: 1, value: 0 });
  const progressText = h('p', { id: 'ingest-progress-text', class: 'small', 'aria-live': 'polite' });
  const progress = h('div', { class: 'progress', hidden: true }, h('label', { for: 'ingest-progress' }, 'Progress'), bar, progressText);
  const status = h('div', {});

  const showFiles = () => {
    replace(
      list,
      files.map((f, i) =>
        h(
          'li',
          {},
          h('span', { class: 'id' }, f.name),
          h('span', { class: 'muted small' }, bytes(f.size)),
          h(
            'button',
            {
              type: 'button',
              class: 'ghost small',
              'aria-label': `Remove ${f.name}`,
              onclick: () => {
                files.splice(i, 1);
                showFiles();
              },
            },
            'Remove',
          ),
        ),
      ),
    );
  };
  const add = (chosen: File[]) => {
    const bad = unsupported(chosen);
    replace(
      status,
      bad.length
        ? h(
            'div',
            { class: 'alert', role: 'alert' },
            h('p', {}, `Not added: ${bad.join(', ')}.`),
            h('p', { class: 'fix' }, h('strong', {}, 'Fix: '), 'Give .txt, .md, .pdf, .png, .jpg or .jsonl files.'),
          )
        : null,
    );
    for (const f of chosen) if (!bad.includes(f.name)) files.push(f);
    showFiles();
    announce(`${plural(files.length, 'file')} to ingest`);
  };
  input.addEventListener('change', () => {
    add([...(input.files ?? [])]);
    input.value = '';
  });

  const zone = h(
    'label',
    { for: 'files', class: 'dropzone' },
    h('strong', {}, 'Drop files here'),
    ' or press to choose them',
    h(
      'span',
      { id: 'files-help', class: 'help' },
      '.txt and .md as text; .pdf (its text layer), .png and .jpg (transcribed by the vision model, when the server has one); .jsonl, one document per line.',
    ),
    input,
  );
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    add([...(e.dataTransfer?.files ?? [])]);
  });

  const run = async (e: Event) => {
    e.preventDefault();
    if (files.length === 0 && !pasted.value.trim()) {
      replace(status, h('p', { class: 'alert', role: 'alert' }, 'Add files or paste JSON lines first.'));
      return;
    }
    const stopper = new AbortController();
    const onStop = () => stopper.abort();
    stop.addEventListener('click', onStop);
    ctx.signal.addEventListener('abort', onStop);
    start.disabled = true;
    stop.hidden = false;
    progress.hidden = false;
    replace(status);
    let acked = 0;
    try {
      const source = await openSource([...files], pasted.value);
      bar.max = Math.max(1, source.total);
      bar.value = 0;
      const report = (p: IngestProgress) => {
        acked = p.documents;
        bar.value = p.documents;
        progressText.textContent = `${p.documents} of ${plural(source.total, 'document')} written · ${plural(p.batches, 'batch', 'batches')}`;
      };
      progressText.textContent = `0 of ${plural(source.total, 'document')} written`;
      const totals = await client().documents.ingestStream(store, source.documents, {
        batchSize: Math.min(MAX_BATCH_DOCS, Math.max(1, Math.ceil(source.total / STEPS))),
        concurrency: 2,
        stop: stopper.signal,
        onProgress: report,
      });
      const skipped = source.skipped.length ? ` Skipped ${plural(source.skipped.length, 'empty file')}: ${source.skipped.join(', ')}.` : '';
      replace(
        status,
        h(
          'div',
          { class: 'ok', role: 'status' },
          h(
            'p',
            {},
            `${totals.stopped ? 'Stopped: ' : ''}${plural(totals.documents, 'document')} written to ${store} in ${duration(totals.elapsedMs)}.${skipped}`,
          ),
          h(
            'p',
            {},
            h('a', { href: href({ page: 'documents', store }) }, 'See the documents'),
            ' · ',
            h('a', { href: href({ page: 'search', store }) }, 'Search them'),
          ),
        ),
      );
      if (!totals.stopped) {
        files.splice(0);
        pasted.value = '';
        showFiles();
      }
    } catch (err) {
      replace(
        status,
        errorBox('The ingest failed', err),
        acked
          ? h(
              'p',
              {},
              `${plural(acked, 'document')} were written before the error; ingesting the same files again replaces them (an ingest is an upsert).`,
            )
          : null,
      );
    } finally {
      start.disabled = false;
      stop.hidden = true;
      stop.removeEventListener('click', onStop);
      ctx.signal.removeEventListener('abort', onStop);
    }
  };

  replace(
    ctx.main,
    storeHeader(store, 'ingest'),
    h(
      'form',
      { class: 'ingest-form', onsubmit: run },
      zone,
      list,
      field(pasted, 'Or paste JSON lines', 'One {"id", "text", "metadata"} object per line; an existing id is replaced (upsert).'),
      h('div', { class: 'actions' }, start, stop),
      progress,
    ),
    status,
  );
}
