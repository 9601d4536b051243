// FreeList (src/engine/runtime/free-list.ts), the heap's address-range bookkeeping: alignment
// checks, bump allocation under a limit, best fit over holes (with splitting), coalescing on
// release, space at the top given back to the bump region, double/invalid release refused, and a
// fast-check model test: after any sequence of allocations, releases and shrinks (a block's end
// given back), live blocks match a model, never overlap, are aligned, and the free list (and
// freeRanges) is exactly the maximal gaps below `top` (none ending at `top`).

import fc from 'fast-check';
import t from 'tap';
import { ALIGN, alignUp, FreeList } from '../src/engine/runtime/index.js';

/** Allocates in order, failing the test on a refusal. */
function allocAll(fl: FreeList, sizes: number[], limit = 1 << 20): number[] {
  return sizes.map((s) => {
    const p = fl.allocate(s, limit);
    if (p === undefined) throw new Error(`allocate(${s}) refused`);
    return p;
  });
}

const state = (fl: FreeList) => ({
  top: fl.top,
  live: fl.liveBytes,
  free: fl.freeBytes,
  liveBlocks: fl.liveBlocks,
  freeBlocks: fl.freeBlocks,
});

t.test('alignUp and the base check', async (t) => {
  t.equal(ALIGN, 16);
  t.same(
    [0, 1, 15, 16, 17, 32, 33].map((n) => alignUp(n)),
    [0, 16, 16, 16, 32, 32, 48],
    'rounds up to 16',
  );
  t.equal(alignUp(5, 8), 8, 'custom alignment');
  t.throws(() => new FreeList(8), RangeError, 'unaligned base refused');
  t.throws(() => new FreeList(1030), RangeError, 'unaligned base refused');
  const fl = new FreeList(1024);
  t.same(state(fl), { top: 1024, live: 0, free: 0, liveBlocks: 0, freeBlocks: 0 }, 'a new list is empty with top at base');
  t.equal(new FreeList(0).top, 0, 'base 0 is allowed');
});

t.test('bump allocation and the limit', async (t) => {
  const fl = new FreeList(64);
  t.equal(fl.allocate(32, 1000), 64, 'first block at base');
  t.equal(fl.allocate(16, 1000), 96, 'next block right after');
  t.same(state(fl), { top: 112, live: 48, free: 0, liveBlocks: 2, freeBlocks: 0 });
  t.equal(fl.sizeOf(64), 32);
  t.equal(fl.sizeOf(96), 16);
  t.equal(fl.sizeOf(80), undefined, 'inside a block is not a block');
  t.equal(fl.needed(48), 160, 'needed = top + size');
  t.equal(fl.allocate(48, 159), undefined, 'one byte short of the limit: refused');
  t.same(state(fl), { top: 112, live: 48, free: 0, liveBlocks: 2, freeBlocks: 0 }, 'a refusal changes nothing');
  t.equal(fl.allocate(48, 160), 112, 'ending exactly at the limit fits');
  t.equal(fl.top, 160);
});

t.test('release: sizes, double and invalid release, giving space back to the bump region', async (t) => {
  const fl = new FreeList(0);
  const [a, b, c] = allocAll(fl, [32, 48, 16]);
  t.same([a, b, c], [0, 32, 80]);
  t.equal(fl.release(b), 48, 'release returns the size');
  t.same(state(fl), { top: 96, live: 48, free: 48, liveBlocks: 2, freeBlocks: 1 }, 'a hole below top is free');
  const before = state(fl);
  t.equal(fl.release(b), undefined, 'double release refused');
  t.equal(fl.release(a + 16), undefined, 'address inside a live block refused');
  t.equal(fl.release(500), undefined, 'address above top refused');
  t.equal(fl.release(b + 16), undefined, 'address inside a free hole refused');
  t.same(state(fl), before, 'refused releases change nothing');
  t.equal(fl.release(c), 16, 'release the top block');
  t.same(
    state(fl),
    { top: 32, live: 32, free: 0, liveBlocks: 1, freeBlocks: 0 },
    'top block and the hole under it return to the bump region',
  );
  fl.release(a);
  t.same(state(fl), { top: 0, live: 0, free: 0, liveBlocks: 0, freeBlocks: 0 }, 'all released: back to base');
  t.equal(fl.allocate(64, 64), 0, 'space below top is reused from the base');
});

