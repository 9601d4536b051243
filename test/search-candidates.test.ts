// The candidate caps of a hop (ranking/hops.ts, ranking/phrases.ts): bestRows picks what a full sort
// would (ties to the lower row, -Infinity last), bestMentions keeps the longest, full, earliest
// mentions, and both keep everything when under their cap.
import t from 'tap';
import { bestMentions, bestRows, type TitleHit } from '../src/engine/ranking/index.js';
import { rng } from './helpers/engine.js';

t.test('bestRows equals sorting by score (ties to the lower row) and taking k', async (t) => {
  const r = rng(41);
  for (const n of [0, 1, 5, 40, 300])
    for (const k of [1, 2, 3, 10]) {
      const score = Float32Array.from({ length: n + 10 }, () => (r() < 0.1 ? -Infinity : Math.floor(r() * 8)));
      const rows = Array.from({ length: n }, () => Math.floor(r() * (n + 10)));
      const unique = [...new Set(rows)];
      const want = [...unique].sort((a, b) => score[b] - score[a] || a - b).slice(0, k);
      t.same(bestRows(unique, score, k), want, `n ${n} k ${k}`);
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
