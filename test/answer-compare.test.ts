// Answers to questions that compare two documents or ask of a person's birth, death, nationality or
// relative (src/answer/choice.ts, same-country.ts, life-events.ts, person-facts.ts and what they read:
// dates.ts, measures.ts, countries.ts, compared.ts). A choice ("Who is older, A or B?", "Which
// mountain is higher, A or B?") is answered with the title of the option whose date or quantity
// wins, as its passage writes it; a same-country question with yes or no; a birth, death,
// nationality or relative with what the person's passage states; each cites the documents it read,
// and none answers (undefined, so the reader does) when a document, a date, a quantity or a country
// is missing, the dates are equal, or the question asks something else.
import t from 'tap';
import { answerChoice, choiceOf, numberWord } from '../src/answer/choice.js';
import { documentNamed, documentsNamedIn, relatedDocument, relationOf } from '../src/answer/compared.js';
import { countriesIn } from '../src/answer/countries.js';
import { compareDates, datesOf, eventDate, lifeDates } from '../src/answer/dates.js';
import { answerLifeEvent, lifeEventOf } from '../src/answer/life-events.js';
import { measureAsked, measureIn } from '../src/answer/measures.js';
import { answerPersonFact } from '../src/answer/person-facts.js';
import { answerSameCountry, countryOf } from '../src/answer/same-country.js';

const doc = (doc_id: string, text: string, start = 0) => ({ doc_id, text, start });

const borzage = doc('borzage', 'Frank Borzage\nFrank Borzage( April 23, 1894 – June 19, 1962) was an American film director and actor.');
const belson = doc(
  'belson',
  'Jerry Belson\nJerry Belson (July 8, 1938 – October 10, 2006) was an American screenwriter, director and producer.',
);
const heaven = doc('heaven', '7th Heaven (1927 film)\n7th Heaven is a 1927 American silent romantic drama film directed by Frank Borzage.');
const stooges = doc('stooges', 'Flat Foot Stooges\nFlat Foot Stooges is a 1938 short subject directed by Charley Chase.');
const chase = doc(
  'chase',
  'Charley Chase\nCharley Chase (born Charles Joseph Parrott; October 20, 1893 – June 20, 1940) was an American comedian.',
);
const market = doc('market', 'The Black Market (film)\nThe Black Market is a 1953 Argentine film directed by Catrano Catrani.');
const catrani = doc('catrani', 'Catrano Catrani\nCatrano Catrani (1910 – 1974) was an Italian-born Argentine film director.');

t.test('dates: every form, in text order, compared by what both state', async (t) => {
  const ds = datesOf('Born 23 April 1894 in Salt Lake City; died June 19, 1962, after a 1960 stroke (May 1961).');
  t.same(
    ds.map(({ year, month, day }) => [year, month, day]),
    [
      [1894, 4, 23],
      [1962, 6, 19],
      [1960, 0, 0],
      [1961, 5, 0],
    ],
  );
  t.same(datesOf('Route 12345 and 999 and 2150'), [], 'no year outside 1000-2099, none inside a longer number');
  const [a, b, c] = datesOf('1894, 3 May 1894, 5 May 1894');
  t.equal(compareDates(a, b), 0, 'a year alone equals any date of that year');
  t.equal(compareDates(b, c), -1);
  t.equal(compareDates(c, b), 1);
  t.same(
    lifeDates(borzage.text).died && [lifeDates(borzage.text).born?.year, lifeDates(borzage.text).died?.year],
    [1894, 1962],
    'a range gives birth and death',
  );
  t.equal(lifeDates('Ann Lee (born 1950) is a painter. She died in Paris on 3 May 2001.').died?.year, 2001, 'or "died" does');
  t.equal(lifeDates('Ann Lee (born 1950) is a painter.').died, undefined);
  t.equal(
    lifeDates('In 1975 Ann Lee (born 3 May 1950) moved to Paris.', { loose: true }).born?.year,
    1950,
    'the bracket after the name before the first date',
  );
  t.same(
    [lifeDates('Ann Lee\nAnn Lee (died 1911) was a painter.', { from: 8, loose: true })].map((d) => [d.born, d.died?.year]),
    [[undefined, 1911]],
    'a bracket that states only the death gives no birth, loose or not',
  );
  t.same(lifeDates('The film was released in 1950.'), { born: undefined, died: undefined }, 'strict: no bracket, no "born": nothing');
  t.equal(lifeDates('The film was released in 1950.', { loose: true }).born?.year, 1950, 'loose: the first date');
  t.equal(lifeDates('Ann Lee was born in Leeds on 3 May 1950 and died in 2001.').born?.year, 1950, 'the date "born" leads to');
  t.equal(
    eventDate('Lonestar won awards in 1999. The band was formed in 1992 in Nashville.', /\bformed\b/g)?.year,
    1992,
    'the date after a cue',
  );
  t.equal(eventDate('A 1953 film.', /\breleased\b/g)?.year, 1953, 'else the first date');
});

