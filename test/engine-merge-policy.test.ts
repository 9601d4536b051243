// mergePlan (src/engine/segment/merge-policy.ts): segments are grouped in size tiers (powers of 4
// of their live rows); a tier with MERGE_FACTOR segments is merged (the smallest such tier, at most
// 2 * MERGE_FACTOR segments, in input order); otherwise a mostly-dead segment (> 64 rows, under half
// live) is merged with the smallest other segment. Hand-made cases cover tier boundaries, the
// precedence and the edge cases; a fast-check property applies plans until none is left and checks
// that rows are preserved and the segment count ends logarithmic in the store size.

import fc from 'fast-check';
import t from 'tap';
import { SEGMENTS } from '../src/engine/params.js';
import { mergePlan } from '../src/engine/segment/index.js';

const MERGE_FACTOR = SEGMENTS.mergeFactor;

interface Seg {
  name: string;
  nRows: number;
  liveRows: number;
}
const seg = (name: string, nRows: number, liveRows = nRows): Seg => ({ name, nRows, liveRows });
const names = (plan: Seg[] | undefined) => plan?.map((s) => s.name);
/** n segments with the given live rows (fully live), named prefix0, prefix1, ... */
const many = (prefix: string, n: number, rows: number | ((i: number) => number)) =>
  Array.from({ length: n }, (_, i) => seg(`${prefix}${i}`, typeof rows === 'number' ? rows : rows(i)));
/** Tier of a live-row count, computed independently: largest t with 4^t <= max(n, 1). */
const tierOf = (n: number) => {
  let k = 0;
  while (4 ** (k + 1) <= Math.max(n, 1)) k++;
  return k;
};

t.test('nothing to merge', async (t) => {
  t.equal(MERGE_FACTOR, 6);
  t.equal(mergePlan([]), undefined, 'no segments');
  t.equal(mergePlan([seg('a', 10)]), undefined, 'one segment');
  t.equal(mergePlan([seg('dead', 1000, 10)]), undefined, 'a single mostly-dead segment has no partner');
  t.equal(mergePlan(many('s', MERGE_FACTOR - 1, 20)), undefined, 'one short of MERGE_FACTOR in a tier');
  const spread = [1, 4, 16, 64, 256, 1024, 4096, 2, 5, 17, 65, 257, 1025, 4097].map((n, i) => seg(`x${i}`, n));
  t.equal(mergePlan(spread), undefined, 'two segments per tier in seven tiers');
});

t.test('a full tier is merged, in input order', async (t) => {
  const six = many('s', MERGE_FACTOR, (i) => 16 + 7 * i);
  t.same(names(mergePlan(six)), ['s0', 's1', 's2', 's3', 's4', 's5'], 'rows 16..51 all in tier 2');
  const plan = mergePlan(six)!;
  t.ok(
    plan.every((s, i) => s === six[i]),
    'the plan holds the very segment objects',
  );
  const mixed = [seg('big', 5000), ...many('s', MERGE_FACTOR, 3), seg('mid', 40)];
  t.same(names(mergePlan(mixed)), ['s0', 's1', 's2', 's3', 's4', 's5'], 'other tiers left out');
  const fifteen = many('s', 15, 2);
  t.same(
    names(mergePlan(fifteen)),
    many('s', 12, 2).map((s) => s.name),
    'at most 2 * MERGE_FACTOR: the first twelve',
  );
});

t.test('tier boundaries are powers of 4 of the live rows', async (t) => {
  for (const [lo, hi] of [
    [3, 4],
    [15, 16],
    [63, 64],
    [255, 256],
    [1023, 1024],
  ]) {
    const split = [...many('lo', MERGE_FACTOR - 1, lo), seg('hi', hi)];
    t.equal(mergePlan(split), undefined, `${lo} and ${hi} are in different tiers`);
    const same = [...many('a', MERGE_FACTOR - 1, hi), seg('top', 4 * hi - 1)];
    t.equal(mergePlan(same)?.length, MERGE_FACTOR, `${hi} and ${4 * hi - 1} share a tier`);
  }
  t.same(
    names(mergePlan([0, 1, 2, 3, 0, 3].map((n, i) => seg(`z${i}`, 10, n)))),
    ['z0', 'z1', 'z2', 'z3', 'z4', 'z5'],
    '0 to 3 live rows: tier 0 (and 10 rows is not enough to count as mostly dead)',
  );
});

