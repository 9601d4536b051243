// A text without headings read by its entries (src/engine/text/sections.ts): which paragraphs open
// an entry (a name, then a bracket or a verb of being), when a text is read by them (enough of its
// paragraphs open one, its title does not name them throughout, they outnumber its heading lines)
// and not (a novel, an article on one subject), the sections and passages that reading gives, and
// region by region the same entries and passages as the whole text; in a store each entry is the
// loop's unit of evidence, found by its name.
import fc from 'fast-check';
import t from 'tap';
import type { LoopParams } from '../src/engine/index.js';
import { TITLES } from '../src/engine/params.js';
import {
  analyzeDocument,
  entryLines,
  MAX_PASSAGE,
  passageRegions,
  regionHeadings,
  regionPassages,
  sectionReading,
  splitPassages,
  termId,
  tokenize,
} from '../src/engine/text/index.js';
import { openShippedStore } from './helpers/shipped-store.js';

const names = (text: string) => entryLines(text).entries.map((e) => e.title);
const stop = new Set(['the', 'and', 'of', 'a', 'in', 'is', 'was']);
const ids = (s: string) => [...Uint32Array.from(tokenize(s).forms, termId)];

const ENTRIES = [
  'Guido Brignone (6 December 1886 – 6 March 1959) was an Italian film director and actor.',
  'Nantong is a prefecture-level city in Jiangsu province, on the north bank of the Yangtze.',
  '"Get Low" is a 2014 single by the producer Dillon Francis and the DJ Snake.',
  'Jingdezhen is a city in Jiangxi known for its porcelain since the Han dynasty.',
  'The Prairie King is a 1927 American silent western film directed by Reeves Eason.',
  'Sacred Fire may refer to several traditions of fire kept burning in temples.',
];
const ASIDES = [
  'In 1990, the band released its third album to mixed reviews in the press.',
  'He was buried in the town where he had been born, beside his mother.',
];

t.test('which paragraphs open an entry', async (t) => {
  t.same(names(ENTRIES.join('\n\n')), ['Guido Brignone', 'Nantong', 'Get Low', 'Jingdezhen', 'The Prairie King', 'Sacred Fire']);
  t.same(names(ASIDES.join('\n\n')), [], 'a paragraph that opens with a date or a pronoun names nothing');
  t.same(
    names(
      '"My dear Mr. Bennet," said his lady to him one day, "have you heard?"\n\nHarry looked at the door, and then at the clock.\n\nElinor, this eldest daughter, possessed a strength of understanding.',
    ),
    [],
    "a novel's paragraphs: speech, narration, a name and a comma",
  );
  t.same(
    names('Guido Brignone (6 December\n1886 – 6 March 1959) was an Italian\nfilm director.'),
    ['Guido Brignone'],
    'a hard-wrapped paragraph is read across its lines',
  );
  t.same(
    names('Lisbon\nLisbon is the capital of Portugal.\n\nNantong is a city.'),
    ['Nantong'],
    'a paragraph under a heading line is a section, not an entry',
  );
  t.same(
    entryLines(`${ENTRIES[0]}\nNantong is a city on a later line of the same paragraph.`).entries.map((e) => e.start),
    [0],
    'only a paragraph opens one',
  );
  t.equal(entryLines([...ENTRIES, ...ASIDES].join('\n\n')).paragraphs, ENTRIES.length + ASIDES.length);
});

