// A tiered merge that cannot run for room (src/engine/index/merges.ts): its result needs a block no
// region can hold. The segments stay as they are and answer as before, the skip is logged once
// however many writes plan the same merge again, and a merge that can run still runs.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { SEGMENTS } from '../src/engine/params.js';
import { benchRecords } from './helpers/server.js';

const BATCH = 100;
const docs = benchRecords<{ id: string; text: string }>('wiki-pool', 'corpus.jsonl', BATCH * (SEGMENTS.mergeFactor + 4));
const model = readModelFolder(defaultModelUri());

const settled = async (index: MemoryStoreIndex) => {
  while (!index.settled) await new Promise((r) => setTimeout(r, 20));
};

t.test('a merge with no block for its result is skipped, and logged once', async (t) => {
  const logs: { msg: string; fields?: Record<string, unknown> }[] = [];
  const log = (msg: string, fields?: Record<string, unknown>) => logs.push({ msg, fields });
  // regions too small for a whole tier merged, each segment in one of its own
  const engine = await loadEngine({ model, threads: 1, mainImageBytes: 0, regionBytes: 2 ** 18, log });
  t.teardown(() => engine.close());
  // no idle merge: the tiered merges alone, planned after each write
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  t.teardown(() => index.close());
  const batch = (i: number) => docs.slice(i * BATCH, (i + 1) * BATCH).map((d) => ({ ...d, metadata: {} }));
  for (let i = 0; i < SEGMENTS.mergeFactor; i++) index.apply(await engine.encode(batch(i)));
  await settled(index);
  const skips = () => logs.filter((l) => l.msg.startsWith('segment merge skipped'));
  t.equal(index.segmentCount, SEGMENTS.mergeFactor, 'a full tier, unmerged');
  t.equal(skips().length, 1, 'the skip is logged');
  t.equal(skips()[0].fields?.segments, SEGMENTS.mergeFactor, 'with the segments it would have merged');
  const query = docs[0].text.split('\n')[0];
  const before = await index.search({ query, maxHops: 2, maxResults: 5, trace: false }, () => undefined);
  t.equal(before.passages[0]?.docId, docs[0].id, 'the store answers');

  // single documents: each a write that plans the same merge again, until the small tier is full
  for (let i = 0; i < SEGMENTS.mergeFactor - 1; i++) {
    index.apply(await engine.encode([{ ...docs[SEGMENTS.mergeFactor * BATCH + i], metadata: {} }]));
    await settled(index);
  }
  t.equal(skips().length, 1, 'the same merge planned again after each write is not logged again');
  index.apply(await engine.encode([{ ...docs[SEGMENTS.mergeFactor * BATCH + SEGMENTS.mergeFactor], metadata: {} }]));
  await settled(index);
  t.equal(index.segmentCount, SEGMENTS.mergeFactor + 1, 'the small tier, once full, is merged into one');
  t.equal(skips().length, 1, 'nor after a merge that ran');
  const after = await index.search({ query, maxHops: 2, maxResults: 5, trace: false }, () => undefined);
  t.equal(after.passages[0]?.docId, docs[0].id, 'the store answers as before');
});