t.test('tiers use live rows, not total rows', async (t) => {
  const shrunk = [16, 100, 1000, 10000, 20, 30].map((n, i) => seg(`p${i}`, n, Math.min(n, 20)));
  t.same(names(mergePlan(shrunk)), ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'], 'all hold 16..20 live rows (tier 2)');
  const sameSize = [1, 4, 16, 64, 1, 4].map((live, i) => seg(`q${i}`, 64, live));
  t.equal(mergePlan(sameSize), undefined, 'equal row counts, live rows in four tiers, none over 64 rows');
});

t.test('the smallest full tier wins', async (t) => {
  const big = many('b', MERGE_FACTOR, 300);
  const small = many('s', MERGE_FACTOR, 5);
  t.same(
    names(mergePlan([...big, ...small])),
    small.map((s) => s.name),
    'tier 1 before tier 4',
  );
  const interleaved = big.flatMap((b, i) => [b, small[i]]);
  t.same(
    names(mergePlan(interleaved)),
    small.map((s) => s.name),
    'whatever the order',
  );
});

t.test('mostly dead segments', async (t) => {
  const live = seg('live', 1000);
  t.same(names(mergePlan([live, seg('d', 100, 49), seg('tiny', 30, 2)])), ['d', 'tiny'], 'paired with the smallest other segment');
  t.equal(mergePlan([live, seg('half', 100, 50), seg('tiny', 30)]), undefined, 'exactly half live is not mostly dead');
  t.same(names(mergePlan([live, seg('d65', 65, 32)])), ['d65', 'live'], '65 rows, 32 live: mostly dead');
  t.equal(mergePlan([live, seg('d64', 64, 0)]), undefined, '64 rows or fewer never count as mostly dead');
  t.same(
    names(mergePlan([live, seg('d', 200, 1), seg('other', 500, 400)])),
    ['d', 'other'],
    'the dead segment is itself the smallest: the next smallest is its partner',
  );
  t.same(names(mergePlan([seg('d1', 300, 100), live, seg('d2', 300, 10)])), ['d1', 'd2'], 'the first mostly-dead segment in input order');
  const full = many('s', MERGE_FACTOR, 1000);
  t.same(
    names(mergePlan([seg('d', 5000, 1), ...full])),
    full.map((s) => s.name),
    'a full tier comes before dead space',
  );
});

t.test('extra fields are kept (generic segments)', async (t) => {
  const segs = many('s', MERGE_FACTOR, 8).map((s, i) => ({ ...s, base: 1024 * i }));
  t.same(
    mergePlan(segs)?.map((s) => s.base),
    [0, 1024, 2048, 3072, 4096, 5120],
  );
});

t.test('property: plans are well formed, and applying them converges to a logarithmic count', async (t) => {
  const segArb = fc
    .integer({ min: 1, max: 5000 })
    .chain((nRows) => fc.oneof(fc.constant(nRows), fc.integer({ min: 0, max: nRows })).map((liveRows) => ({ nRows, liveRows })));
  let merges = 0;
  fc.assert(
    fc.property(fc.array(segArb, { minLength: 0, maxLength: 80, size: 'max' }), (input) => {
      let segs: Seg[] = input.map((s, i) => seg(`i${i}`, s.nRows, s.liveRows));
      const total = segs.reduce((a, s) => a + s.liveRows, 0);
      for (let step = 0; ; step++) {
        if (step > 200) throw new Error('merging does not converge');
        const plan = mergePlan(segs);
        if (!plan) break;
        if (plan.length < 2 || plan.length > 2 * MERGE_FACTOR) throw new Error(`plan of ${plan.length} segments`);
        if (new Set(plan).size !== plan.length || !plan.every((s) => segs.includes(s)))
          throw new Error('plan is not a set of input segments');
        const tiers = new Set(plan.map((s) => tierOf(s.liveRows)));
        const deadFirst = plan.length === 2 && plan[0].nRows > 64 && plan[0].liveRows < plan[0].nRows / 2;
        if (tiers.size !== 1 && !deadFirst) throw new Error('a plan is one tier, or a mostly-dead segment and a partner');
        const live = plan.reduce((a, s) => a + s.liveRows, 0);
        segs = [...segs.filter((s) => !plan.includes(s)), seg(`m${step}`, live)];
        merges++;
      }
      if (segs.reduce((a, s) => a + s.liveRows, 0) !== total) throw new Error('rows lost');
      const perTier = new Map<number, number>();
      for (const s of segs) perTier.set(tierOf(s.liveRows), (perTier.get(tierOf(s.liveRows)) ?? 0) + 1);
      if ([...perTier.values()].some((n) => n >= MERGE_FACTOR)) throw new Error('a full tier is left');
      if (segs.length > (MERGE_FACTOR - 1) * (tierOf(total) + 1)) throw new Error(`${segs.length} segments for ${total} rows`);
      if (segs.length > 1 && segs.some((s) => s.nRows > 64 && s.liveRows < s.nRows / 2)) throw new Error('a mostly-dead segment is left');
    }),
    { numRuns: 300, seed: 0x3e7 },
  );
  t.ok(merges > 1000, `${merges} merges applied`);
});
