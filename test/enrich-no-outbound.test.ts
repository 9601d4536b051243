// No outbound call unless a request needs enrichment and the variables are set. `svc serve` runs as
// a child with test/helpers/no-outbound.mjs preloaded (it reports and fails every connection,
// UDP send and host-name lookup). On a local model with a native reader and no SVC_ENRICH_*: ingest
// (text and a PDF with a text layer) and search with answer=true make none. With SVC_ENRICH_MODEL
// set: ingest and plain searches still make none; the first answer=true search makes exactly the
// one the sentinel catches, and still returns the search results with answer.error.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import t from 'tap';
import { makeReaderModel } from './helpers/reader-model.js';
import { Api, REPO, tempDir } from './helpers/server.js';

const SENTINEL = path.join(REPO, 'test', 'helpers', 'no-outbound.mjs');
/** Lets the child's stderr, written before its reply, reach `state.err`: a few turns, or until `until` holds (at most 10 s). */
async function drain(until?: () => boolean): Promise<void> {
  for (let i = 0; i < (until ? 200 : 5) && !until?.(); i++) await new Promise((r) => setTimeout(r, 50));
}
const root = tempDir(t);
const model = path.join(root, 'model');
makeReaderModel(model);

const pdfDoc = await PDFDocument.create();
const font = await pdfDoc.embedFont(StandardFonts.Helvetica);
pdfDoc.addPage([400, 200]).drawText('The harbour master of Skellig was Tomas Morrow.', { x: 20, y: 150, size: 12, font });
const pdf = Buffer.from(await pdfDoc.save()).toString('base64');

async function serve(t: { teardown(fn: () => void): void }, name: string, env: Record<string, string>) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_') && !k.startsWith('OPENAI_')));
  const child = spawn(
    process.execPath,
    ['--import', SENTINEL, '--import', 'tsx', path.join(REPO, 'src', 'cli', 'main.ts'), 'serve', '--no-auth', '--port', '0'],
    {
      cwd: REPO,
      env: { ...clean, SVC_MODEL_URI: model, SVC_DATA_DIR: path.join(root, name), SVC_LOG: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  t.teardown(() => void child.kill('SIGKILL'));
  const state = { err: '' };
  child.stderr!.on('data', (d) => (state.err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let out = '';
  const api = await new Promise<Api>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /API at (http:\/\/\S+\/v1)/.exec(out);
      if (m) resolve(new Api(m[1]));
    });
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${state.err}`)));
  });
  await api.post('/stores', { name: 'kb' });
  await api.post('/stores/kb/documents', {
    documents: [
      { id: 'film', text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent film directed by Guido Brignone.' },
      { id: 'harbour.pdf', content: { media_type: 'application/pdf', data: pdf } },
    ],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    return exited;
  };
  return { api, state, stop };
}

t.test('local model, no enrichment variables: ingest, PDF text and native answers make no outbound call', async (t) => {
  const { api, state, stop } = await serve(t, 'plain', {});
  const r = await api.post('/stores/kb/search', { query: 'Who directed Devotion?', answer: true });
  t.match(r.answer, { text: 'Guido Brignone', citations: ['film'], source: 'native' });
  const h = await api.post('/stores/kb/search', { query: 'Who was the harbour master of Skellig?', answer: true });
  t.equal(h.passages[0].doc_id, 'harbour.pdf');
  t.equal(await stop(), 0, 'clean shutdown');
  t.notMatch(state.err, /OUTBOUND/, 'no outbound call');
});

t.test('with SVC_ENRICH_MODEL: only a search asking for an answer calls out', async (t) => {
  const { api, state, stop } = await serve(t, 'enrich', {
    SVC_ENRICH_MODEL: 'answer-model',
    SVC_ENRICH_URL: 'http://203.0.113.20:8000/v1',
    SVC_ENRICH_TIMEOUT: '5',
  });
  const plain = await api.post('/stores/kb/search', { query: 'Who directed Devotion?' });
  t.notOk('answer' in plain);
  await drain();
  t.notMatch(state.err, /OUTBOUND/, 'ingest and a plain search made no outbound call');
  const r = await api.post('/stores/kb/search', { query: 'Who directed Devotion?', answer: true });
  t.ok(r.passages.length > 0, 'the search results are there');
  t.match(r.answer, { text: null, source: 'answer-model', error: { type: 'enrichment_failed', fix: /SVC_ENRICH_URL/ } });
  await drain(() => /OUTBOUND/.test(state.err));
  t.match(state.err, /OUTBOUND tcp connect .*203\.0\.113\.20/, 'the answer call went to SVC_ENRICH_URL, and only then');
  t.equal(await stop(), 0);
  t.same(
    state.err.split('\n').filter((l) => l.startsWith('OUTBOUND') && !l.includes('203.0.113.20')),
    [],
    'nothing but the enrichment endpoint',
  );
});
