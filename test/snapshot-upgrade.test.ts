// An index snapshot written before a segment's terms were coded (FORMAT 1, SEG1 images: a u32 per
// term; test/helpers/seg1.ts writes it as that release did) is read and upgraded, not dropped for a
// build from every document: each image upgraded is the same bytes as a build of the same rows
// (random builds, 20,000 distinct terms, sections, empty rows, a tf past the postings' cap); an
// image that is not a whole earlier one is refused (before any block is taken, where its sections
// or its postings tell; a term missing from its dictionary, once the codes are being written); a
// persisted index of that format restores
// ('upgraded'), answers as the index it came from, and persists again as the same bytes; a
// server opens a store from such a snapshot, answers as before, and its close leaves one of
// today's format.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { buildSegment, type SegmentDoc, upgradeImage } from '../src/engine/segment/index.js';
import { rng } from './helpers/engine.js';
import { format1Stream, seg1Image } from './helpers/seg1.js';
import { logCapture, startTestServer } from './helpers/server.js';
import { untimed } from './helpers/untimed.js';

const passage = (i: number, terms: number[]) => ({
  start: i,
  end: i + 1,
  scale: 1 + i / 8,
  vec: Int8Array.from([i & 127, -(i & 63), 3]),
  terms: Uint32Array.from(terms),
  flags: Uint8Array.from(terms, (x) => x & 7),
});

/** The image `docs` build in today's layout, and that image written as the release before wrote it, upgraded. */
function bothWays(docs: SegmentDoc[]): { built: Uint8Array; upgraded: Uint8Array } {
  const built = new Uint8Array(buildSegment({ docs, dim: 3 }).image);
  let upgraded = new Uint8Array(0);
  const size = upgradeImage(seg1Image(built), (n) => (upgraded = new Uint8Array(n)));
  return { built, upgraded: upgraded.subarray(0, size) };
}

t.test('an image of the layout before is upgraded to the bytes a build of its rows writes', async (t) => {
  const r = rng(11);
  // 20,000 distinct terms, term i occurring about 20,000 / (i + 1) times: codes of one to three bytes
  const rows = Array.from({ length: 30 }, () => Array.from({ length: 1_500 }, () => Math.floor(20_000 ** r()) - 1));
  rows[0] = [...Array(20_000).keys()].map((i) => i * 7919 + 1);
  rows[5] = [];
  rows[6] = [...Array(300).fill(42), 43]; // a tf past the postings' cap of 255: counted from the sequences
  const many: SegmentDoc[] = [
    { title: Uint32Array.from([5, 6]), baseLen: 1, sections: [], passages: rows.slice(0, 20).map((terms, i) => passage(i, terms)) },
    {
      title: Uint32Array.from([7]),
      baseLen: 0,
      sections: [{ first: 4, title: Uint32Array.from([8, 9]), baseLen: 1 }],
      passages: rows.slice(20).map((terms, i) => passage(i, terms)),
    },
  ];
  const { built, upgraded } = bothWays(many);
  t.ok(upgraded.length < seg1Image(built).length, 'smaller than the image it came from');
  t.ok(Buffer.from(upgraded).equals(Buffer.from(built)), 'the same bytes as the build');
  const uncapped = bothWays([{ ...many[0], passages: many[0].passages.filter((_, i) => i !== 6) }]);
  t.ok(Buffer.from(uncapped.upgraded).equals(Buffer.from(uncapped.built)), 'and with every tf under the cap (summed from the postings)');

  const term = fc.oneof({ weight: 4, arbitrary: fc.nat(12) }, { weight: 1, arbitrary: fc.nat(0xffffffff) });
  const doc = fc.record({
    title: fc.array(fc.nat(6), { maxLength: 4 }),
    baseLen: fc.nat(4),
    passages: fc.array(fc.array(term, { maxLength: 12 }), { maxLength: 3 }),
  });
  fc.assert(
    fc.property(fc.array(doc, { maxLength: 8 }), (input) => {
      const docs: SegmentDoc[] = input.map((d) => ({
        title: Uint32Array.from(d.title),
        baseLen: d.baseLen,
        sections: [],
        passages: d.passages.map((terms, i) => passage(i, terms)),
      }));
      const both = bothWays(docs);
      return Buffer.from(both.upgraded).equals(Buffer.from(both.built));
    }),
    { numRuns: 200, seed: 27 },
  );
  t.pass('random builds upgrade to the same bytes');
});

