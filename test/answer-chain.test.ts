// Which passages the native reader reads (src/answer/reader-chain.ts): when the best passage found
// from the question alone names, by title, documents the search reached at a later hop, only those
// documents' opening passages; otherwise the passages as listed. Titles match whole words, case and
// punctuation aside, as the engine takes them (metadata.title, a short first line, or an untitled
// text's subject); a passage from a document's middle, one without a title or the first passage's
// own document is never taken for a named document, nor is one the question names itself.
import t from 'tap';
import { passagesToRead } from '../src/answer/reader-chain.js';

const Q = 'Who is the child of the director of Devotion?';
const film = {
  doc_id: 'film',
  start: 0,
  hop: 1,
  text: 'Devotion (1929 film)\nDevotion is a 1929 Italian film directed by Guido Brignone.',
};
const director = {
  doc_id: 'director',
  start: 0,
  hop: 2,
  text: 'Guido Brignone\nGuido Brignone was the father of the actress Lilla Brignone.',
};
const other = { doc_id: 'other', start: 0, hop: 2, text: 'Turin\nTurin is a city in northern Italy.' };

t.test('a chain the first passage names: its documents are read, and the first passage is the one that named them', async (t) => {
  const got = passagesToRead(Q, [film, other, director]);
  t.same(
    got.read.map((p) => p.doc_id),
    ['director'],
  );
  t.equal(got.from?.doc_id, 'film');
  const both = passagesToRead(Q, [film, director, { ...other, text: 'Italian\nThe Italian language.' }]);
  t.same(
    both.read.map((p) => p.doc_id),
    ['director', 'other'],
    'every named document, in the order listed',
  );
});

t.test('no chain followed: the passages as listed', async (t) => {
  const cases = {
    'no hop known (a caller without the search result)': [
      { doc_id: 'film', text: film.text },
      { doc_id: 'director', text: director.text },
    ],
    'one hop': [film, { ...director, hop: 1 }],
    'the later passage is not named': [film, other],
    'the named passage is not its document opening': [film, { ...director, start: 412 }],
    'the named passage is of the first passage’s document': [film, { ...director, doc_id: 'film' }],
    'no title: a first line too long, and no subject its first sentence names': [
      { ...film, text: `${film.text} ${'and more words '.repeat(20)}` },
      { ...director, text: `Guido Brignone ${'x'.repeat(200)}\nGuido Brignone was a director.` },
    ],
    'a title that is only part of a word': [film, { ...director, text: 'Brig\nBrig is a town in Switzerland.' }],
    'no passages': [],
  };
  for (const [what, passages] of Object.entries(cases)) {
    const got = passagesToRead(Q, passages);
    t.same(got.read, passages, what);
    t.equal(got.from, undefined, `${what}: nothing named`);
  }
});

t.test('a document the question names itself is no bridge', async (t) => {
  const passages = [film, director];
  const got = passagesToRead('In what year was Guido Brignone born?', passages);
  t.same(got.read, passages);
  t.equal(got.from, undefined);
});

t.test('a title as the engine takes it: metadata.title, or the subject an untitled text opens with', async (t) => {
  const untitled = { ...director, text: 'Guido Brignone (6 December 1886 – 6 March 1959) was an Italian film director.' };
  t.same(
    passagesToRead(Q, [film, other, untitled]).read.map((p) => p.doc_id),
    ['director'],
    'untitled: its first sentence names its subject',
  );
  const given = { ...director, text: 'Born in Milan, he directed films.', metadata: { title: 'Guido Brignone' } };
  t.same(
    passagesToRead(Q, [film, given]).read.map((p) => p.doc_id),
    ['director'],
    'metadata.title',
  );
});

t.test('titles match case and punctuation aside', async (t) => {
  const got = passagesToRead(Q, [
    { ...film, text: 'Devotion\nDirected by GUIDO BRIGNONE, it was shot in Turin.' },
    { ...director, text: 'Guido Brignone\nAn Italian film director.' },
  ]);
  t.same(
    got.read.map((p) => p.doc_id),
    ['director'],
  );
});
