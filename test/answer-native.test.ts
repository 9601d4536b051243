// answer=true without an answer model: the native reader of the model folder answers with a span of
// the passages the search returned, citing the passage's document (a composed question's: of the
// document its chain went to, and the passage that named it; a question comparing two documents:
// the winning title, or yes or no, citing those compared); the answer follows the OpenAPI
// document; answer=false (the default) adds nothing; a model folder without reader.json still
// searches and reports answer_unavailable inside the 200. Also the SQuAD scoring and the reader's
// refusal of a reader.json trained with other features.
import path from 'node:path';
import t from 'tap';
import { NativeReader, type ReaderFile } from '../src/answer/reader.js';
import { normalizeAnswer, scoreAnswer, sentences, words } from '../src/answer/text-units.js';
import { makeReaderModel, testReaderFile } from './helpers/reader-model.js';
import { SchemaChecker } from './helpers/schema.js';
import { startTestServer, tempDir } from './helpers/server.js';

const DOCS = [
  {
    id: 'film',
    text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent drama film directed by Guido Brignone. It was shot in Turin over 40 days.',
  },
  { id: 'director', text: 'Guido Brignone\nGuido Brignone was born in Milan in 1886. He was the father of the actress Lilla Brignone.' },
  { id: 'river', text: 'The Danube\nThe Danube is the second-longest river in Europe, flowing through Vienna and Budapest.' },
];

const model = path.join(tempDir(t), 'model');
makeReaderModel(model);
const { api } = await startTestServer(t, { env: { SVC_MODEL_URI: model } });
const schemas = new SchemaChecker(await api.get('/openapi.json'));
await api.post('/stores', { name: 'kb' });
await api.post('/stores/kb/documents', { documents: DOCS });

t.test('answer=true: a span of a returned passage, citing its document', async (t) => {
  const r = await api.post('/stores/kb/search', { query: 'Who directed the film Devotion?', answer: true });
  t.same(schemas.errors('SearchResult', r), []);
  t.equal(r.answer.source, 'native');
  t.equal(r.answer.text, 'Guido Brignone');
  // the chain went on to the director's document, whose title the answer is: the film's states it
  t.same(r.answer.citations, ['film', 'director']);
  const cited = r.passages.filter((p: any) => p.doc_id === r.answer.citations[0]);
  t.ok(
    cited.some((p: any) => p.text.includes(r.answer.text)),
    'the answer is in a passage of the cited document',
  );
  t.notOk('error' in r.answer);

  const when = await api.post('/stores/kb/search', { query: 'In what year was Guido Brignone born?', answer: true });
  t.equal(when.answer.text, '1886');
  t.same(when.answer.citations, ['director']);
});

t.test('a composed question is answered in the document its chain went to, citing it and the passage that named it', async (t) => {
  const r = await api.post('/stores/kb/search', {
    query: 'In what year was the director of the film Devotion born?',
    answer: true,
    return_trace: true,
  });
  t.same(schemas.errors('SearchResult', r), []);
  t.same(
    r.passages.slice(0, 2).map((p: any) => [p.doc_id, p.hop]),
    [
      ['film', 1],
      ['director', 2],
    ],
    'the chain: the film, then its director',
  );
  t.equal(r.answer.text, '1886', 'not the film’s year, which the passage the question names holds');
  t.same(r.answer.citations, ['director', 'film']);

  // a named document of a title line alone holds no answer: the passages as listed are read
  await api.post('/stores', { name: 'bare' });
  await api.post('/stores/bare/documents', { documents: [DOCS[0], { id: 'director', text: 'Guido Brignone\n' }] });
  const bare = await api.post('/stores/bare/search', { query: 'In what year was the director of the film Devotion born?', answer: true });
  t.same(
    bare.passages.map((p: any) => [p.doc_id, p.hop]),
    [
      ['film', 1],
      ['director', 2],
    ],
    'the chain went to the bare document',
  );
  t.ok(bare.answer.text, `an answer all the same (${bare.answer.text})`);
  t.same(bare.answer.citations, ['film']);
});