t.test('a choice question: its options, which date, which wins', async (t) => {
  t.match(choiceOf('Who is older, David Dzakhov or David Luna Sánchez?'), {
    options: ['David Dzakhov', 'David Luna Sánchez'],
    event: 'born',
    earliest: true,
  });
  t.match(choiceOf('Which film came out more recently, True Bromance or V Trestném Území?'), { event: 'other', earliest: false });
  t.match(choiceOf('Which film has the director who died first, The Prairie King or Confessions Of An Opium Eater?'), {
    event: 'died',
    earliest: true,
  });
  t.ok(choiceOf('Which film has the director who died first, A or B?')?.relation, 'a relation to follow');
  t.equal(choiceOf('Who is better, Ann or Bob?'), undefined, 'no date asked');
  t.equal(choiceOf('Who directed Devotion?'), undefined, 'no options');
  t.equal(choiceOf('Which came first and which came last, A or B?'), undefined, 'both directions: none');
});

t.test('a choice is answered with the winning title, citing the documents compared', async (t) => {
  t.same(answerChoice('Who was born first, Jerry Belson or Frank Borzage?', [belson, heaven, borzage]), {
    text: 'Frank Borzage',
    citations: ['borzage', 'belson'],
  });
  t.same(answerChoice('Who died later, Jerry Belson or Frank Borzage?', [borzage, belson])?.text, 'Jerry Belson');
  t.same(
    answerChoice('Which film has the director who is older, The Black Market (Film) or Flat Foot Stooges?', [
      market,
      stooges,
      catrani,
      chase,
    ]),
    { text: 'Flat Foot Stooges', citations: ['stooges', 'chase', 'market', 'catrani'] },
    "the directors' births, through the relation's word",
  );
  t.equal(
    answerChoice('Which film came out first, 7th Heaven or Flat Foot Stooges?', [stooges, heaven])?.text,
    '7th Heaven',
    'a title without its bracketed part, as the question names it',
  );
  t.equal(answerChoice('Who was born first, Jerry Belson or Ann Lee?', [belson, borzage]), undefined, 'an option not listed');
  t.equal(
    answerChoice('Who was born first, Jerry Belson or Frank Borzage?', [belson, { ...borzage, start: 120 }]),
    undefined,
    'a passage from the middle of a document does not stand for it',
  );
  const twin = doc('twin', 'Ann Lee\nAnn Lee (1938 – 1990) was a painter.');
  t.equal(answerChoice('Who was born first, Jerry Belson or Ann Lee?', [belson, twin]), undefined, 'equal years: no choice');
  t.equal(
    answerChoice('Which film has the director who is older, The Black Market (Film) or Flat Foot Stooges?', [market, stooges, chase]),
    undefined,
    'a relation that leads to no listed document',
  );
});

