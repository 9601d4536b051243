// GET /v1/stores/{store}/documents/{id}?include_passages=true: the passages the document was cut
// into, as offsets. They are the passages searches return (every passage of a search result is one
// of them, offsets and all); in text order, each a trimmed substring of at most 1200 characters, and
// together they hold every non-space character; a document of several regions (over 256 K
// characters) gets exactly the engine's passages of the whole text, and so does a short document
// whose reading by sections depends on the model's stopwords or on its metadata title. Without the
// parameter there are none; a value that is not a boolean is 400 invalid_request.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { analyzeDocument } from '../src/engine/text/analyze.js';
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
// Headings that name their sections only through "The", a stopword: not read by sections, so each
// passage runs on to the end of this short text (without the stop list they would be sections).
const farm =
  'Farm Notes\n\nThe Mill\nGrain was ground here by the river every autumn for many years.\n\nThe Barn\nCattle were kept here in the cold months of every single winter.\n\nThe House\nFamily members lived here from the start until the present day.';
// Districts whose paragraphs all name Lisbon: read by sections under the text's own title
// ("Old Quarters"), under its title when metadata.title is "Lisbon".
const districts =
  'Old Quarters\n\nAlfama\nAlfama is the oldest district of Lisbon, on a hill above the river.\n\nBelem\nBelem is the district of Lisbon that holds the tower by the river.\n\nBaixa\nBaixa is the district of Lisbon rebuilt after the earthquake of 1755.';
const DISTRICTS_META = { title: 'Lisbon' };
await api.post('/stores/p/documents', {
  documents: [
    { id: 'farm', text: farm },
    { id: 'districts', text: districts, metadata: DISTRICTS_META },
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

t.test('a short document: the passages its reading by sections gave, as the model reads it', async (t) => {
  const stop = new Set(readModelFolder(defaultModelUri()).manifest.params.stop);
  const spans = (text: string, metadata?: Record<string, unknown>) =>
    analyzeDocument(text, metadata, stop).passages.map(({ start, end }) => ({ start, end }));
  t.not(JSON.stringify(spans(farm)), JSON.stringify(splitPassages(farm).map(([start, end]) => ({ start, end }))), 'the stopwords decide');
  t.not(JSON.stringify(spans(districts, DISTRICTS_META)), JSON.stringify(spans(districts)), 'the metadata title decides');
  t.same((await api.get('/stores/p/documents/farm?include_passages=true')).passages, spans(farm));
  t.same((await api.get('/stores/p/documents/districts?include_passages=true')).passages, spans(districts, DISTRICTS_META));
  const r = await api.post('/stores/p/search', { query: 'Where was grain ground by the river?', max_results: 20 });
  const listed = new Set(spans(farm).map((p) => `${p.start}-${p.end}`));
  const fromFarm = r.passages.filter((p: { doc_id: string }) => p.doc_id === 'farm');
  t.ok(fromFarm.length > 0, `${fromFarm.length} passages of the document in the result`);
  for (const p of fromFarm) t.ok(listed.has(`${p.start}-${p.end}`), `search passage [${p.start}, ${p.end}) is listed`);
});
