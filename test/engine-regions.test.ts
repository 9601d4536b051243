import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { type Engine, loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { createSharedMemory, ImageSpace, REGION_SPAN, regionOf, WasmHeap, WasmOutOfMemoryError } from '../src/engine/runtime/index.js';
import { benchRecords } from './helpers/server.js';

t.test('images go to the main memory up to its share, then to regions, up to the bound', async (t) => {
  const MiB = 2 ** 20;
  const main = new WasmHeap(createSharedMemory(), { heapBase: 1024, maxBytes: 16 * MiB });
  const space = new ImageSpace(main, { maxBytes: 40 * MiB, regionBytes: 8 * MiB, mainImageBytes: 4 * MiB });
  t.equal(space.bytesAvailable, 4 * MiB + 24 * MiB, 'room: the main memory up to its share, and the regions the bound leaves');
  const a = space.alloc(3 * MiB);
  t.equal(regionOf(a), 0, 'the main memory takes images up to mainImageBytes');
  const b = space.alloc(3 * MiB);
  t.equal(regionOf(b), 1, 'past it, a region');
  const c = space.alloc(3 * MiB);
  t.equal(regionOf(c), 1, 'the same region while it has room');
  const d = space.alloc(5 * MiB);
  t.equal(regionOf(d), 2, 'a new region when none has room');
  t.equal(space.memories.length, 2, 'the regions past the main memory');
  t.equal(space.sizeOf(c), 3 * MiB);
  space.write(c + 100, Uint8Array.from([7, 8, 9]));
  t.same([...space.u8At(c + 100, 3)], [7, 8, 9], 'an address reads and writes its own region');
  t.same([...new Uint8Array(space.memories[0].buffer, c - REGION_SPAN + 100, 3)], [7, 8, 9], 'at its offset there');
  t.throws(
    () => space.alloc(9 * MiB),
    { name: WasmOutOfMemoryError.name, message: /larger than a region/ },
    'an image larger than a region does not fit',
  );
  space.alloc(7 * MiB);
  t.throws(() => space.alloc(7 * MiB), { name: WasmOutOfMemoryError.name, message: /does not fit .* in use/ }, 'nor one past the bound');
  t.equal(space.heaps.length, 4, 'nothing was added for it');
  space.free(b);
  t.equal(space.sizeOf(b), undefined, 'a freed block is gone');
  t.equal(regionOf(space.alloc(3 * MiB)), 1, 'and its room taken again');
  t.throws(() => space.free(9 * REGION_SPAN), /no region/, 'an address in no region');
});

t.test('an image that fits the share of the main memory goes there, whether or not regions were made', async (t) => {
  const MiB = 2 ** 20;
  const main = new WasmHeap(createSharedMemory(), { heapBase: 1024, maxBytes: 16 * MiB });
  const space = new ImageSpace(main, { maxBytes: 40 * MiB, regionBytes: 8 * MiB, mainImageBytes: 8 * MiB });
  const a = space.alloc(6 * MiB);
  t.equal(regionOf(a), 0, 'the main memory takes the first image');
  t.equal(regionOf(space.alloc(5 * MiB)), 1, 'one past its share goes to a region');
  t.equal(space.bytesAvailable, (2 + 3 + 16) * MiB, 'room: the share left in the main memory, the region and the bound');
  t.equal(regionOf(space.alloc(MiB)), 0, 'a smaller image after it still goes to the main memory');
  t.equal(regionOf(space.alloc(2 * MiB)), 1, 'and one that does not fit the share left, to the region');
  space.free(a);
  t.equal(regionOf(space.alloc(6 * MiB)), 0, 'room a freed image left in the main memory is taken again');
  t.equal(space.heaps.length, 2, 'no region more than needed');
});

t.test('a bound of one memory keeps every image in it', async (t) => {
  const MiB = 2 ** 20;
  const main = new WasmHeap(createSharedMemory(), { heapBase: 1024, maxBytes: 16 * MiB });
  const space = new ImageSpace(main, { maxBytes: 16 * MiB, mainImageBytes: 4 * MiB });
  t.equal(space.bytesAvailable, main.bytesAvailable, 'all the main memory is room for images');
  for (let i = 0; i < 3; i++) t.equal(regionOf(space.alloc(4 * MiB)), 0);
  t.throws(() => space.alloc(4 * MiB), WasmOutOfMemoryError);
  t.equal(space.heaps.length, 1);
});

const docs = benchRecords<{ id: string; text: string }>('wiki-pool', 'corpus.jsonl', 3000);
const questions = benchRecords<{ query: string }>('hotpotqa-dev', 'queries.jsonl', 40).map((q) => q.query);

const model = readModelFolder(defaultModelUri());

async function storeOn(t: { teardown(f: () => void): void }, engine: Engine): Promise<MemoryStoreIndex> {
  const index = engine.createIndex() as MemoryStoreIndex;
  t.teardown(() => index.close());
  for (let i = 0; i < docs.length; i += 250) {
    index.apply(await engine.encode(docs.slice(i, i + 250).map((d) => ({ ...d, metadata: {} }))));
  }
  return index;
}

async function answers(index: MemoryStoreIndex): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of questions) {
    const r = await index.search({ query, maxHops: 4, maxResults: 10, trace: false }, () => undefined);
    out.push({ passages: r.passages.map((p) => [p.docId, p.start, p.score, p.hop]), confidence: r.confidence, hops: r.hopsUsed });
  }
  return out;
}

