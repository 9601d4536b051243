// The store index on the real engine (shipped model, WASM kernels, worker pool): batches become
// segments, upserts and deletes take effect at once, many small batches are merged in the
// background without losing or resurrecting documents, filters restrict every hop, and an index
// rebuilt from the persisted encodings answers like the original, reading them as it builds.
import t, { type Test } from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { EngineContext, MemoryStoreIndex, SegmentBatch } from '../src/engine/index/index.js';
import type { StoredDocument } from '../src/engine/index.js';
import { loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { SEGMENTS } from '../src/engine/params.js';
import type { WasmHeap } from '../src/engine/runtime/index.js';
import { type BuiltSegment, buildOp, type SegmentTables } from '../src/engine/segment/index.js';

const engine = await loadEngine({ model: readModelFolder(defaultModelUri()), threads: 2 });
t.teardown(() => engine.close());
const noText = () => undefined;

const doc = (id: string, text: string, metadata: Record<string, string | number | boolean> = {}) => ({ id, text, metadata });
async function ingest(index: MemoryStoreIndex, docs: ReturnType<typeof doc>[], keep?: Map<string, StoredDocument>) {
  const batch = await engine.encode(docs);
  index.apply(batch);
  for (const d of batch.docs) keep?.set(d.id, { id: d.id, metadata: d.metadata, encoding: d.encoding });
}
const top = async (index: MemoryStoreIndex, query: string, extra: object = {}) =>
  (await index.search({ query, maxHops: 1, maxResults: 10, trace: false, ...extra }, noText)).passages.map((p) => p.docId);

/** Checks that `built` is, byte for byte, the segment the build op makes from these encodings (their header names the model). */
function sameAsBuild(t: Test, built: BuiltSegment | (SegmentTables & { inPlace: Uint8Array }), blobs: Uint8Array[]): void {
  const header = new DataView(blobs[0].buffer, blobs[0].byteOffset);
  const rebuilt = buildOp({} as never, { blobs, fingerprint: header.getUint32(4, true), dim: header.getUint32(8, true) });
  const image = 'image' in built ? new Uint8Array(built.image) : built.inPlace;
  t.same(image, new Uint8Array(rebuilt.image), 'the segment image');
  for (const k of ['rowDoc', 'rowStart', 'rowEnd', 'blen', 'tlen'] as const) t.same(built[k], rebuilt[k], k);
}

t.test('upsert and delete are visible to the next search', async (t) => {
  const index = engine.createIndex() as MemoryStoreIndex;
  await ingest(index, [doc('a', 'Alpha\nThe aardvark eats ants.'), doc('b', 'Beta\nThe badger digs burrows.')]);
  t.same(await top(index, 'aardvark'), ['a']);
  await ingest(index, [doc('a', 'Alpha\nThe albatross flies far.')]);
  t.same(await top(index, 'aardvark'), [], 'old version gone');
  t.same(await top(index, 'albatross'), ['a'], 'new version found');
  t.equal(index.passageCount, 2);
  index.remove('b');
  t.same(await top(index, 'badger'), []);
  t.equal(index.passageCount, 1);
  index.remove('missing');
  index.close();
});

t.test('many small batches merge in the background; nothing lost or resurrected', async (t) => {
  const index = engine.createIndex() as MemoryStoreIndex;
  const keep = new Map<string, StoredDocument>();
  for (let i = 0; i < 60; i++) {
    await ingest(
      index,
      [doc(`d${i}`, `Doc ${i}\nThis document mentions the unique marker zq${i}x and the word common.`, { parity: i % 2 })],
      keep,
    );
    if (i % 7 === 3) {
      index.remove(`d${i - 1}`);
      keep.delete(`d${i - 1}`);
    }
    if (i % 11 === 5)
      await ingest(index, [doc(`d${i - 2}`, `Doc ${i - 2} rewritten\nNow it says replaced${i - 2}.`, { parity: i % 2 })], keep);
  }
  for (let n = 0; n < 200 && index.mergeRunning; n++) await new Promise((r) => setTimeout(r, 20));
  t.ok(index.segmentCount < 20, `segments merged (${index.segmentCount} left of 60+ batches)`);
  t.equal(index.passageCount, keep.size, 'live rows equal live documents');
  for (const id of keep.keys()) {
    const i = Number(id.slice(1));
    const rewritten = (await top(index, `replaced${i}`)).includes(id);
    const original = (await top(index, `zq${i}x`)).includes(id);
    t.ok(rewritten !== original, `${id}: exactly one version searchable`);
  }
  for (let i = 0; i < 60; i++) if (!keep.has(`d${i}`)) t.same(await top(index, `zq${i}x`), [], `deleted d${i} stays deleted`);
  const evens = await index.search({ query: 'common', maxHops: 2, maxResults: 100, trace: false, filter: { parity: 0 } }, noText);
  t.ok(evens.passages.length > 0 && evens.passages.every((p) => p.metadata.parity === 0), 'filter holds across merged segments');

  const rebuilt = engine.createIndex() as MemoryStoreIndex;
  await rebuilt.load(keep.values());
  t.equal(rebuilt.passageCount, index.passageCount);
  t.same(await top(rebuilt, 'common marker'), await top(index, 'common marker'), 'rebuilt index answers the same');
  index.close();
  rebuilt.close();
});

t.test("an encode's segment and encodings, moved from the worker, equal a build from those encodings", async (t) => {
  const docs = Array.from({ length: 40 }, (_, i) => doc(`m${i}`, `Moved ${i}\nThe ${i}th document moves whole.\n\nA second passage ${i}.`));
  const batch = await engine.encode(docs);
  const [segment] = batch.segments as SegmentBatch[];
  const blobs = batch.docs.map((d) => d.encoding);
  t.ok(
    blobs.every((b) => b.byteLength > 0 && b.buffer instanceof ArrayBuffer),
    'every encoding arrived whole',
  );
  t.equal(new Set(blobs.map((b) => b.buffer)).size, blobs.length, 'each on a buffer of its own');
  sameAsBuild(t, segment.built, blobs);
});

t.test('a merge of segments equals a build from their documents, dead ones left out', async (t) => {
  const docs = (k: number) =>
    Array.from({ length: 30 }, (_, i) =>
      doc(`g${k}-${i}`, `Merged ${k} ${i}\nThe ${i}th document of batch ${k}.\n\nIts second passage ${i}.`),
    );
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  const keep = new Map<string, StoredDocument>();
  await ingest(index, docs(1), keep);
  await ingest(index, docs(2), keep);
  index.remove('g1-3');
  keep.delete('g1-3');
  const { ctx } = engine as unknown as { ctx: EngineContext }; // the merge op itself, on the index's own segments
  const { segments } = index.snapshot();
  t.equal(segments.length, 2, 'two segments');
  const sources = segments.map(({ base, dead, nRows, rowStart, rowEnd, rowSlot }) => ({ base, dead, nRows, rowStart, rowEnd, rowSlot }));
  const bytes = segments.reduce((n, s) => n + (ctx.heap.sizeOf(s.base) ?? 0), 0);
  // written in place, in a block of the sources' size holding garbage: the image is zeroed first, the rest left alone
  const ptr = ctx.heap.alloc(bytes);
  ctx.heap.views.u8At(ptr, bytes).fill(0xee);
  const { placed } = await ctx.mergeSegments(sources, { ptr, bytes });
  t.ok(placed.bytes < bytes, `the image (${placed.bytes} B) is smaller than its sources (${bytes} B)`);
  sameAsBuild(
    t,
    { ...placed, inPlace: ctx.heap.views.u8At(ptr, placed.bytes).slice() },
    [...keep.values()].map((d) => d.encoding),
  );
  t.ok(
    ctx.heap.views.u8At(ptr + placed.bytes, bytes - placed.bytes).every((b) => b === 0xee),
    'nothing written past the image',
  );
  await t.rejects(ctx.mergeSegments(sources, { ptr, bytes: placed.bytes - 16 }), /more than the/, 'a block too small is refused');
  ctx.heap.free(ptr);
  index.close();
});

t.test('a load reads the stored documents as it builds segments, never more than a chunk per worker ahead', async (t) => {
  const [one] = (await engine.encode([doc('x', 'Loaded\nThe load reads lazily.')])).docs;
  const total = SEGMENTS.loadChunk * 5 + 7;
  let mostPending = 0;
  function* stored(): Generator<StoredDocument> {
    for (let i = 0; i < total; i++) {
      mostPending = Math.max(mostPending, engine.pending);
      yield { id: `l${i}`, metadata: { i }, encoding: one.encoding };
    }
  }
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  await index.load(stored());
  t.ok(mostPending >= 1 && mostPending <= 3, `at most threads + 1 builds in flight while reading (${mostPending})`);
  t.equal(index.passageCount, total, 'every document loaded');
  t.equal(index.segmentCount, 6, 'one segment per chunk');
  t.same(await top(index, 'lazily', { filter: { i: total - 1 } }), [`l${total - 1}`], 'the last chunk is searchable');
  index.close();
});

t.test('a load that fails part way rejects with the failure, and the index closes', async (t) => {
  const [one] = (await engine.encode([doc('x', 'Loaded\nThe load reads lazily.')])).docs;
  const broken = one.encoding.slice();
  broken[4] ^= 0xff; // the model fingerprint
  function* stored(): Generator<StoredDocument> {
    for (let i = 0; i < SEGMENTS.loadChunk * 4; i++)
      yield { id: `f${i}`, metadata: {}, encoding: i === SEGMENTS.loadChunk * 2 ? broken : one.encoding };
  }
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  await t.rejects(index.load(stored()), 'the third chunk fails to build');
  index.close();
  t.equal(index.segmentCount, 0, 'closing frees what was installed');
});

t.test('searches running while merges install see consistent results', async (t) => {
  const index = engine.createIndex() as MemoryStoreIndex;
  const writes = (async () => {
    for (let i = 0; i < 40; i++) await ingest(index, [doc(`s${i}`, `Stable ${i}\nsteady state document number ${i}.`)]);
  })();
  let checks = 0;
  while (checks < 40) {
    const r = await index.search({ query: 'steady state document', maxHops: 2, maxResults: 50, trace: false }, noText);
    const ids = r.passages.map((p) => p.docId);
    t.equal(new Set(ids).size, ids.length, 'no document twice');
    checks++;
  }
  await writes;
  t.equal((await top(index, 'steady')).length, 10);
  index.close();
});

t.test('a search running while a merge installs still sees every document', async (t) => {
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  const n = 36; // under the hop-1 pool (40): every document can be returned
  let duringMerge = 0;
  for (let i = 0; i < n; i++) {
    await ingest(index, [doc(`m${i}`, `Merge ${i}\nA quarry of basalt number ${i}.`)]);
    for (let k = 0; k < 3; k++) {
      const merging = index.mergeRunning;
      const r = await index.search({ query: 'quarry basalt', maxHops: 1, maxResults: 100, trace: false }, noText);
      const ids = new Set(r.passages.map((p) => p.docId));
      if (ids.size !== i + 1) t.fail(`after ${i + 1} documents a search saw ${ids.size} (merge running: ${merging})`);
      if (merging) duringMerge++;
    }
  }
  t.ok(duringMerge > 0, `${duringMerge} of ${3 * n} searches ran while a merge was running; each saw every document`);
  index.close();
});

t.test('a store idle for a moment merges its small segments into one, answering the same', async (t) => {
  const index = engine.createIndex() as MemoryStoreIndex;
  const keep = new Map<string, StoredDocument>();
  // distinct term counts per document, so no two passages tie (ties go to the lower row, which a merge renumbers)
  const text = (i: number, j: number) =>
    `Idle ${i} ${j}\nA passage about ${'harbour '.repeat(i + 1)}and ${'lighthouse '.repeat(j + 1)}near cove${i}x${j}.`;
  for (let i = 0; i < 12; i++)
    await ingest(
      index,
      Array.from({ length: 3 }, (_, j) => doc(`i${i}-${j}`, text(i, j))),
      keep,
    );
  index.remove('i3-1');
  keep.delete('i3-1');
  const before = await index.search({ query: 'harbour lighthouse', maxHops: 2, maxResults: 20, trace: false }, noText);
  t.ok(index.segmentCount > 1, `written in several segments (${index.segmentCount})`);
  for (let n = 0; n < 150 && (index.segmentCount > 1 || index.mergeRunning); n++) await new Promise((r) => setTimeout(r, 20));
  t.equal(index.segmentCount, 1, 'one segment after the idle merge');
  t.equal(index.passageCount, keep.size, 'nothing lost, the deleted document not back');
  const after = await index.search({ query: 'harbour lighthouse', maxHops: 2, maxResults: 20, trace: false }, noText);
  t.same(
    after.passages.map((p) => [p.docId, p.score]),
    before.passages.map((p) => [p.docId, p.score]),
    'same answers, same scores',
  );

  const reopened = engine.createIndex() as MemoryStoreIndex;
  await reopened.load(keep.values());
  for (let n = 0; n < 150 && (reopened.segmentCount > 1 || reopened.mergeRunning); n++) await new Promise((r) => setTimeout(r, 20));
  t.equal(reopened.segmentCount, 1, 'a store loaded at start compacts too');
  const fixed = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  for (let i = 0; i < 3; i++) await ingest(fixed, [doc(`f${i}`, `Fixed ${i}\nno idle merge here.`)]);
  await new Promise((r) => setTimeout(r, 1500));
  t.equal(fixed.segmentCount, 3, 'compactWhenIdle: false keeps the segments as written');
  index.close();
  reopened.close();
  fixed.close();
});

t.test('reserve sets a batch memory aside, release and close give it back, apply installs in it', async (t) => {
  const heap = (engine as unknown as { ctx: { heap: { bytesInUse: number } } }).ctx.heap;
  const index = engine.createIndex() as MemoryStoreIndex;
  const before = heap.bytesInUse;
  const kept = await engine.encode([doc('r1', 'Reserve\nA reserved batch is installed.')]);
  index.reserve(kept);
  t.ok(heap.bytesInUse > before, 'the memory is set aside');
  const dropped = await engine.encode([doc('r2', 'Released\nA released batch leaves nothing.')]);
  const aside = heap.bytesInUse;
  index.reserve(dropped);
  index.release(dropped);
  t.equal(heap.bytesInUse, aside, 'release gives it back');
  index.release(dropped);
  t.equal(heap.bytesInUse, aside, 'twice is nothing more');
  index.apply(kept);
  t.equal(heap.bytesInUse, aside, 'apply installs the batch in what reserve set aside');
  t.same(await top(index, 'reserved batch'), ['r1']);
  t.notOk((await top(index, 'released batch')).includes('r2'), 'a released batch is not in the index');
  const pending = await engine.encode([doc('r3', 'Pending\nA batch reserved when the index closes.')]);
  index.reserve(pending);
  index.close();
  index.apply(pending);
  t.ok(heap.bytesInUse <= before, 'close gives back the segments and what was set aside');
});

t.test('a search running while documents are replaced and deleted answers from one state of the store', async (t) => {
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  const n = 12;
  await ingest(
    index,
    Array.from({ length: n }, (_, i) => doc(`w${i}`, `Walrus ${i}\nA walrus colony on shore number ${i}.`)),
  );
  const rewrite = await engine.encode([doc('w3', 'Walrus 3\nA walrus colony, since moved, on an ice floe.')]);
  const ask = () => index.search({ query: 'walrus colony', maxHops: 1, maxResults: 100, trace: false }, noText);
  for (const [what, write] of [
    ['replaced', () => index.apply(rewrite)],
    ['deleted', () => index.remove('w5')],
  ] as const) {
    const running = ask(); // its snapshot is taken now; the write lands while the worker searches
    write();
    const after = (await running).passages.map((p) => p.docId);
    const now = (await ask()).passages.map((p) => p.docId);
    t.same([...after].sort(), [...now].sort(), `a document ${what} during the search: the same documents as a search after it`);
  }
  const last = (await ask()).passages;
  t.equal(last.length, n - 1, 'every document but the deleted one');
  t.ok(
    last.some((p) => p.docId === 'w3' && p.end > 50),
    'the replaced document is found in its new version',
  );
  index.close();
});

t.test('rows that die while a task is in flight are flagged in a copy: a snapshot reads its flags as they were', async (t) => {
  const heap = (engine as unknown as { ctx: { heap: WasmHeap } }).ctx.heap;
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  await ingest(
    index,
    ['c0', 'c1', 'c2', 'c3'].map((id) => doc(id, `Copy ${id}\nA heron wades.`)),
  );
  const [seg] = index.snapshot().segments;
  const handed = seg.dead;
  const token = heap.pin(); // a search of that snapshot in flight
  index.remove('c0');
  t.not(seg.dead, handed, 'the segment flags the row in a copy');
  t.same([...heap.views.u8At(handed, 4)], [0, 0, 0, 0], 'the flags the snapshot handed out are unchanged');
  t.same([...heap.views.u8At(seg.dead, 4)], [1, 0, 0, 0], 'the copy has the row dead');
  const copy = seg.dead;
  index.remove('c1');
  t.equal(seg.dead, copy, 'no snapshot since the copy: the next row dies in it');
  heap.unpin(token);
  for (let n = 0; n < 100 && heap.stats().outstandingPins > 0; n++) await new Promise((r) => setTimeout(r, 20));
  t.equal(heap.stats().bytesRetired, 0, 'the old flags are freed once the task finishes');
  index.snapshot();
  index.remove('c2');
  t.equal(seg.dead, copy, 'no task in flight: flagged in place');
  t.same([...heap.views.u8At(seg.dead, 4)], [1, 1, 1, 0]);
  t.same(await top(index, 'heron'), ['c3']);
  index.close();
});

t.test('a search with a filter never returns a document whose metadata stopped matching it while it ran', async (t) => {
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  await ingest(
    index,
    Array.from({ length: 6 }, (_, i) => doc(`f${i}`, `Finch ${i}\nA finch sings at dawn number ${i}.`, { tag: 'keep' })),
  );
  const running = index.search({ query: 'finch sings', maxHops: 1, maxResults: 100, trace: false, filter: { tag: 'keep' } }, noText);
  index.setMetadata('f2', { tag: 'drop' });
  const got = (await running).passages;
  t.same(got.map((p) => p.docId).sort(), ['f0', 'f1', 'f3', 'f4', 'f5'], 'the document is not returned');
  t.ok(
    got.every((p) => p.metadata.tag === 'keep'),
    'every document returned matches the filter',
  );
  index.close();
});

t.test('an index persisted and restored answers as the original, and takes writes as before', async (t) => {
  const heap = (engine as unknown as { ctx: { heap: WasmHeap } }).ctx.heap;
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  for (let i = 0; i < 5; i++)
    await ingest(
      index,
      Array.from({ length: 4 }, (_, j) =>
        doc(
          `p${i}-${j}`,
          `Persist ${i} ${j}\nA passage about ${'otters '.repeat(i + 1)}and ${'rivers '.repeat(j + 1)}near weir${i}x${j}.`,
          {
            group: j % 2,
          },
        ),
      ),
    );
  index.remove('p1-1');
  await ingest(index, [doc('p2-2', 'Persist 2 2 rewritten\nNow about otters in a canal.', { group: 0 })]);
  index.setMetadata('p3-3', { group: 7, note: 'changed' });
  const chunks: Uint8Array[] = [];
  await index.persist(async (bytes) => {
    chunks.push(bytes.slice());
  });
  const stream = Buffer.concat(chunks);
  const reader = (from: Uint8Array) => {
    let at = 0;
    return (into: Uint8Array) => {
      if (at + into.length > from.length) throw new Error('short stream');
      into.set(from.subarray(at, at + into.length));
      at += into.length;
    };
  };
  const restored = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  // other work runs between the restore's parts (a large store's read takes seconds)
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  t.ok(await restored.restore(reader(stream)), 'restored');
  ticking = false;
  t.ok(
    index.segmentCount > 1 && turns >= index.segmentCount,
    `${turns} turns of the event loop while it read ${index.segmentCount} segments`,
  );
  t.equal(restored.passageCount, index.passageCount);
  t.equal(restored.segmentCount, index.segmentCount);
  const answers = async (ix: MemoryStoreIndex, filter?: Record<string, number>) =>
    (await ix.search({ query: 'otters rivers', maxHops: 2, maxResults: 20, trace: false, filter }, noText)).passages.map((p) => [
      p.docId,
      p.score,
      p.metadata,
    ]);
  t.same(await answers(restored), await answers(index), 'the same passages, scores and metadata');
  t.same(await answers(restored, { group: 1 }), await answers(index, { group: 1 }), 'a filter too');
  t.same(await top(restored, 'canal'), ['p2-2'], 'the replaced document in its new version');
  t.same(await top(restored, 'weir1x1'), [], 'the deleted one stays deleted');
  t.same(restored.idsMatching({ group: 7 }), ['p3-3'], 'metadata as it was last set');
  await ingest(restored, [doc('p0-0', 'Persist 0 0 again\nNow about herons.', { group: 0 }), doc('n1', 'New\nA new heron passage.')]);
  restored.remove('p4-3');
  t.same((await top(restored, 'herons heron')).sort(), ['n1', 'p0-0'], 'upserts after the restore');
  t.same(await top(restored, 'weir4x3'), [], 'a delete after the restore');
  t.equal(restored.passageCount, index.passageCount, 'one added, one removed');
  t.same(
    restored.idsMatching({ group: 0 }).sort(),
    ['p0-0', 'p0-2', 'p1-0', 'p1-2', 'p2-0', 'p2-2', 'p3-0', 'p3-2', 'p4-0', 'p4-2'].sort(),
  );

  const foreign = Buffer.from(stream);
  foreign.writeUInt32LE(99, 4); // another format
  const other = engine.createIndex() as MemoryStoreIndex;
  t.notOk(await other.restore(reader(foreign)), 'another format is not read');
  t.equal(other.passageCount, 0);
  const inUse = heap.bytesInUse;
  await t.rejects(other.restore(reader(stream.subarray(0, stream.length - 9))), /short stream/, 'a short stream throws');
  t.equal(heap.bytesInUse, inUse, 'and frees what it took');
  t.equal(other.passageCount, 0, 'the index stays empty');
  for (const ix of [index, restored, other]) ix.close();
});

t.test('persist writes the index as it was at the call, whatever writes land while it writes', async (t) => {
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  const docs = Array.from({ length: 12 }, (_, i) =>
    doc(`w${i}`, `Writing ${i}\nA passage about kestrels and quarry${i}.`, { side: i % 2 }),
  );
  for (let i = 0; i < 12; i += 4) await ingest(index, docs.slice(i, i + 4));
  const before = await top(index, 'kestrels', { max_results: 20 });
  const chunks: Uint8Array[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const persisted = index.persist(async (bytes) => {
    chunks.push(bytes.slice());
    await gate;
  });
  // while it is held at its first chunk: a delete in each segment, a replace, a metadata edit, a new document
  index.remove('w1');
  index.remove('w6');
  await ingest(index, [doc('w9', 'Writing 9 again\nNow about herons.', { side: 1 }), doc('w12', 'Writing 12\nKestrels over quarry12.')]);
  index.setMetadata('w4', { side: 9 });
  release();
  await persisted;
  const restored = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  const stream = Buffer.concat(chunks);
  let at = 0;
  t.ok(
    await restored.restore((into) => {
      into.set(stream.subarray(at, at + into.length));
      at += into.length;
    }),
  );
  t.same(await top(restored, 'kestrels', { max_results: 20 }), before, 'the documents as they were at the call');
  t.same(restored.idsMatching({ side: 9 }), [], 'and their metadata');
  t.same(await top(restored, 'herons'), [], 'the replace after it is not in it');
  t.not((await top(index, 'kestrels', { max_results: 20 })).join(), before.join(), 'the index itself took the writes');
  index.close();
  restored.close();
});
