// AnswerText: whether a question's answer is written in a store outside the question's own documents.
import t from 'tap';
import { AnswerText } from '../src/train/answer-presence.js';

const docs = [
  { id: 'gold', text: 'Kansas Song\n"Kansas Song" is the fight song of the University of Kansas.' },
  { id: 'other', text: 'Allen Fieldhouse is an arena in Lawrence, Kansas. It opened in 1955.' },
  { id: 'accents', text: 'Régis Laspalès is a French comedian.' },
  { id: 'last', text: 'Chiang Kai-shek died on 5 April 1975' },
];
const text = new AnswerText(docs);

t.test('an answer held only by the question’s own documents is absent', async (t) => {
  t.ok(text.absent(['Kansas Song'], ['gold']));
  t.notOk(text.absent(['Kansas Song'], []), 'present while its document is in the store');
  t.notOk(text.absent(['fight anthem', 'Lawrence, Kansas'], ['gold']), 'any one answer string found elsewhere is enough');
});

t.test('whole words, case, accents and punctuation', async (t) => {
  t.notOk(text.absent(['LAWRENCE KANSAS'], ['gold']), 'case and punctuation are ignored');
  t.notOk(text.absent(['Regis Laspales'], []), 'accents are ignored');
  t.ok(text.absent(['195'], ['gold']), 'part of a number is not the number');
  t.ok(text.absent(['ansas'], ['gold']), 'part of a word is not the word');
  t.notOk(text.absent(['1975'], []), "the last document's last word");
  t.ok(text.absent(['1955 Regis'], []), 'the last word of one document and the first of the next do not join');
});

t.test('a question without a usable answer is never counted absent', async (t) => {
  t.notOk(text.absent(undefined, []));
  t.notOk(text.absent([], []));
  t.notOk(text.absent(['', ' -- '], []));
  t.notOk(text.absent(['yes'], []), 'yes or no: not an answer a text states');
  t.notOk(text.absent(['No'], ['gold']));
});