t.test('documents a question names, and the one a passage names after a relation', async (t) => {
  t.equal(documentNamed('the duo Frank Borzage', [belson, borzage])?.p.doc_id, 'borzage', 'an option that ends with the title');
  t.same(
    documentsNamedIn('Are Frank Borzage and 7th Heaven from the same country?', [heaven, belson, borzage]).map((d) => d.p.doc_id),
    ['borzage', 'heaven'],
    'in question order',
  );
  t.equal(relatedDocument(heaven, /\bdirect(ed|or)\b/i, [heaven, belson, borzage])?.doc_id, 'borzage');
  for (const asked of [
    'which film has the director who died first',
    'which film whose director was born first',
    "x's father",
    'are director of film x and y',
  ])
    t.ok(relationOf(asked), `a relation asked: ${asked}`);
  for (const asked of ['which singer was born first', 'which music album came out first', 'who directed devotion'])
    t.equal(relationOf(asked), undefined, `none asked: ${asked}`);
  t.equal(relatedDocument(heaven, /\bproduc(ed|er)\b/i, [heaven, belson, borzage]), undefined);
});

t.test(
  'a document without a title line goes by the subject its opening sentence names, and a full name by its first and last word',
  async (t) => {
    const loone = doc('loone', 'John Arthur Loone( 25 January 1931 – 3 August 2018) was an Australian politician.');
    const gallivan = doc('gallivan', 'Joe Gallivan( born August 9, 1937, Rochester, New York) is an American jazz musician.');
    const czech = doc('czech', 'V trestném území is a 1950 Czechoslovak crime film directed by Václav Kubásek.');
    const man = doc('man', 'The Man Without a Country is a 1925 American silent drama film.');
    const listed = [loone, gallivan, czech, man];
    t.match(documentNamed('John Loone', listed), { p: { doc_id: 'loone' }, title: 'John Arthur Loone', named: 'John Loone' });
    t.match(documentNamed('V Trestném Území', listed), { p: { doc_id: 'czech' }, title: 'V trestném území' });
    t.match(documentNamed('V Trestném Území (Film)', listed), { p: { doc_id: 'czech' } }, "the question's bracket, which the text lacks");
    t.same(
      documentsNamedIn('Were Joe Gallivan and John Loone from the same country?', listed).map((c) => c.p.doc_id),
      ['gallivan', 'loone'],
    );
    t.same(documentsNamedIn('Is the film from the same country?', listed), [], '"The Man Without a Country" is no "The Country"');
    const film = doc('film', 'Tamar Nights is a 1970 Australian film directed by John Loone.');
    t.equal(relatedDocument(film, /\bdirect(ed|or)\b/i, [film, ...listed])?.doc_id, 'loone', 'a relation by first and last name');
    t.same(answerSameCountry('Were Joe Gallivan and John Loone from the same country?', listed), {
      text: 'no',
      citations: ['gallivan', 'loone'],
    });
    t.same(
      answerChoice('Who was born first, John Loone or Joe Gallivan?', listed),
      {
        text: 'John Arthur Loone',
        citations: ['loone', 'gallivan'],
      },
      'the answer as the text writes the name',
    );
  },
);

t.test('countries: names and adjectives, the subject of a document', async (t) => {
  t.same(
    countriesIn('an American-born British actor from Idaho, in South Korea').map((m) => m.country),
    ['United States', 'United Kingdom', 'United States', 'South Korea'],
  );
  t.equal(countryOf(borzage), 'United States', 'the nationality stated');
  t.equal(countryOf(catrani), 'Argentina', 'the stated one, not a birthplace before it');
  t.equal(countryOf(doc('v', 'Kalateh-ye Sanam\nKalateh-ye Sanam is a village in Kerman Province, Iran. It had 40 families.')), 'Iran');
  t.equal(countryOf(doc('a', 'Boise Airport\nBoise Airport is a joint civil-military airport in Boise, Idaho.')), 'United States');
  t.equal(countryOf(doc('n', 'Jordan Smith\nJordan Smith is a singer.')), undefined, "the title's own words name no country");
  t.equal(countryOf(doc('i', 'Indiana Jones\nIndiana Jones is a character of films made in India.')), 'India', 'whole words only');
});