/** `index`'s snapshot read back into a new index of `engine` (closed when the test ends). */
async function readBack(
  t: { teardown(f: () => void): void; ok(v: unknown, m: string): void },
  index: MemoryStoreIndex,
  engine: Engine,
): Promise<MemoryStoreIndex> {
  const chunks: Uint8Array[] = [];
  await index.persist(async (c) => {
    chunks.push(c.slice());
  });
  const bytes = Buffer.concat(chunks);
  let at = 0;
  const back = engine.createIndex() as MemoryStoreIndex;
  t.teardown(() => back.close());
  t.ok(
    await back.restore((into) => {
      into.set(bytes.subarray(at, at + into.length));
      at += into.length;
    }),
    'the snapshot reads back',
  );
  return back;
}

const settled = async (index: MemoryStoreIndex) => {
  while (!index.settled) await new Promise((r) => setTimeout(r, 50));
};

t.test('a store spread over regions answers as one in the kernels memory', async (t) => {
  const one = await loadEngine({ model, threads: 2 });
  const spread = await loadEngine({ model, threads: 2, mainImageBytes: 0, regionBytes: 2 * 2 ** 20 });
  t.teardown(() => Promise.all([one.close(), spread.close()]));
  const [a, b] = [await storeOn(t, one), await storeOn(t, spread)];
  t.equal(one.memory.regions, 1, 'one memory holds the small store');
  t.ok(spread.memory.regions > 2, `the spread store's images lie in ${spread.memory.regions - 1} regions`);
  t.same(await answers(b), await answers(a), 'the same answers as ingested');
  await Promise.all([settled(a), settled(b)]);
  t.same(await answers(b), await answers(a), 'the same answers once merged');
  const gone = docs.filter((_, i) => i % 3 === 0).map((d) => d.id);
  for (const index of [a, b]) for (const id of gone) index.remove(id);
  t.same(await answers(b), await answers(a), 'the same answers with a third deleted');
  // a snapshot written from the regions and read back into them
  const back = await readBack(t, b, spread);
  t.same(await answers(back), await answers(a), 'the same answers from the snapshot');
});

t.test('a snapshot reads its images back largest first: two regions where the order they were made in needs three', async (t) => {
  const KiB = 1024;
  // two small images, then two large ones: in stream order the small ones share a region and each
  // large one takes one more; the largest first, each large one has room beside a small one
  const sizes = [70, 70, 120, 120];
  const from = await loadEngine({ model, threads: 1 });
  const into = await loadEngine({ model, threads: 1, mainImageBytes: 0, regionBytes: 256 * KiB });
  t.teardown(() => Promise.all([from.close(), into.close()]));
  const index = from.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  t.teardown(() => index.close());
  let at = 0;
  for (const n of sizes) {
    index.apply(await from.encode(docs.slice(at, at + n).map((d) => ({ ...d, metadata: {} }))));
    at += n;
  }
  t.equal(index.segmentCount, sizes.length, 'one segment a batch');
  const images = index.snapshot().segments.map((s) => s.nRows);
  t.ok(images[0] < images[2], `segments of ${images.join(', ')} rows`);
  const back = await readBack(t, index, into);
  t.equal(into.memory.regions - 1, 2, 'into two regions past the kernels memory');
  t.same(await answers(back), await answers(index), 'and answers as the store it was taken from');
});
