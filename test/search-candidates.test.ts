// The candidate caps of a hop (ranking/hops.ts, ranking/best-rows.ts, ranking/phrases.ts): bestRows picks what a full sort
// would (ties to the first in its list, -Infinity last), bestMentions keeps the longest, full, earliest
// mentions, and both keep everything when under their cap; a passage names only titles of rows a
// search may return, and none by a base title that more than FEATURE_TEXT.maxBaseTitles share.
import t from 'tap';
import { FEATURE_TEXT } from '../src/engine/params.js';
import { bestMentions, bestRows, type TitleHit, titleHits } from '../src/engine/ranking/index.js';
import { rng } from './helpers/engine.js';
import { DEVOTION, openShippedStore } from './helpers/shipped-store.js';

t.test('bestRows equals sorting by score (ties to the first in the list) and taking k', async (t) => {
  const r = rng(41);
  for (const n of [0, 1, 5, 40, 300])
    for (const k of [1, 2, 3, 10]) {
      const score = Float32Array.from({ length: n + 10 }, () => (r() < 0.1 ? -Infinity : Math.floor(r() * 8)));
      const rows = Array.from({ length: n }, () => Math.floor(r() * (n + 10)));
      const unique = [...new Set(rows)];
      const at = new Map(unique.map((row, i) => [row, i]));
      const want = [...unique].sort((a, b) => score[b] - score[a] || at.get(a)! - at.get(b)!).slice(0, k);
      t.same(bestRows(unique, score, k), want, `n ${n} k ${k}`);
      // a list in another order of ties (a search's: by document id, SearchCorpus.tieOrder)
      const tie = (a: number, b: number) => (a % 7) - (b % 7) || b - a;
      const inTie = [...unique].sort((a, b) => score[b] - score[a] || tie(a, b)).slice(0, k);
      t.same(bestRows([...unique].sort(tie), score, k), inTie, `n ${n} k ${k}, a list in a given tie order`);
    }
});

t.test('bestMentions keeps the longest, then full, then earliest mentions', async (t) => {
  const hit = (len: number, full: boolean, pos: number): TitleHit => ({ len, full, pos, capfrac: 1, key: 0, terms: new Uint32Array(len) });
  const hits = new Map<number, TitleHit>([
    [10, hit(1, true, 0)],
    [11, hit(3, false, 9)],
    [12, hit(3, true, 9)],
    [13, hit(2, true, 4)],
    [14, hit(2, true, 1)],
  ]);
  t.same(bestMentions(hits, 3), [12, 11, 14]);
  t.same(bestMentions(hits, 5), [10, 11, 12, 13, 14], 'under the cap: all, in mention order');
});

t.test('bestMentions equals sorting every mention and taking k, over thousands of tied mentions', async (t) => {
  const r = rng(47);
  for (const n of [0, 3, 30, 3000])
    for (const k of [1, 2, 16, 24]) {
      const hits = new Map<number, TitleHit>();
      while (hits.size < n) {
        const len = 1 + Math.floor(r() * 3);
        hits.set(Math.floor(r() * 1e6), {
          len,
          full: r() < 0.3,
          pos: Math.floor(r() * 5),
          capfrac: 1,
          key: 0,
          terms: new Uint32Array(len),
        });
      }
      const want = [...hits].sort(([ka, a], [kb, b]) => b.len - a.len || +b.full - +a.full || a.pos - b.pos || ka - kb).map(([key]) => key);
      t.same(bestMentions(hits, k), n <= k ? [...hits.keys()] : want.slice(0, k), `${n} mentions, k ${k}`);
    }
});

t.test('a passage names the titles of rows the search may return, and only those', async (t) => {
  const store = await openShippedStore([
    ...DEVOTION,
    { id: 'film2', text: 'Guido Brignone (film)\nGuido Brignone is a 1950 documentary film.', metadata: {} },
  ]);
  t.teardown(() => store.close());
  const [film] = store.rowsOf('film');
  const named = (hidden: string[]) => {
    const c = store.searcher(hidden).c;
    const { terms, flags } = c.seq(film);
    const keys = [...titleHits(c, terms, flags, c.titleLineLength(film), c.titleKey(film)).keys()];
    return keys.map((k) =>
      k === c.titleKey(store.rowsOf('director')[0]) ? 'director' : k === c.titleKey(store.rowsOf('film2')[0]) ? 'film2' : k,
    );
  };
  t.same(named([]).sort(), ['director', 'film2'], 'the person, and the film named after him (by its base title)');
  t.same(named(['director']), ['film2'], 'a hidden (dead) document is not named');
  t.same(named(['director', 'film2']), [], 'nor is any when every row bearing them is hidden');
});

t.test('a base title more titles share than FEATURE_TEXT.maxBaseTitles names only the title it is whole', async (t) => {
  const films = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `film-${i}`, text: `Guido Brignone (film ${i})\nGuido Brignone is a film.`, metadata: {} }));
  const named = async (n: number) => {
    const store = await openShippedStore([...DEVOTION, ...films(n)]);
    t.teardown(() => store.close());
    const c = store.searcher([]).c;
    const [film] = store.rowsOf('film');
    const { terms, flags } = c.seq(film);
    const keys = new Set(titleHits(c, terms, flags, c.titleLineLength(film), c.titleKey(film)).keys());
    return {
      director: keys.has(c.titleKey(store.rowsOf('director')[0])),
      films: Array.from({ length: n }, (_, i) => c.titleKey(store.rowsOf(`film-${i}`)[0])).filter((k) => keys.has(k)).length,
      size: keys.size,
    };
  };
  const cap = FEATURE_TEXT.maxBaseTitles;
  t.same(await named(cap), { director: true, films: cap, size: cap + 1 }, 'at the bound: the person and every film named after him');
  t.same(await named(cap + 1), { director: true, films: 0, size: 1 }, 'past it: the person only');
});

t.test("a title's rows come in tie order, whatever order their documents came in; hidden rows leave it", async (t) => {
  const r = rng(7);
  const copies = Array.from({ length: 40 }, (_, i) => ({
    id: `copy-${Math.floor(r() * 2 ** 32).toString(36)}-${i}`,
    text: 'Guido Brignone\nGuido Brignone was an Italian film director.',
    metadata: {},
  }));
  const store = await openShippedStore([...DEVOTION, ...copies]);
  t.teardown(() => store.close());
  const c = store.searcher([]).c;
  const key = c.titleKey(store.rowsOf('director')[0]);
  const rows = c.titles.rows(key);
  t.equal(rows.length, 41, 'every row bearing the title');
  t.same(
    rows,
    [...rows].sort((a, b) => c.tieOrder(a, b)),
    'in tie order (by document id), not by row',
  );
  t.notSame(
    rows,
    [...rows].sort((a, b) => a - b),
    'which is not the rows order here',
  );
  const hidden = [copies[3].id, 'director'];
  const h = store.searcher(hidden).c;
  const gone = new Set(hidden.flatMap((id) => store.rowsOf(id)));
  t.same(
    h.titles.rows(key),
    rows.filter((row) => !gone.has(row)),
    'the rows a search may return, in the same order',
  );
});