t.test('a same-country question: yes or no, citing the documents compared', async (t) => {
  const iran = doc('iran', 'Cheshmehha\nCheshmehha is a village in Kerman Province, Iran.');
  const iran2 = doc('iran2', 'Kalateh-ye Sanam\nKalateh-ye Sanam is a village in Razavi Khorasan Province, Iran.');
  t.same(answerSameCountry('Are Kalateh-ye Sanam and Cheshmehha both located in the same country?', [iran, iran2]), {
    text: 'yes',
    citations: ['iran2', 'iran'],
  });
  t.same(answerSameCountry('Were Frank Borzage and Catrano Catrani of the same nationality?', [catrani, borzage])?.text, 'no');
  t.same(
    answerSameCountry('Are the directors of films 7th Heaven and The Black Market both from the same country?', [
      heaven,
      market,
      borzage,
      catrani,
    ]),
    { text: 'no', citations: ['heaven', 'borzage', 'market', 'catrani'] },
    'through the relation',
  );
  t.equal(answerSameCountry('Are Frank Borzage and Ann Lee of the same nationality?', [borzage]), undefined, 'one document named');
  t.equal(
    answerSameCountry('Are Frank Borzage and Ann Lee of the same nationality?', [borzage, doc('ann', 'Ann Lee\nAnn Lee was a painter.')]),
    undefined,
    'a document without a country',
  );
  t.equal(answerSameCountry('Where were Frank Borzage and Catrano Catrani born?', [catrani, borzage]), undefined, 'another question');
});

t.test('a question of a birth or death: what it asks', async (t) => {
  t.same(lifeEventOf('When was the director of film Devotion born?'), { event: 'born', what: 'date' });
  t.same(lifeEventOf('What is the date of death of the composer of song X?'), { event: 'died', what: 'date' });
  t.same(lifeEventOf('In what year was Nikola Tesla born?'), { event: 'born', what: 'year' });
  t.same(lifeEventOf("Where did X's father die?"), { event: 'died', what: 'place' });
  t.same(lifeEventOf('What is the place of birth of the director of film X?'), { event: 'born', what: 'place' });
  t.equal(lifeEventOf('Why did the director of film X die?'), undefined, 'a cause is not a date or a place');
  t.equal(lifeEventOf('In which country was X born?'), undefined, 'nor is a country');
  t.equal(lifeEventOf('Who directed Devotion?'), undefined);
});

t.test('a birth or death is answered from the person the question reaches, citing it and the document that led there', async (t) => {
  t.same(answerLifeEvent('When was the director of film 7th Heaven born?', [heaven, belson, borzage]), {
    text: 'April 23, 1894',
    citations: ['borzage', 'heaven'],
  });
  t.equal(answerLifeEvent('When did the director of film 7th Heaven die?', [heaven, borzage])?.text, 'June 19, 1962');
  t.equal(answerLifeEvent('In what year did the director of film 7th Heaven die?', [heaven, borzage])?.text, '1962', 'the year alone');
  t.equal(answerLifeEvent('When was Frank Borzage born?', [belson, borzage])?.text, 'April 23, 1894', 'no relation: the named person');
  const kin = doc('kin', 'Lilla Brignone\nLilla Brignone (1913 – 1984) was an Italian actress, the daughter of Guido Brignone.');
  const guido = doc(
    'guido',
    'Guido Brignone\nGuido Brignone (born 6 December 1886 in Milan) was an Italian director. He died in Rome in 1959.',
  );
  t.same(answerLifeEvent("Where was Lilla Brignone's father born?", [kin, guido]), { text: 'Milan', citations: ['guido', 'kin'] });
  t.equal(answerLifeEvent("Where did Lilla Brignone's father die?", [kin, guido])?.text, 'Rome');
  t.equal(answerLifeEvent("When did Lilla Brignone's father die?", [kin, guido])?.text, '1959', 'a death after "died"');
  t.equal(answerLifeEvent('When was 7th Heaven born?', [heaven]), undefined, 'no bracket of dates: not a person');
  t.equal(
    answerLifeEvent('When was the director of film 7th Heaven born?', [heaven, belson]),
    undefined,
    'the relation leads to no listed document',
  );
  t.equal(answerLifeEvent('Where was Frank Borzage born?', [borzage]), undefined, 'the place is not stated');
});

