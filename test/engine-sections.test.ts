// A long document read as sections (src/engine/text/sections.ts): which lines are headings; in a
// sectioned text no passage carries text past a heading paragraph, and region by region the
// passages and the headings are still the whole text's; the sections' titles go through the encoding (and a blob of
// the format before sections still reads), the segment (each row its section's title, a merge's
// readDoc giving back what it was built from) and the corpus, where a section is the loop's unit
// of evidence and what the whole-document features read.
import fc from 'fast-check';
import t from 'tap';
import type { LoopParams } from '../src/engine/index.js';
import { FEATURE_TEXT, TITLES } from '../src/engine/params.js';
import { createEngineRuntime } from '../src/engine/runtime/index.js';
import { buildSegment, decodeBlob, encodeBlob, SegmentView } from '../src/engine/segment/index.js';
import {
  analyzeDocument,
  headingLines,
  MAX_PASSAGE,
  passageRegions,
  regionHeadings,
  regionPassages,
  splitPassages,
  termId,
  tokenize,
} from '../src/engine/text/index.js';
import { openShippedStore } from './helpers/shipped-store.js';

const titles = (text: string) => headingLines(text).map((h) => h.title);

t.test('heading lines', async (t) => {
  t.same(titles('Guido Brignone\nGuido Brignone was an Italian film director.\n\nLisbon\nLisbon lies on the Tagus, a long river.'), [
    'Guido Brignone',
    'Lisbon',
  ]);
  t.same(
    titles('# Install\n\nRun the installer.\n\n## On Linux ##\nUse the package.\nText\n### \n'),
    ['Install', 'On Linux'],
    'ATX headings',
  );
  t.same(
    titles('Getting started\n===============\n\nFirst steps here.\n\nNext\n----\nMore.'),
    ['Getting started', 'Next'],
    'setext headings',
  );
  t.same(
    titles('CHAPTER I\n\nIt was a cold morning in the town.\n\nCHAPTER II\n\nThe next day came.'),
    ['CHAPTER I', 'CHAPTER II'],
    'a line alone',
  );
  const hit = headingLines('Intro text here.\n\n   Indented Title\nA paragraph that is long enough to follow it.');
  t.same(hit, [{ start: 21, title: 'Indented Title' }], 'a heading starts at its first character that is not a space');
  t.same(
    titles(
      'It is a truth universally acknowledged, that a single man in possession\nof a good fortune, must be in want of a wife.\n\nHowever little known the feelings or views of such a man may be on his\nfirst entering a neighbourhood, this truth is so well fixed.',
    ),
    [],
    'hard-wrapped paragraphs: no headings',
  );
  t.same(
    titles(
      'Concentrated O\n2 will allow combustion to proceed rapidly and energetically in pipes.\n\nTrioxygen (O\n3) is usually known as ozone and is a very reactive allotrope.',
    ),
    [],
    'a line cut before a subscript',
  );
  t.same(
    titles(
      'He said so.\n\n- First item\n- Second item that is a good deal longer than the first\n\n"Quoted line"\nA long line that follows the quoted one here.\n\nlower case line\nA long line that follows the lower case one.',
    ),
    [],
    'sentences, lists, quotes and lines in lower case',
  );
  t.same(
    titles(
      'How do I reset my password?\nOpen the settings page and choose Reset, then follow the mail.\n\nOklahoma!\nOklahoma! is the first musical written by the team of Rodgers and Hammerstein.',
    ),
    ['How do I reset my password?', 'Oklahoma!'],
    'a question or an exclamation may be a title',
  );
  t.same(titles('Stranger in Town\nStranger in Town is a 1931 American film.'), ['Stranger in Town'], 'the next line twice as long');
  t.same(titles('Stranger in Town\nStranger in Town may refer to:'), [], 'the next line under twice as long');
  t.same(titles('A Longer Title Than Its Line\nShort line here.'), [], 'the next line too short');
});

/** A text over TITLES.sectionChars of `n` titled paragraphs (`Place i\nPlace i ...`, each of two sentences). */
function bookOf(n: number, title = (i: number) => `Place ${i}`): { text: string; starts: number[] } {
  const parts: string[] = [];
  const starts: number[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const p = `${title(i)}\n${title(i)} lies by river ${i % 7} and keeps ${['mills', 'farms', 'bridges'][i % 3]} of note. Its market opens on day ${i % 5}.`;
    starts.push(at);
    parts.push(p);
    at += p.length + 2;
  }
  return { text: parts.join('\n\n'), starts };
}

