// GET /v1/stores/{store}/documents/{id}?include_passages=true: the passages the document was cut
// into, as offsets. They are the passages searches return (every passage of a search result is one
// of them, offsets and all); in text order, each a trimmed substring of at most 1200 characters, and
// together they hold every non-space character; a document of several regions (over 256 K
// characters) gets exactly the engine's passages of the whole text. Without the parameter there are
// none; a value that is not a boolean is 400 invalid_request.
import t from 'tap';
import { splitPassages } from '../src/engine/text/passages.js';
import { rejectsApi } from './helpers/rejects-api.js';
import { startTestServer } from './helpers/server.js';

const { api } = await startTestServer(t, { threads: 1 });
await api.post('/stores', { name: 'p' });
const SENTENCES = [
  'The Tagus is the longest river of the Iberian Peninsula.',
  'It rises in the Sierra de Albarracin in Spain and flows west.',
  'At Lisbon it meets the Atlantic Ocean in a wide estuary.',
  'Mr. Smith sailed up the estuary in 1887 with two boats.',
];
const paragraph = (i: number) => `${SENTENCES.map((s) => `${s} (${i})`).join(' ')}`;
const long = `Tagus\n\n${Array.from({ length: 60 }, (_, i) => Array.from({ length: 6 }, (_, j) => paragraph(i * 6 + j)).join(' ')).join('\n\n')}`;
const huge = Array.from({ length: 2400 }, (_, i) => paragraph(i)).join('\n\n');
await api.post('/stores/p/documents', {
  documents: [
    { id: 'long', text: long },
    { id: 'huge', text: huge },
    { id: 'short', text: 'Lisbon\nLisbon is the capital of Portugal.' },
  ],
});

t.test('passages: ordered, trimmed, bounded, covering the text', async (t) => {
  const doc = await api.get('/stores/p/documents/long?include_passages=true&include_text=true');
  const { passages, text } = doc as { passages: Array<{ start: number; end: number }>; text: string };
  t.ok(passages.length > 10, `${passages.length} passages`);
  for (const [i, p] of passages.entries()) {
    const s = text.slice(p.start, p.end);
    t.ok(p.end - p.start <= 1200 && s === s.trim() && s.length > 0, `passage ${i} [${p.start}, ${p.end})`);
    if (i > 0) t.ok(p.start > passages[i - 1].start, 'in text order');
  }
  const uncovered = [...text].filter((ch, i) => /\S/.test(ch) && !passages.some((p) => p.start <= i && i < p.end));
  t.same(uncovered, [], 'every non-space character is in a passage');
  const short = await api.get('/stores/p/documents/short?include_passages=true');
  t.same(short.passages, [{ start: 0, end: 'Lisbon\nLisbon is the capital of Portugal.'.length }]);
  t.notOk('text' in short, 'passages without the text');
});

t.test('they are the passages a search returns', async (t) => {
  const doc = await api.get('/stores/p/documents/long?include_passages=true');
  const listed = new Set(doc.passages.map((p: { start: number; end: number }) => `${p.start}-${p.end}`));
  const r = await api.post('/stores/p/search', { query: 'Who sailed up the estuary of the Tagus in 1887?', max_results: 20 });
  const fromLong = r.passages.filter((p: { doc_id: string }) => p.doc_id === 'long');
  t.ok(fromLong.length > 0, `${fromLong.length} passages of the document in the result`);
  for (const p of fromLong) t.ok(listed.has(`${p.start}-${p.end}`), `search passage [${p.start}, ${p.end}) is listed`);
});

t.test('a document of several regions: the passages of the whole text', async (t) => {
  t.ok(huge.length > 600_000, `${huge.length} characters`);
  const doc = await api.get('/stores/p/documents/huge?include_passages=true');
  t.same(
    doc.passages,
    splitPassages(huge).map(([start, end]) => ({ start, end })),
  );
});

t.test('without the parameter, none; a bad value is 400', async (t) => {
  t.notOk('passages' in (await api.get('/stores/p/documents/long')));
  t.notOk('passages' in (await api.get('/stores/p/documents/long?include_passages=false')));
  await rejectsApi(t, api.get('/stores/p/documents/long?include_passages=yes'), { status: 400, type: 'invalid_request' });
});