t.test("a person's nationality or relative, written as the person's passage writes it", async (t) => {
  const guido = doc('guido', 'Guido Brignone\nGuido Brignone (1886 – 1959) was an Italian director, father of the actress Lilla Brignone.');
  const devotion = doc('devotion', 'Devotion (1929 film)\nDevotion is a 1929 Italian silent film directed by Guido Brignone.');
  t.same(answerPersonFact('Who is the child of the director of film Devotion (1929 Film)?', [devotion, guido]), {
    text: 'Lilla Brignone',
    citations: ['guido', 'devotion'],
  });
  t.same(answerPersonFact('What nationality is the director of film Devotion?', [devotion, guido])?.text, 'Italian');
  t.same(answerPersonFact('Which country the director of film 7th Heaven is from?', [heaven, borzage])?.text, 'American');
  const wed = doc('wed', 'Ann Lee\nAnn Lee (1910 – 1990) was a painter. She married the poet John Smith in 1935.');
  t.equal(answerPersonFact("Who is Ann Lee's spouse?", [wed])?.text, 'John Smith', 'a possessive, no relation followed');
  t.equal(answerPersonFact('Who is the husband of Ann Lee?', [wed])?.text, 'John Smith');
  const son = doc('son', 'Tom Lee\nTom Lee (born 1950) is a singer, the son of John Smith and Ann Lee.');
  t.equal(answerPersonFact('Who is the father of Tom Lee?', [son])?.text, 'John Smith', 'the first name after "son of"');
  t.equal(answerPersonFact('Who is the mother of Tom Lee?', [son])?.text, 'Ann Lee', 'the one after "and"');
  t.equal(answerPersonFact('Who is the mother of Ann Lee?', [wed]), undefined, 'not stated');
  t.equal(answerPersonFact('Who is the child of the director of film Devotion?', [devotion]), undefined, 'the relation leads nowhere');
  t.equal(answerPersonFact('Who directed Devotion?', [devotion, guido]), undefined, 'another question');
});

t.test("a relative's name: past a nationality before it, and not into the next sentence", async (t) => {
  const cole = doc(
    'cole',
    'Joyce Chopra\nJoyce Chopra (born 1936) is a director. She married American playwright Tom Cole. Their son is Dan.',
  );
  t.equal(answerPersonFact('Who is the spouse of Joyce Chopra?', [cole])?.text, 'Tom Cole');
  const wed = doc('wed', 'Guido Brignone\nGuido Brignone married Bice Valerian. Their daughter was Lilla Brignone.');
  t.equal(answerPersonFact("Who is Guido Brignone's wife?", [wed])?.text, 'Bice Valerian');
});

t.test('a relative of two steps: each step to the listed document of the name the passage gives', async (t) => {
  const lucia = doc('lucia', 'Lucia Graves\nLucia Graves (born 1943) is a writer, the daughter of Robert Graves.');
  const robert = doc(
    'robert',
    'Robert Graves\nRobert Graves (1895 – 1985) was an English poet, the son of Alfred Perceval Graves and Amalie von Ranke.',
  );
  t.same(answerPersonFact('Who is the paternal grandfather of Lucia Graves?', [lucia, robert]), {
    text: 'Alfred Perceval Graves',
    citations: ['robert', 'lucia'],
  });
  t.equal(answerPersonFact("Who is Lucia Graves's paternal grandmother?", [lucia, robert])?.text, 'Amalie von Ranke');
  t.equal(answerPersonFact('Who is the paternal grandfather of Lucia Graves?', [lucia]), undefined, "the father's document is not listed");
});