/** Names no two of which look alike (TownA, TownB, ...): each heading names its own paragraph alone. */
const town = (i: number) => `Town${String.fromCharCode(65 + i)}`;

t.test('passages of a sectioned text stop at heading paragraphs; of a short one with few headings they carry on', async (t) => {
  const few = bookOf(TITLES.minHeadings - 1);
  t.ok(
    splitPassages(few.text).some(([s, e]) => few.starts.some((h) => h > s && h < e)),
    'a short text of fewer than minHeadings headings: passages carry the next paragraph',
  );
  const short = bookOf(20);
  t.ok(short.text.length <= TITLES.sectionChars);
  const stopped = splitPassages(short.text, MAX_PASSAGE, headingLines(short.text));
  t.same(
    stopped.map(([s]) => s),
    short.starts,
    'headed: one passage per titled paragraph',
  );
  t.notOk(
    stopped.some(([s, e]) => short.starts.some((h) => h > s && h < e)),
    'headed: no passage holds the start of another heading paragraph',
  );
  const distinct = bookOf(20, town);
  t.same(
    splitPassages(distinct.text),
    splitPassages(distinct.text, MAX_PASSAGE, headingLines(distinct.text)),
    'a short text of minHeadings headings or more that name their own paragraphs is headed by default',
  );
  t.notSame(
    splitPassages(short.text),
    stopped,
    'one whose title (Place 0) names every paragraph is an article under it: its passages carry on',
  );
  const book = bookOf(3600);
  t.ok(book.text.length > TITLES.sectionChars, `a book of ${book.text.length} characters`);
  t.same(
    splitPassages(book.text).map(([s]) => s),
    book.starts,
    'a sectioned text is headed by default',
  );
});

t.test('headed passages found region by region are the passages of the whole text', async (t) => {
  const piece = fc.constantFrom(
    'Alpha',
    'beta',
    'Dr.',
    '1990',
    'x'.repeat(70),
    ' ',
    '. ',
    '\n',
    '\n\n',
    '\n\nChapter One\n',
    '\n\n# Part Two\n\n',
    '\n\nShort\n',
    '\n\nTitle\n----\n',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 400 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 20, max: 90 }), (parts, k, max) => {
      const text = parts.join('');
      const regions = passageRegions(text, k, max).map((r) => ({ ...r, reading: 'headings' as const }));
      const found = regions.flatMap((r) => regionPassages(text.slice(r.from, r.to), r, max));
      const headings = regions.flatMap((r) =>
        regionHeadings(text.slice(r.from, r.to), r)
          .filter((h) => h.start + r.from < r.before)
          .map((h) => ({ start: h.start + r.from, title: h.title })),
      );
      const whole = headingLines(text);
      return (
        JSON.stringify(found) === JSON.stringify(splitPassages(text, max, whole)) && JSON.stringify(headings) === JSON.stringify(whole)
      );
    }),
    { numRuns: 500, seed: 7 },
  );
  t.pass('the same passages and headings on 500 random texts with headings');
});

