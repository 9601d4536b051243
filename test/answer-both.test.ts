// Answers to questions that ask whether two things are both of a kind (src/answer/both.ts): yes when
// both listed documents' opening passages hold the kind's words (every capitalised one, half of the
// others at least; a country by the document's own), no when one does not; and whether they share
// the person behind them (same-person.ts): yes when the names after the role's words are the same.
// Each cites the two documents; none answers (undefined, so the reader does) when a thing is not
// listed, the question asks something else, or a passage does not state what it needs.
import t from 'tap';
import { answerBoth } from '../src/answer/both.js';
import { answerSamePerson } from '../src/answer/same-person.js';

const doc = (doc_id: string, text: string, start = 0) => ({ doc_id, text, start });

const terrier = doc('terrier', 'Wire Fox Terrier\nThe Wire Fox Terrier is a breed of dog, one of many terrier breeds.');
const laika = doc('laika', 'West Siberian Laika\nThe West Siberian Laika is a breed of hunting dog from Russia.');
const shepherd = doc('shepherd', 'Dutch Shepherd\nThe Dutch Shepherd is a herding dog of Dutch origin.');
const vidor = doc('vidor', 'King Vidor\nKing Wallis Vidor (1894 – 1982) was an American film director.');
const cziffra = doc('cziffra', 'Géza von Cziffra\nGéza von Cziffra (1900 – 1989) was a Hungarian-Austrian film director.');
const frozen = doc('frozen', 'Frozen (2013 film)\nFrozen is a 2013 American 3D computer-animated musical fantasy film.');
const elko = doc('elko', 'Elko Regional Airport\nElko Regional Airport is a public airport in Elko, Nevada.');
const ford = doc('ford', 'Gerald R. Ford International Airport\nThe airport is in Cascade Township, near Grand Rapids, Michigan.');
const listed = [terrier, laika, shepherd, vidor, cziffra, frozen, elko, ford];

t.test('yes when both opening passages hold the kind, citing both', async (t) => {
  t.same(answerBoth('Are both the Wire Fox Terrier and West Siberian Laika dog breeds?', listed), {
    text: 'yes',
    citations: ['terrier', 'laika'],
  });
  t.equal(answerBoth('Are Wire Fox Terrier and Dutch Shepherd both breeds of dog?', listed)?.text, 'yes', 'half the common words: "dog"');
  t.equal(answerBoth('Were King Vidor and Géza von Cziffra both film directors?', listed)?.text, 'yes');
  t.equal(answerBoth('Is Frozen and West Siberian Laika both animated?', listed)?.text, 'no');
});

t.test('no when one lacks a name of the kind, a place or a nationality', async (t) => {
  t.same(answerBoth('Are King Vidor and Géza von Cziffra both American directors?', listed), {
    text: 'no',
    citations: ['vidor', 'cziffra'],
  });
  t.equal(
    answerBoth('Are both Elko Regional Airport and Gerald R. Ford International Airport located in Michigan?', listed)?.text,
    'no',
    '"located" aside: Michigan decides',
  );
  t.equal(answerBoth('Are Wire Fox Terrier and the Dutch Shepherd both of Dutch origin?', listed)?.text, 'no');
});

t.test("a country of the kind is the subject's country, however each passage names it", async (t) => {
  t.equal(
    answerBoth('Are Elko Regional Airport and Gerald R. Ford International Airport both in the United States?', listed)?.text,
    'yes',
    'a US state stands for the United States',
  );
  t.equal(answerBoth('Are King Vidor and Elko Regional Airport both American?', listed)?.text, 'yes');
  t.equal(answerBoth('Are King Vidor and Géza von Cziffra both from the United States?', listed)?.text, 'no');
  t.equal(
    answerBoth('Are both Elko Regional Airport and Gerald R. Ford International Airport in Nevada?', listed)?.text,
    'no',
    'a state is a name the passage must hold',
  );
});

t.test('nothing answered: a thing not listed, a sameness or degree, two claims, no kind', async (t) => {
  t.equal(answerBoth('Are both Wire Fox Terrier and Cretan Hound dog breeds?', listed), undefined, 'Cretan Hound is not listed');
  t.equal(answerBoth('Are King Vidor and Géza von Cziffra both of the same nationality?', listed), undefined);
  t.equal(answerBoth('Are Wire Fox Terrier and West Siberian Laika both similar breeds?', listed), undefined);
  t.equal(answerBoth('Is Wire Fox Terrier both taller than West Siberian Laika?', listed), undefined);
  t.equal(answerBoth('Are Wire Fox Terrier and West Siberian Laika both?', listed), undefined, 'no kind');
  t.equal(answerBoth('Are Wire Fox Terrier and West Siberian Laika dog breeds?', listed), undefined, 'no "both"');
  t.equal(answerBoth('Who bred both Wire Fox Terrier and West Siberian Laika?', listed), undefined, 'not a yes/no question');
  t.equal(
    answerBoth('Are dog breeds like Wire Fox Terrier and West Siberian Laika both old?', listed),
    undefined,
    'the things not asked first',
  );
});

t.test('the same person behind two things (same-person.ts): yes or no by the name after the role, citing both', async (t) => {
  const hot = doc('hot', 'Hot Girls Wanted\nHot Girls Wanted is a 2015 documentary film directed by Jill Bauer and Ronna Gradus.');
  const truth = doc(
    'truth',
    'The Truth According to Wikipedia\nThe Truth According to Wikipedia is a 2008 documentary directed by IJsbrand van Veelen.',
  );
  const sexy = doc('sexy', 'Sexy Baby\nSexy Baby is a 2012 documentary film. It was directed by Jill Bauer.');
  const song = doc('song', 'Song of Rain\nSong of Rain is a ballad with music by Ann Lee.');
  const listed = [hot, truth, sexy, song];
  t.same(answerSamePerson('Do the documentaries Hot Girls Wanted and The Truth According to Wikipedia have the same director?', listed), {
    text: 'no',
    citations: ['hot', 'truth'],
  });
  t.equal(answerSamePerson('Were Hot Girls Wanted and Sexy Baby directed by the same person?', listed)?.text, 'yes');
  t.equal(answerSamePerson('Do Hot Girls Wanted and Song of Rain have the same director?', listed), undefined, 'no director named: none');
  t.equal(answerSamePerson('Are Hot Girls Wanted and Sexy Baby from the same country?', listed), undefined, 'no role asked');
  t.equal(answerSamePerson('Do Hot Girls Wanted and Sexy Baby have the same director?', [hot]), undefined, 'one thing listed');
});
