// What a search may return bounds what its question is taken to name: a title whose only rows are
// filtered out (or hidden, as in training's "answer not in the store" runs) is no title hit, and a
// word only such rows hold counts as unseen, exactly as when the document was never ingested.
import t from 'tap';
import type { TrainingStore } from '../src/train/harness.js';
import { openShippedStore } from './helpers/shipped-store.js';

const docs = [
  { id: 'film', text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent drama film directed by Guido Brignone.', metadata: {} },
  { id: 'director', text: 'Guido Brignone\nGuido Brignone was an Italian film director, father of the actress Lilla Brignone.', metadata: {} },
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
  const named = (s: TrainingStore, hidden: string[]) => s.searcher(hidden).query(question).hits.size;
  t.ok(named(full, []) > 0, 'the question names the film');
  t.equal(named(full, ['film']), 0, 'hidden: nothing named');
  t.equal(named(without, []), 0, 'never ingested: nothing named');
});

t.test('a word only filtered-out rows hold is unseen, as when never ingested', async (t) => {
  const unseen = (s: TrainingStore, hidden: string[]) => {
    const searcher = s.searcher(hidden);
    const q = searcher.query(question);
    return q.qt.filter((term) => !searcher.c.searchable(term)).length;
  };
  t.equal(unseen(full, []), 0);
  t.ok(unseen(full, ['film']) > 0, '"devotion" is only in the hidden film');
  t.equal(unseen(full, ['film']), unseen(without, []));
  t.equal(unseen(full, ['other']), 0, 'hiding a document whose words others hold too changes nothing');
});