const ids = (s: string) => Uint32Array.from(tokenize(s).forms, termId);
const book = bookOf(3600, (i) => (i === 5 ? 'Devotion (1929 film)' : `Place ${i}`));
t.test('a short text is read as sections only when most of its headings name them', async (t) => {
  const stop = new Set(['the', 'and', 'for']);
  const sectionsOf = (parts: string[], metadata?: Record<string, unknown>) =>
    analyzeDocument(parts.join('\n\n'), metadata, stop).sections.map((s) => s.first);
  const generic = [
    'The Mill\nThe Mill stands by the river and has ground grain for a hundred years.',
    'Overview\nGrain came in from the farms all summer, more of it than the year before.',
    'History\nWater ran low in August, and the wheel stood still for a week.',
    'Legacy\nThe wheel turns still, and the miller sells flour at the market.',
  ];
  t.same(sectionsOf(generic), [], 'generic headings over paragraphs that never say them: read as before');
  const named = generic.map((p, i) => (i === 0 ? p : p.replace(/^\w+/, ['Grain', 'Water', 'Wheel'][i - 1])));
  t.same(sectionsOf(named), [0, 1, 2, 3], 'headings whose words recur in their paragraphs: a section under each');
  t.same(sectionsOf([named[0], generic[1], named[2], generic[3]]), [], 'half of them named is not most');
  const flour = named.map((p) => `${p} Flour came of it.`);
  t.same(
    [sectionsOf(flour), sectionsOf(flour, { title: 'Flour' })],
    [[0, 1, 2, 3], []],
    "a title given in the metadata that names most sections (an article's subtopics): read under it",
  );
  t.same(sectionsOf(named.map((p) => `${p} The mill is old.`)), [], 'the title line names most sections: read under it');
  t.same(
    sectionsOf([
      'Field Notes\nField notes kept by the survey over one summer.',
      'Insects\nAn insect count was taken at dawn on each day.',
      'Geology\nThe geologists found chalk under the topsoil.',
      'Armenia\nArmenian visitors came to see the survey in June.',
    ]),
    [0, 1, 2, 3],
    'a heading names its paragraph through another form of its word',
  );
  t.same(
    sectionsOf([
      '東京タワー\n東京タワーは港区にある電波塔です。',
      '富士山\n富士山は静岡県と山梨県にまたがる山です。',
      '大阪城\n大阪城は大阪市中央区にある城です。',
    ]),
    [0, 1, 2],
    'in a script written without spaces a heading is found inside its paragraph',
  );
});

const preface = 'This book opens with a plain paragraph long enough to be no heading of its own, as books do.';
const bookText = `${preface}\n\n${book.text}`;

t.test('a sectioned document: its sections through the encoding and the segment', async (t) => {
  t.same(
    analyzeDocument(bookOf(TITLES.minHeadings - 1).text, undefined, new Set()).sections,
    [],
    'a short text of few headings has no sections',
  );
  t.same(
    analyzeDocument(bookOf(TITLES.minHeadings, town).text, undefined, new Set()).sections.map((s) => s.first),
    [0, 1, 2],
    'a short text of minHeadings headings has a section under each',
  );
  const d = analyzeDocument(bookText, { title: 'The Book' }, new Set());
  t.equal(d.passages.length, 3601, 'a passage for the preface and each titled paragraph');
  t.equal(d.sections.length, 3601, 'a section for the preface and each heading');
  t.same(
    d.sections.slice(0, 3).map((s) => [s.first, [...s.title]]),
    [
      [0, [...ids('The Book')]],
      [1, [...ids('Place 0')]],
      [2, [...ids('Place 1')]],
    ],
    'the preface is a section titled by the document',
  );
  t.same([...d.title], [...ids('The Book')]);
  t.equal(d.sections[6].baseLen, 1, "a heading's base title leaves out its parenthetical");
  const tail = Array.from({ length: FEATURE_TEXT.docWindow + 1 }, (_, i) => `Paragraph ${i} goes on about the river, as it did.`);
  const long = analyzeDocument(`${book.text}\n\nA Line Alone\n\n${tail.join('\n\n')}`, { title: 'The Book' }, new Set());
  const last = long.sections[long.sections.length - 1];
  t.same(
    [long.sections.length, last.first, [...last.title]],
    [3601, 3600, [...ids('The Book')]],
    'a section longer than docWindow passages keeps the document title',
  );
  const dim = 4;
  const vecs = new Int8Array(dim * d.passages.length).fill(1);
  const scales = new Float32Array(d.passages.length).fill(1);
  const blob = encodeBlob(d, 77, dim, vecs, scales);
  const back = decodeBlob(blob, 77);
  t.same(
    back.sections.map((s) => [s.first, s.baseLen, [...s.title]]),
    d.sections.map((s) => [s.first, s.baseLen, [...s.title]]),
    'the sections round-trip',
  );
  // the format before sections: magic 'SVE1' and no section count
  const plain = analyzeDocument('Title\nOne sentence here.', undefined, new Set());
  const v2 = encodeBlob(plain, 77, dim, new Int8Array(dim), new Float32Array([1]));
  const headWords = 4 + 1 + plain.title.length + 1;
  const v1 = new Uint8Array(v2.length - 4);
  v1.set(v2.subarray(0, 4 * headWords));
  v1.set(v2.subarray(4 * headWords + 4), 4 * headWords);
  new DataView(v1.buffer).setUint32(0, 0x31455653, true);
  const old = decodeBlob(v1, 77);
  t.same(
    [old.sections, old.passages.length, [...old.passages[0].terms]],
    [[], 1, [...plain.passages[0].terms]],
    "an 'SVE1' blob reads without sections",
  );

  const built = buildSegment({ docs: [back], dim });
  const rt = await createEngineRuntime();
  const ptr = rt.heap.alloc(built.image.byteLength);
  rt.heap.views.write(ptr, new Uint8Array(built.image));
  const view = new SegmentView(rt.heap.views, ptr);
  t.same([...view.title(0)], [...ids('The Book')], 'a row before any heading: the document title');
  t.same([...view.title(6)], [...ids('Devotion (1929 film)')], "a row under a heading: the heading's title");
  t.same([view.sectionStart(0), view.sectionStart(1), view.sectionStart(6), view.baseLen(6)], [0, 1, 6, 1]);
  t.equal(view.titleLineLength(6), ids('Devotion (1929 film)').length, 'the passage opens with its title line');
  const again = buildSegment({ docs: [view.readDoc(0, view.nRows, built.rowStart, built.rowEnd)], dim });
  t.same(Buffer.from(again.image), Buffer.from(built.image), "a merge's readDoc builds the same segment");
  rt.heap.free(ptr);
});