t.test('an image that is not a whole earlier one is refused', async (t) => {
  const built = new Uint8Array(
    buildSegment({ docs: [{ title: Uint32Array.from([1]), baseLen: 0, sections: [], passages: [passage(0, [4, 5, 4])] }], dim: 3 }).image,
  );
  const old = seg1Image(built);
  const place = () => {
    throw new Error('a block was asked for');
  };
  t.throws(() => upgradeImage(built, place), { name: 'SegmentUpgradeError' }, "today's image");
  t.throws(() => upgradeImage(old.subarray(0, 100), place), { name: 'SegmentUpgradeError' }, 'a header cut short');
  t.throws(
    () => upgradeImage(Uint8Array.from(old.subarray(0, old.length - 32)), place),
    { name: 'SegmentUpgradeError' },
    'sections cut short',
  );
  const wrongStarts = Uint8Array.from(old);
  const h = new Uint32Array(wrongStarts.buffer, 0, 54);
  new Uint32Array(wrongStarts.buffer, h[4 + 2 * 4], 2)[1] = 7; // row 0 ends past the terms
  t.throws(() => upgradeImage(wrongStarts, place), { name: 'SegmentUpgradeError' }, 'row starts that do not match the terms');
  const wrongTf = Uint8Array.from(old);
  new Uint32Array(wrongTf.buffer, new Uint32Array(wrongTf.buffer, 0, 54)[4 + 2 * 11], 1)[0] += 1; // a posting's tf one more
  t.throws(() => upgradeImage(wrongTf, place), { name: 'SegmentUpgradeError' }, 'postings that count other terms than the sequences');
  const unknown = Uint8Array.from(old);
  new Uint32Array(unknown.buffer, new Uint32Array(unknown.buffer, 0, 54)[4 + 2 * 5], 3)[2] = 6; // a term the dictionary lacks
  t.throws(() => upgradeImage(unknown, () => new Uint8Array(4096)), { name: 'SegmentUpgradeError' }, 'a term not in the dictionary');
});

t.test('a persisted index of the format before restores upgraded, answers the same, and persists as today', async (t) => {
  const engine = await loadEngine({ model: readModelFolder(defaultModelUri()), threads: 2 });
  t.teardown(() => engine.close());
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  for (let b = 0; b < 3; b++) {
    const batch = await engine.encode(
      Array.from({ length: 6 }, (_, i) => ({
        id: `u${b}-${i}`,
        text: `Upgrade ${b} ${i}\nA mill on the river Ux${i} grinds corn for the town of Tb${b}, and the ferry crosses at Fz${b + i}.`,
        metadata: { batch: b },
      })),
    );
    index.apply(batch);
  }
  index.remove('u1-2');
  const persisted = async (ix: MemoryStoreIndex) => {
    const chunks: Uint8Array[] = [];
    await ix.persist(async (bytes) => void chunks.push(bytes.slice()));
    return Buffer.concat(chunks);
  };
  const stream = await persisted(index);
  const old = format1Stream(stream);
  let at = 0;
  const restored = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  t.equal(
    await restored.restore((into) => {
      if (at + into.length > old.length) throw new Error('short stream');
      into.set(old.subarray(at, at + into.length));
      at += into.length;
    }),
    'upgraded',
  );
  t.equal(at, old.length, 'the whole stream read');
  t.equal(restored.segmentCount, index.segmentCount);
  const answers = async (ix: MemoryStoreIndex) =>
    (await ix.search({ query: 'mill river ferry town Tb2', maxHops: 3, maxResults: 20, trace: false }, () => undefined)).passages.map(
      (p) => [p.docId, p.score],
    );
  t.same(await answers(restored), await answers(index), 'the same passages and scores');
  t.ok((await persisted(restored)).equals(stream), 'persisted again: the stream the index it came from wrote');
  for (const ix of [index, restored]) ix.close();
});

t.test('a server opens a store from a snapshot of the format before, and its close leaves one of today', async (t) => {
  const docs = Array.from({ length: 30 }, (_, i) => ({
    id: `h${i}`,
    text: `Harbour ${i}\nHarbour ${i} shelters ${i % 4} trawlers behind the mole Mq${i}; its lighthouse was built in ${1800 + i}.`,
  }));
  const queries = [{ query: 'Which harbour has the mole Mq7?' }, { query: 'lighthouse trawlers harbour', max_hops: 3, return_trace: true }];
  const answers = async (api: { post(p: string, b: unknown): Promise<any> }) =>
    Promise.all(queries.map(async (q) => untimed(await api.post('/stores/s/search', q))));
  const first = await startTestServer(t);
  await first.api.post('/stores', { name: 's' });
  for (let i = 0; i < docs.length; i += 10) await first.api.post('/stores/s/documents', { documents: docs.slice(i, i + 10) });
  const before = await answers(first.api);
  const snap = path.join(first.server.services.registry.entry('default', 's').dir, 'index.snap');
  await first.close();
  // the snapshot file: its head (magic, the stamp's length), the stamp, then the index's stream
  const file = fs.readFileSync(snap);
  const headEnd = 8 + file.readUInt32LE(4);
  const formatOf = (f: Buffer) => f.readUInt32LE(headEnd + 4);
  t.equal(formatOf(file), 2);
  fs.writeFileSync(snap, Buffer.concat([file.subarray(0, headEnd), format1Stream(file.subarray(headEnd))]));

  const restart = async () => {
    const log = logCapture();
    const s = await startTestServer(t, { dataDir: first.dataDir, logger: log.logger });
    const opened = () => log.lines.filter((l) => l.msg === 'store opened' && l.store === 's').map((l) => [l.from, l.upgraded ?? false]);
    return { s, opened };
  };
  let { s, opened } = await restart();
  t.same(await answers(s.api), before, 'the same passages, scores, confidences and traces');
  t.same(opened(), [['snapshot', true]], 'read from the snapshot of the format before, upgraded');
  await s.close();
  t.equal(formatOf(fs.readFileSync(snap)), 2, "the close, though nothing was written, left one of today's format");
  ({ s, opened } = await restart());
  t.same(await answers(s.api), before);
  t.same(opened(), [['snapshot', false]], 'read as it is');
  await s.close();
});