t.test('shrink: the end of a block given back, joined with the hole after it or the bump region', async (t) => {
  const fl = new FreeList(0);
  const [a, b, c] = allocAll(fl, [64, 64, 64]);
  fl.release(b);
  t.equal(fl.shrink(a, 16), 48, 'returns the bytes given back');
  t.same(fl.freeRanges(0), [[16, 128]], 'joined with the hole after it: one free block');
  t.equal(fl.sizeOf(a), 16);
  t.equal(fl.shrink(c, 32), 32, 'the top block');
  t.equal(fl.top, 160, 'its end back to the bump region');
  t.equal(fl.shrink(c, 64), 0, 'a size past the block changes nothing');
  t.equal(fl.shrink(100, 16), undefined, 'not a live block');
  t.throws(() => fl.shrink(a, 8), RangeError, 'not a multiple of ALIGN');
  t.throws(() => fl.shrink(a, 0), RangeError, 'empty');
  t.same(state(fl), { top: 160, live: 48, free: 112, liveBlocks: 2, freeBlocks: 1 });
});

t.test('coalescing with the hole before, after, and on both sides', async (t) => {
  const fl = new FreeList(0);
  const [a, b, c, d, e, guard] = allocAll(fl, [16, 32, 16, 64, 16, 16]);
  fl.release(a);
  fl.release(c);
  t.same([fl.freeBlocks, fl.freeBytes], [2, 32], 'two separate holes');
  fl.release(b);
  t.same([fl.freeBlocks, fl.freeBytes], [1, 64], 'b merges with the hole before and after it');
  t.equal(fl.allocate(64, 0), a, 'the merged hole serves a 64-byte block at a (no bump: limit 0)');
  fl.release(a);
  fl.release(e);
  t.same([fl.freeBlocks, fl.freeBytes], [2, 80]);
  fl.release(d);
  t.same([fl.freeBlocks, fl.freeBytes], [1, 144], 'a, b, c, d, e form one hole');
  t.equal(fl.top, guard + 16, 'top unchanged while the guard lives');
  fl.release(guard);
  t.same(state(fl), { top: 0, live: 0, free: 0, liveBlocks: 0, freeBlocks: 0 }, 'releasing the guard gives the whole hole back');
});

t.test('best fit: the smallest hole that fits, split when larger', async (t) => {
  const fl = new FreeList(0);
  // holes of 64, 32, 48 bytes (in that address order), separated by live guards
  const [h64, , h32, , h48] = allocAll(fl, [64, 16, 32, 16, 48, 16]);
  for (const h of [h64, h32, h48]) fl.release(h);
  const top = fl.top;
  t.equal(fl.allocate(32, top), h32, 'an exact 32-byte hole beats the earlier 64-byte one');
  t.equal(fl.allocate(16, top), h48, 'the 48-byte hole is the smallest that fits 16');
  t.same([fl.freeBlocks, fl.freeBytes], [2, 96], 'remainder of the split hole stays free');
  t.equal(fl.allocate(32, top), h48 + 16, 'the 32-byte remainder fits 32 exactly');
  t.equal(fl.allocate(80, top), undefined, 'no hole fits 80 and the limit forbids bumping');
  t.equal(fl.allocate(80, top + 80), top, 'bumps when no hole fits, even with holes left');
  t.equal(fl.allocate(64, top), h64, 'the 64-byte hole is used last');
  t.same(
    [fl.freeBlocks, fl.freeBytes, fl.liveBytes],
    [0, 0, 3 * 16 + 32 + 16 + 32 + 80 + 64],
    'no holes left; guards and the five blocks live',
  );
});

t.test('a block split from a hole coalesces back when released', async (t) => {
  const fl = new FreeList(0);
  const [big] = allocAll(fl, [128, 16]);
  fl.release(big);
  const x = fl.allocate(32, 0)!;
  const y = fl.allocate(32, 0)!;
  t.same([x, y], [0, 32], 'carved from the front of the hole');
  t.same([fl.freeBlocks, fl.freeBytes], [1, 64]);
  fl.release(x);
  t.same([fl.freeBlocks, fl.freeBytes], [2, 96], 'x is not adjacent to the remaining hole');
  fl.release(y);
  t.same([fl.freeBlocks, fl.freeBytes], [1, 128], 'y joins both neighbours: the original hole is whole again');
});

type Op =
  | { kind: 'alloc'; units: number }
  | { kind: 'free'; pick: number }
  | { kind: 'shrink'; pick: number; units: number }
  | { kind: 'bad'; pick: number; off: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('shrink' as const), pick: fc.nat(1000), units: fc.integer({ min: 1, max: 12 }) }) },
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 12 }).map((units) => ({ kind: 'alloc' as const, units })) },
  { weight: 4, arbitrary: fc.nat(1000).map((pick) => ({ kind: 'free' as const, pick })) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bad' as const), pick: fc.nat(1000), off: fc.integer({ min: 1, max: 8 }) }) },
);

/** Maximal gaps of [base, end) not covered by the sorted, disjoint live blocks. */
function gaps(base: number, live: [number, number][], end: number): [number, number][] {
  const out: [number, number][] = [];
  let at = base;
  for (const [p, s] of live) {
    if (p > at) out.push([at, p - at]);
    at = p + s;
  }
  if (end > at) out.push([at, end - at]);
  return out;
}