t.test('a choice by no date: the option whose passage holds more of the words before the options', async (t) => {
  const a = doc('a', "Fazoli's\nFazoli's is an American fast food chain based in Lexington, Kentucky.");
  const b = doc('b', 'Vocelli Pizza\nVocelli Pizza is a pizza company based in Pittsburgh.');
  t.match(choiceOf("Which company is based in Kentucky, Vocelli Pizza or Fazoli's?"), { by: 'words' });
  t.same(answerChoice("Which company is based in Kentucky, Vocelli Pizza or Fazoli's?", [b, a]), {
    text: "Fazoli's",
    citations: ['a', 'b'],
  });
  t.equal(answerChoice("Which one is based in Ohio, Vocelli Pizza or Fazoli's?", [b, a]), undefined, 'as much of the words in both: none');
  t.equal(choiceOf('Which singer is better, A or B?'), undefined, 'a degree is not a word the passages hold');
  t.equal(choiceOf('Is it A or B?'), undefined, 'not a which or who question');
  t.match(
    choiceOf('Which band was formed first The Exies or Circus Diablo?'),
    { options: ['The Exies', 'Circus Diablo'], by: 'date' },
    'no comma',
  );
});

t.test('a choice by a count: the number a passage gives right before the noun asked', async (t) => {
  const quichotte = doc('q', 'Don Quichotte\nDon Quichotte is an opera in five acts by Jules Massenet.');
  const tosca = doc('t', 'Tosca\nTosca is an opera in three acts by Giacomo Puccini.');
  t.match(choiceOf('Which opera has more acts, Don Quichotte or Tosca?'), { by: 'count', counted: { stem: 'act', more: true } });
  t.same(answerChoice('Which opera has more acts, Don Quichotte or Tosca?', [tosca, quichotte]), {
    text: 'Don Quichotte',
    citations: ['q', 't'],
  });
  t.equal(answerChoice('Which opera has fewer acts, Don Quichotte or Tosca?', [tosca, quichotte])?.text, 'Tosca');
  const genus = doc('g', 'Polypodium\nPolypodium is a genus of between 75 and 100 species of ferns.');
  t.equal(
    answerChoice('Which genus has more species Tosca or Polypodium?', [tosca, genus]),
    undefined,
    'a passage without the count: none',
  );
  t.equal(choiceOf('Which opera is more famous, Don Quichotte or Tosca?')?.by, 'count', 'a degree read as a count...');
  t.equal(
    answerChoice('Which opera is more famous, Don Quichotte or Tosca?', [tosca, quichotte]),
    undefined,
    '...finds no number before it',
  );
});

t.test('a count written in words past twenty', async (t) => {
  t.same(
    ['5', '1,200', 'nineteen', 'twenty', 'forty', 'twenty-one', 'ninety-nine', 'twenty\u2011two'].map(numberWord),
    [5, 1200, 19, 20, 40, 21, 99, 22],
  );
  t.same(
    ['hundred', 'twenty-ten', 'twenty-one-two', 'one-twenty', 'in', ''].map(numberWord),
    [-1, -1, -1, -1, -1, -1],
    'not a number up to 99',
  );
  const ferns = doc('f', 'Ferns\nThe genus Aspidium holds thirty-five species of ferns.');
  const mosses = doc('m', 'Mosses\nThe genus Bryum holds twenty-two species of mosses.');
  t.equal(answerChoice('Which genus has more species, Ferns or Mosses?', [mosses, ferns])?.text, 'Ferns', 'hyphenated: 35 against 22');
  const lichens = doc('l', 'Lichens\nThe genus Cladonia holds thirty five species of lichens.');
  const algae = doc('a', 'Algae\nThe genus Ulva holds nine species of algae.');
  t.equal(answerChoice('Which genus has fewer species, Lichens or Algae?', [lichens, algae])?.text, 'Algae', 'two words: 35 against 9');
  const liverworts = doc('w', 'Liverworts\nThe genus Riccia holds forty species.');
  t.equal(
    answerChoice('Which genus has more species, Lichens or Liverworts?', [lichens, liverworts])?.text,
    'Liverworts',
    'tens alone: 40 against 35',
  );
});