t.test('when a text is read by its entries', async (t) => {
  const glossary = [ENTRIES[0], ASIDES[0], ...ENTRIES.slice(1), ASIDES[1]].join('\n\n');
  t.equal(sectionReading(glossary, stop), 'entries', 'most paragraphs open an entry');
  const novel = Array.from({ length: 24 }, (_, i) => (i % 6 === 0 ? ENTRIES[i / 6] : `${ASIDES[i % 2]} (${i})`)).join('\n\n');
  t.ok(entryLines(novel).entries.length >= TITLES.minHeadings);
  t.equal(sectionReading(novel, stop), 'none', 'entries among many more other paragraphs (below TITLES.entryShare)');
  t.equal(sectionReading(ENTRIES.slice(0, TITLES.minHeadings - 1).join('\n\n'), stop), 'none', 'fewer than minHeadings');
  const lisbon = [
    'Lisbon is the capital and largest city of Portugal, on the Tagus.',
    'The port of Lisbon is among the largest on the Atlantic coast of Lisbon.',
    'Alfama is the oldest district of Lisbon, on a hill above the river.',
    'Belem is the district of Lisbon that holds the tower by the river.',
  ].join('\n\n');
  t.equal(sectionReading(lisbon, stop), 'none', 'an article whose title (Lisbon) names every entry: read under it');
  t.equal(sectionReading(lisbon, stop, 'Portuguese Places'), 'entries', 'under a title that names them not');
  const headed = `Cities\n\nChina\nCities of China follow, by province.\n\nFilms\nFilms follow, with their directors.\n\nMusic\nMusic follows.\n\n${ENTRIES.join('\n\n')}`;
  t.equal(sectionReading(headed, stop), 'entries', 'entries that outnumber the heading lines');
  const chapters = `${['Rivers', 'Mountains', 'Lakes', 'Forests', 'Deserts', 'Coasts', 'Islands'].map((h) => `${h}\n${h} are described in this chapter at length.`).join('\n\n')}\n\n${ENTRIES.slice(0, 4).join('\n\n')}`;
  t.equal(sectionReading(chapters, stop), 'headings', 'heading lines that outnumber the entries');
});

t.test('read by its entries: a section and its passages under each', async (t) => {
  const text = [ASIDES[0], ...ENTRIES].join('\n\n');
  const doc = analyzeDocument(text, undefined, stop);
  const starts = entryLines(text).entries.map((e) => e.start);
  t.same(
    doc.sections.map((s) => doc.passages[s.first].start),
    [0, ...starts],
    'the paragraph before the first entry under the title, then one section per entry',
  );
  t.same(
    doc.sections.slice(1).map((s) => [...s.title]),
    ENTRIES.map((e, i) => ids(names(e)[0] ?? String(i))),
    'each titled by its name',
  );
  t.notOk(
    splitPassages(text, MAX_PASSAGE, entryLines(text).entries).some(([s, e]) => starts.some((h) => h > s && h < e)),
    'no passage runs on into the next entry',
  );
  t.same(splitPassages(text), splitPassages(text, MAX_PASSAGE, entryLines(text).entries), 'the passages a text is read by by default');
});

t.test("entries found region by region are the whole text's", async (t) => {
  const piece = fc.constantFrom(...ENTRIES, ...ASIDES, 'beta', 'Dr.', ' ', '. ', '\n', '\n\n', '\n\nChapter One\n', 'x'.repeat(70));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 200 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 20, max: 200 }), (parts, k, max) => {
      const text = parts.join('');
      const regions = passageRegions(text, k, max, 'entries');
      const found = regions.flatMap((r) => regionPassages(text.slice(r.from, r.to), r, max));
      const entries = regions.flatMap((r) =>
        regionHeadings(text.slice(r.from, r.to), r)
          .filter((h) => h.start + r.from < r.before)
          .map((h) => ({ start: h.start + r.from, title: h.title })),
      );
      const whole = entryLines(text).entries;
      return JSON.stringify(found) === JSON.stringify(splitPassages(text, max, whole)) && JSON.stringify(entries) === JSON.stringify(whole);
    }),
    { numRuns: 300, seed: 11 },
  );
  t.pass('the same passages and entries on 300 random texts');
});

t.test("read by its entries: each entry the loop's unit, and found by its name", async (t) => {
  const glossary = [ASIDES[0], ...ENTRIES, ASIDES[1]].join('\n\n');
  const store = await openShippedStore([
    { id: 'glossary', text: glossary, metadata: {} },
    { id: 'other', text: 'Silent film\nA silent film is a film with no synchronized recorded sound.', metadata: {} },
  ]);
  t.teardown(() => store.close());
  const c = store.corpus();
  const rows = store.rowsOf('glossary');
  t.equal(rows.length, ENTRIES.length + 2, 'a passage for the preface, for each entry and for the aside after the last');
  const units = rows.map((r) => c.docOf(r));
  t.same(
    units.map((u) => units.indexOf(u)),
    [0, 1, 2, 3, 4, 5, 6, 6],
    'the preface and each entry its own unit, the aside in the last entry',
  );
  const hits = store.search('Which province is Nantong in?', store.model.params.search as LoopParams, { maxResults: 3 }).hits;
  t.equal(hits[0]?.row, rows[2], "the passage of Nantong's entry first");
});