t.test('model check: random allocate/release sequences keep every invariant', async (t) => {
  const BASE = 256;
  const LIMIT = BASE + 64 * ALIGN;
  let checked = 0;
  fc.assert(
    fc.property(fc.array(op, { minLength: 1, maxLength: 150, size: 'max' }), (ops) => {
      const fl = new FreeList(BASE);
      const model = new Map<number, number>();
      const fail = (msg: string): never => {
        throw new Error(msg);
      };
      for (const o of ops) {
        const sorted = [...model].sort((x, y) => x[0] - y[0]);
        const holes = gaps(BASE, sorted, fl.top);
        if (o.kind === 'alloc') {
          const size = o.units * ALIGN;
          const fits = holes.filter(([, s]) => s >= size);
          const best = Math.min(...fits.map(([, s]) => s));
          const topBefore = fl.top;
          const p = fl.allocate(size, LIMIT);
          if (fits.length) {
            if (p === undefined || !fits.some(([h, s]) => h === p && s === best))
              fail(`allocate(${size}) = ${p}: not the start of a best-fit hole of ${best}`);
          } else if (topBefore + size <= LIMIT) {
            if (p !== topBefore) fail(`allocate(${size}) = ${p}: should bump at ${topBefore}`);
          } else if (p !== undefined) fail(`allocate(${size}) = ${p}: should be refused under the limit`);
          if (p !== undefined) model.set(p, size);
        } else if (o.kind === 'free') {
          if (sorted.length === 0) continue;
          const [p, s] = sorted[o.pick % sorted.length];
          if (fl.release(p) !== s) fail(`release(${p}) should return ${s}`);
          model.delete(p);
        } else if (o.kind === 'shrink') {
          if (sorted.length === 0) continue;
          const [p, s] = sorted[o.pick % sorted.length];
          const size = Math.min(s, o.units * ALIGN);
          if (fl.shrink(p, size) !== s - size) fail(`shrink(${p}, ${size}) of a block of ${s} should give back ${s - size}`);
          model.set(p, size);
        } else {
          // not a live block start: inside a block, a freed address, or above top
          const cands = [...sorted.map(([p]) => p + o.off * ALIGN), ...holes.map(([h]) => h), fl.top + o.off];
          const p = cands[o.pick % cands.length];
          if (model.has(p)) continue;
          const before = JSON.stringify(state(fl));
          if (fl.release(p) !== undefined) fail(`release(${p}) of a non-block accepted`);
          if (JSON.stringify(state(fl)) !== before) fail(`refused release(${p}) changed the state`);
        }
        // invariants against the model
        const live = [...model].sort((x, y) => x[0] - y[0]);
        live.forEach(([p, s], i) => {
          if (p % ALIGN || s % ALIGN) fail(`unaligned block ${p}+${s}`);
          if (p < BASE || p + s > fl.top) fail(`block ${p}+${s} outside [base, top=${fl.top})`);
          if (i > 0 && live[i - 1][0] + live[i - 1][1] > p) fail(`blocks overlap at ${p}`);
          if (fl.sizeOf(p) !== s) fail(`sizeOf(${p}) = ${fl.sizeOf(p)}, want ${s}`);
        });
        const last = live.length ? live[live.length - 1][0] + live[live.length - 1][1] : BASE;
        if (fl.top !== last) fail(`top ${fl.top} should be the end of the last live block ${last} (no free block at top)`);
        const want = gaps(BASE, live, fl.top);
        if (fl.liveBlocks !== live.length) fail('live block count');
        if (fl.liveBytes !== live.reduce((a, [, s]) => a + s, 0)) fail('live bytes');
        if (fl.freeBlocks !== want.length) fail(`free blocks ${fl.freeBlocks}, want ${want.length} maximal gaps (full coalescing)`);
        if (fl.freeBytes !== fl.top - BASE - fl.liveBytes) fail('free bytes must cover exactly the gaps below top');
        const ranges = fl.freeRanges(0).sort((x, y) => x[0] - y[0]);
        if (JSON.stringify(ranges) !== JSON.stringify(want.map(([h, s]) => [h, h + s]))) fail(`freeRanges ${JSON.stringify(ranges)}`);
        checked++;
      }
      for (const p of [...model.keys()]) fl.release(p);
      if (JSON.stringify(state(fl)) !== JSON.stringify({ top: BASE, live: 0, free: 0, liveBlocks: 0, freeBlocks: 0 }))
        fail(`not empty after releasing all: ${JSON.stringify(state(fl))}`);
    }),
    { numRuns: 300, seed: 0x5eed },
  );
  t.ok(checked > 10000, `invariants checked after ${checked} operations`);
});