t.test('a choice by a measure: the height, area or population each passage states first', async (t) => {
  t.equal(measureIn('It rises 1,396 feet (426 m) over Park Avenue.', 'height')?.toFixed(1), '425.5', 'feet to metres');
  t.equal(measureIn('a peak of 7,885 m (25,869 ft)', 'height'), 7885);
  t.equal(measureIn('It covers 543 km2 of marshes.', 'area'), 543);
  t.equal(measureIn('The park covers 5,107 hectares.', 'area'), 51.07, 'hectares to square kilometres');
  t.equal(measureIn('The population was 5,656 at the 2010 census.', 'population'), 5656);
  t.equal(measureIn('a town of 3,001 inhabitants', 'population'), 3001);
  t.equal(measureIn('The population as of the 2010 census was 5,656.', 'population'), 5656, 'a year is no population');
  t.equal(measureIn('Its population grew. In 2010 it had 900 residents.', 'population'), 900, 'not past the sentence');
  t.equal(measureIn('It earned 5 million dollars in 2010.', 'height'), undefined, '"m" of "million" is no metre');
  t.same(measureAsked('Which town is more populous'), { measure: 'population', larger: true });
  t.same(measureAsked('Which mountain is lower'), { measure: 'height', larger: false });
  t.same(measureAsked('Which park is larger of the two'), { measure: 'area', larger: true });
  t.equal(measureAsked('Which singer is more famous'), undefined);

  const crown = doc('c', 'The Crown (mountain)\nThe Crown is a mountain of the Karakoram, 7,295 m high.');
  const sar = doc('s', 'Distaghil Sar\nDistaghil Sar is the highest mountain of the Hispar Muztagh, at 7,885 m (25,869 ft).');
  t.same(answerChoice('Which Karakoram mountain is higher: Distaghil Sar or The Crown', [crown, sar]), {
    text: 'Distaghil Sar',
    citations: ['s', 'c'],
  });
  t.equal(answerChoice('Which mountain is lower, Distaghil Sar or The Crown?', [crown, sar])?.text, 'The Crown');
  const doñana = doc('d', 'Doñana National Park\nDoñana National Park is a park in Andalusia covering 543 km2.');
  const timanfaya = doc('t', 'Timanfaya National Park\nTimanfaya National Park covers 5,107 hectares of Lanzarote.');
  t.equal(
    answerChoice('Which park is larger of the two, Doñana National Park or Timanfaya National Park?', [timanfaya, doñana])?.text,
    'Doñana National Park',
  );
  t.equal(
    answerChoice('Which park is taller, Doñana National Park or Timanfaya National Park?', [timanfaya, doñana]),
    undefined,
    'no height stated',
  );
  t.match(
    choiceOf('Which building will have more floors, 15 Penn Plaza, or 247 Cherry?'),
    { options: ['15 Penn Plaza', '247 Cherry'], by: 'count' },
    'a comma before "or"',
  );
  t.match(
    choiceOf('Between the documentaries The Staten Island Catapult and Frida, en trotjänarinna which came first?'),
    { options: ['The Staten Island Catapult', 'Frida, en trotjänarinna'], head: 'which came first', by: 'date' },
    'the options before the head',
  );
  t.match(
    choiceOf('Which director, Christopher Guest or Elem Klimov, is known for writing, directing and starring in his movies?'),
    {
      options: ['Christopher Guest', 'Elem Klimov'],
      head: 'Which director is known for writing, directing and starring in his movies',
      by: 'words',
    },
    'the options inside the head',
  );
  t.match(
    choiceOf('Which film came out first, Vlad or Halloween 4: The Return of Michael Myers?'),
    { options: ['Vlad', 'Halloween 4: The Return of Michael Myers'] },
    "a colon in an option's title is kept",
  );
});
