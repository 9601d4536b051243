// What a search may return bounds what its question is taken to name: a title whose only rows are
// filtered out (or hidden, as in training's "answer not in the store" runs) is no title hit, and a
// word only such rows hold counts as unseen, exactly as when the document was never ingested; and
// training's hidden documents leave the statistics (idf, lengths) as if they had never been there;
// hidden rows (the passages of one paragraph of a long document) are never returned, the rest of
// their document still is.
import t from 'tap';
import type { InProcessStore, LoopParams } from '../src/engine/index.js';
import { stem, termId } from '../src/engine/text/index.js';
import { openShippedStore } from './helpers/shipped-store.js';

const docs = [
  { id: 'film', text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent drama film directed by Guido Brignone.', metadata: {} },
  {
    id: 'director',
    text: 'Guido Brignone\nGuido Brignone was an Italian film director, father of the actress Lilla Brignone.',
    metadata: {},
  },
  { id: 'other', text: 'Silent film\nA silent film is a film with no synchronized recorded sound.', metadata: {} },
];
const full = await openShippedStore(docs);
const without = await openShippedStore(docs.filter((d) => d.id !== 'film'));
t.teardown(async () => {
  await full.close();
  await without.close();
});

const question = 'Who directed Devotion (1929 film)?';

t.test('a title whose rows are all filtered out is not named by the question', async (t) => {
  const named = (s: InProcessStore, hidden: string[]) => s.searcher(hidden).query(question).hits.size;
  t.ok(named(full, []) > 0, 'the question names the film');
  t.equal(named(full, ['film']), 0, 'hidden: nothing named');
  t.equal(named(without, []), 0, 'never ingested: nothing named');
});

t.test('a word only filtered-out rows hold is unseen, as when never ingested', async (t) => {
  const unseen = (s: InProcessStore, hidden: string[]) => {
    const searcher = s.searcher(hidden);
    const q = searcher.query(question);
    return q.qt.filter((term) => !searcher.c.searchable(term)).length;
  };
  t.equal(unseen(full, []), 0);
  t.ok(unseen(full, ['film']) > 0, '"devotion" is only in the hidden film');
  t.equal(unseen(full, ['film']), unseen(without, []));
  t.equal(unseen(full, ['other']), 0, 'hiding a document whose words others hold too changes nothing');
});

t.test('hidden documents leave the statistics and the whole search as if never ingested', async (t) => {
  const params = full.model.params.search as LoopParams;
  const film = termId(stem('film'));
  t.not(full.corpus().idf(film), without.corpus().idf(film), '"film" is rarer without the film');
  t.equal(full.corpus(['film']).idf(film), without.corpus().idf(film), 'hidden: the idf of a store without it');
  t.same(full.corpus(['film']).stats, without.corpus().stats, 'and its statistics');
  t.same(full.corpus(['nowhere']).stats, full.corpus().stats, 'hiding a document the store lacks changes nothing');
  for (const q of [question, 'Which silent films did Guido Brignone direct?', 'Who is the father of Lilla Brignone?']) {
    const run = (s: InProcessStore, hidden: string[]) => {
      const out = s.search(q, params, { hidden });
      return {
        hits: out.hits.map((h) => [s.docIdOf(h.row), h.score.toFixed(9), h.hop]),
        confidence: out.confidence.toFixed(9),
        hops: out.hopsUsed,
      };
    };
    t.same(run(full, ['film']), run(without, []), q);
  }
  full.corpus(['film', 'director']);
  t.ok(
    full.search(question, params).hits.some((h) => full.docIdOf(h.row) === 'film'),
    'the store itself is untouched: a later search finds the film',
  );
});

t.test('hidden rows: the passages of one paragraph of a long document, as training hides a paragraph', async (t) => {
  const para = (topic: string, n: number) =>
    Array.from({ length: n }, (_, i) => `The ${topic} of the valley is described in record ${i + 1} of the survey.`).join(' ');
  const text = `Valley survey\n\n${para('river', 14)}\n\n${para('castle', 14)}\n\n${para('forest', 14)}`;
  const long = await openShippedStore([{ id: 'survey', text, metadata: {} }, ...docs]);
  t.teardown(() => long.close());
  const rows = long.rowsOf('survey');
  t.ok(rows.length >= 3, `a long document of ${rows.length} passages`);
  const start = text.indexOf('The castle');
  const end = text.indexOf('\n\nThe forest');
  const castle = long.rowsWithin('survey', start, end);
  t.ok(castle.length >= 1 && castle.length < rows.length, 'some of its passages, not all');
  t.ok(
    castle.every((r) => long.passageText(r).includes('castle')),
    'each holds some of the paragraph',
  );
  t.same(long.rowsWithin('survey', end, end), [], 'an empty range holds no passage');
  const params = long.model.params.search as LoopParams;
  const asked = 'What does the survey say of the castle of the valley?';
  const seen = long.search(asked, params, { maxResults: 10 }).hits.map((h) => h.row);
  t.ok(
    castle.some((r) => seen.includes(r)),
    'asked as it is, the paragraph is found',
  );
  const without = long.search(asked, params, { maxResults: 10, hiddenRows: castle }).hits.map((h) => h.row);
  t.ok(without.length > 0 && without.every((r) => !castle.includes(r)), 'with its rows hidden, none of them is returned');
  t.ok(
    without.some((r) => long.docIdOf(r) === 'survey'),
    'the rest of the document still is',
  );
});
