// Synthetic single-hop questions (src/train/synthetic-questions.ts): each is asked about one answer
// span of one sentence of its article, holds that span nowhere in its own text, names the article
// when the sentence opens with a pronoun, and the same articles always give the same questions.
import t from 'tap';
import { isQuestion } from '../src/engine/ranking/index.js';
import type { CorpusDoc } from '../src/train/data.js';
import { questionOf, SYNTHETIC_SUITE, syntheticQuestions } from '../src/train/synthetic-questions.js';

t.test('a year, a number or a name of two capitalised words is the answer, taken out of the question', async (t) => {
  t.same(questionOf('The bridge over the river was opened to traffic in 1932 after six years of work.', 'Harbour Bridge'), {
    text: 'In what year river was opened to traffic after six years?',
    answer: '1932',
  });
  t.same(questionOf('The new ring road carries 40 thousand vehicles on a typical working day.', 'Ring road'), {
    text: 'How many thousand new ring road carries vehicles on a typical?',
    answer: '40',
  });
  t.same(questionOf('Its first stone was laid by the bishop John Smythe on a wet afternoon.', 'Old Cathedral'), {
    text: 'What Old Cathedral first stone was laid by the bishop on a wet afternoon?',
    answer: 'John Smythe',
  });
});

t.test('a sentence opening with a pronoun is asked about the article by its title, near the answer or not', async (t) => {
  const q = questionOf('It was rebuilt in 1874 by the city council after the flood.', 'Harbour Bridge');
  t.equal(q?.text, 'In what year Harbour Bridge was rebuilt by the city council?');
});

t.test('no question from a sentence without an answer span, a short one, or one whose name the title holds', async (t) => {
  t.equal(questionOf('the river was wide and slow and very cold in the winter months', 'River'), undefined);
  t.equal(questionOf('Opened in 1932.', 'Bridge'), undefined);
  t.equal(questionOf('The cathedral of Saint Mary stands on the hill above the old town square.', 'Saint Mary'), undefined);
});

t.test('questions are spread over an article, reproducible, and each holds its answer in the article', async (t) => {
  const sentences = Array.from({ length: 40 }, (_, i) => `The mill built a new wheel in ${1800 + i} for the weavers of the lower valley.`);
  const docs: CorpusDoc[] = [
    { id: 'a', text: `${sentences.slice(0, 20).join(' ')}\n\n${sentences.slice(20).join(' ')}`, metadata: { title: 'Mill' } },
    { id: 'b', text: 'No answer here at all in this short text.', metadata: { title: 'Empty' } },
  ];
  const qs = syntheticQuestions(docs, 8, SYNTHETIC_SUITE);
  t.equal(qs.length, 8, 'eight of the forty sentences; none from the article without an answer span');
  t.same(qs, syntheticQuestions(docs, 8, SYNTHETIC_SUITE), 'the same questions again');
  const years = qs.map((q) => Number(q.answers?.[0]));
  t.same(
    years.map((y) => Math.floor((y - 1800) / 5)),
    [0, 1, 2, 3, 4, 5, 6, 7],
    'one from each eighth of the article',
  );
  for (const q of qs) {
    t.ok(isQuestion(q.text), q.text);
    t.notOk(q.text.includes(q.answers?.[0] ?? ''), 'the answer is not in the question');
    t.ok(docs[0].text.includes(q.answers?.[0] ?? '-'), 'the answer is in the article');
    t.same([q.gold, q.suite, q.type], [['a'], SYNTHETIC_SUITE, 'single-hop']);
  }
});