t.test(
  "a question that compares two documents or asks of a person: the title that wins, yes or no, or what the person's passage states",
  async (t) => {
    await api.post('/stores', { name: 'people' });
    await api.post('/stores/people/documents', {
      documents: [
        { id: 'borzage', text: 'Frank Borzage\nFrank Borzage (April 23, 1894 – June 19, 1962) was an American film director.' },
        { id: 'belson', text: 'Jerry Belson\nJerry Belson (July 8, 1938 – October 10, 2006) was an American screenwriter.' },
        { id: 'catrani', text: 'Catrano Catrani\nCatrano Catrani (1910 – 1974) was an Italian-born Argentine film director.' },
        ...DOCS,
      ],
    });
    const older = await api.post('/stores/people/search', { query: 'Who is older, Jerry Belson or Frank Borzage?', answer: true });
    t.same(schemas.errors('SearchResult', older), []);
    t.same(older.answer, { text: 'Frank Borzage', citations: ['borzage', 'belson'], source: 'native' });
    const same = await api.post('/stores/people/search', {
      query: 'Were Frank Borzage and Jerry Belson of the same nationality?',
      answer: true,
    });
    t.same(same.answer, { text: 'yes', citations: ['borzage', 'belson'], source: 'native' });
    const other = await api.post('/stores/people/search', {
      query: 'Were Frank Borzage and Catrano Catrani of the same nationality?',
      answer: true,
    });
    t.same(other.answer.text, 'no');
    const child = await api.post('/stores/people/search', { query: 'Who is the child of the director of film Devotion?', answer: true });
    t.same(
      child.answer,
      { text: 'Lilla Brignone', citations: ['director', 'film'], source: 'native' },
      "a relative, from the director's passage",
    );
    const born = await api.post('/stores/people/search', { query: 'Where was the director of film Devotion born?', answer: true });
    t.same(born.answer.text, 'Milan');
    const when = await api.post('/stores/people/search', { query: 'In what year was the director of film Devotion born?', answer: true });
    t.same(when.answer.text, '1886', 'a date after "born", without a bracket of dates');
    const both = await api.post('/stores/people/search', {
      query: 'Were Frank Borzage and Catrano Catrani both film directors?',
      answer: true,
    });
    t.same(both.answer, { text: 'yes', citations: ['borzage', 'catrani'], source: 'native' }, 'both of a kind');
    const notBoth = await api.post('/stores/people/search', {
      query: 'Are both Frank Borzage and Catrano Catrani American?',
      answer: true,
    });
    t.same(notBoth.answer.text, 'no');
    const notListed = await api.post('/stores/people/search', { query: 'Who is older, Jerry Belson or Ann Lee?', answer: true });
    t.not(notListed.answer.text, 'Jerry Belson', 'an option not found: the reader answers, not the comparison');
  },
);

t.test('answer is absent unless asked; it is validated as a boolean', async (t) => {
  const r = await api.post('/stores/kb/search', { query: 'Who directed Devotion?' });
  t.notOk('answer' in r);
  t.notOk('answer' in (await api.post('/stores/kb/search', { query: 'Who directed Devotion?', answer: false })));
  const err = await api.post('/stores/kb/search', { query: 'x', answer: 'yes' }).catch((e) => e);
  t.match(err, { status: 400, type: 'invalid_request' });
  t.match(err.body.error.fix, /answer/);
});

t.test('no passages: an empty answer citing nothing', async (t) => {
  await api.post('/stores', { name: 'empty' });
  const r = await api.post('/stores/empty/search', { query: 'Who directed Devotion?', answer: true });
  t.same(r.answer, { text: '', citations: [], source: 'native' });
});

t.test('a model without reader.json: search works, the answer reports answer_unavailable', async (t) => {
  const noReader = path.join(tempDir(t), 'no-reader');
  makeReaderModel(noReader, null);
  const { api: plain } = await startTestServer(t, { env: { SVC_MODEL_URI: noReader } });
  await plain.post('/stores', { name: 'kb' });
  await plain.post('/stores/kb/documents', { documents: DOCS });
  const r = await plain.post('/stores/kb/search', { query: 'Who directed Devotion?', answer: true });
  t.ok(r.passages.length > 0, 'the search results are there');
  t.same(schemas.errors('SearchResult', r), []);
  t.match(r.answer, {
    text: null,
    citations: [],
    source: 'native',
    error: { type: 'answer_unavailable', message: /reader\.json/, fix: /SVC_ENRICH_MODEL/ },
  });
});

t.test('SQuAD scoring: normalisation, exact match and F1', async (t) => {
  t.equal(normalizeAnswer('The  Great, Sichuan earthquake!'), 'great sichuan earthquake');
  t.same(scoreAnswer('the Great Sichuan earthquake', ['Great Sichuan Earthquake']), { em: 1, f1: 1 });
  t.same(scoreAnswer('$12', ['nearly $12', '12']), { em: 1, f1: 1 });
  const { em, f1 } = scoreAnswer('October 1973 crisis', ['October 1973']);
  t.equal(em, 0);
  t.equal(Math.round(f1 * 100), 80);
  t.same(scoreAnswer('', ['x']), { em: 0, f1: 0 });
});

t.test('words and sentences keep offsets; numbers with inner punctuation are one word', async (t) => {
  const text = 'It killed 69,197 people. Dr. Smith left at 02:28 in the U.S. Army.\nNext line';
  const w = words(text);
  t.ok(w.lower.includes('69,197') && w.lower.includes('02:28'));
  w.start.forEach((s, i) => {
    t.equal(text.slice(s, w.end[i]).toLowerCase(), w.lower[i]);
  });
  t.same(
    sentences(w).map(([a, b]) => text.slice(w.start[a], w.end[b - 1])),
    ['It killed 69,197 people', 'Dr. Smith left at 02:28 in the U.S. Army', 'Next line'],
  );
});

t.test('a reader.json for other features is refused', async (t) => {
  const file = JSON.parse(Buffer.from(testReaderFile()).toString('utf8')) as ReaderFile;
  t.throws(() => new NativeReader({ ...file, span: { ...file.span, names: file.span.names.slice(1) } }), /other features/);
  t.throws(() => new NativeReader({ ...file, format: 'svc-reader/0' as never }), /format/);
});