t.test("in a sectioned document a section is the loop's unit and what the whole-document features read", async (t) => {
  const store = await openShippedStore([
    { id: 'short', text: 'Lisbon\nLisbon lies where the Tagus meets the sea.', metadata: {} },
    { id: 'book', text: bookText, metadata: {} },
    {
      id: 'report',
      text: [
        'The Mill Report\nThe Mill Report tells of the year at the mill by the river.',
        'Grain\nGrain came in from the farms all summer, more of it than the year before.',
        'Water\nWater ran low in August, and the wheel stood still for a week.',
      ].join('\n\n'),
      metadata: {},
    },
    {
      id: 'plain',
      text: Array.from({ length: 12000 }, (_, i) => `Sentence ${i} tells of river ${i % 5}.`).join(' '),
      metadata: {},
    },
  ]);
  t.teardown(() => store.close());
  const c = store.corpus();
  const rows = store.rowsOf('book');
  const plain = store.rowsOf('plain');
  t.ok(plain.length > FEATURE_TEXT.docWindow, 'a long document without headings');
  const units = new Set(rows.map((r) => c.docOf(r)));
  t.equal(units.size, rows.length, 'each section (one passage here) and the preface its own unit');
  t.notOk(units.has(c.docOf(store.rowsOf('short')[0])), "no unit shares a document's key");
  t.same(
    [c.docRows(rows[6]), c.docWindow(rows[6])],
    [
      [rows[6], 1],
      [rows[6], 1],
    ],
    "a section's rows, and what the whole-document features read",
  );
  t.same(
    [c.docRows(rows[0]), c.docWindow(rows[0])],
    [
      [rows[0], 1],
      [rows[0], 1],
    ],
    'the preface, under no heading, is a section of its own',
  );
  t.equal(new Set(plain.map((r) => c.docOf(r))).size, plain.length, 'no headings: each passage its own unit, as before');
  const report = store.rowsOf('report');
  t.same(
    [report.length, new Set(report.map((r) => c.docOf(r))).size, c.docRows(report[2]), c.docWindow(report[2])],
    [3, 3, [report[2], 1], [report[2], 1]],
    'a short document of minHeadings headings: each section its own unit',
  );
  const shortRow = store.rowsOf('short')[0];
  t.same(
    [c.docOf(shortRow), c.docRows(shortRow)],
    [c.documentOf(shortRow), [shortRow, 1]],
    'a short document of one heading: its own unit, as before',
  );
  const hits = store.search('Which river does Place 1200 lie by?', store.model.params.search as LoopParams, { maxResults: 5 }).hits;
  t.equal(hits[0]?.row, rows[1201], 'the heading names the passage: it is found first');
});
