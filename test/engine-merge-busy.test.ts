// A background merge the worker pool has no room for (a full queue: PoolBusyError) is tried again
// later from a timer and then runs; the main thread goes on serving meanwhile. Before, the merge was
// retried from the failed task's own callbacks, which run before any reply of the workers can come
// in: it failed again at once, forever, and the main thread spun without serving anything (the hang
// test/pool-saturation.test.ts met about once in fifteen CI runs). Real engine: one worker, no queue.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { loadEngine } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { SEGMENTS } from '../src/engine/params.js';

const engine = await loadEngine({ model: readModelFolder(defaultModelUri()), threads: 1, maxQueue: 0 });
t.teardown(() => engine.close());

const texts = new Map<string, string>();
const docs = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const doc = {
      id: `d${from + i}`,
      text: `Harbour ${from + i}\nThe harbour ${from + i} lies on the railway to town ${(from + i) % 7}, beside ships and cranes.`,
    };
    texts.set(doc.id, doc.text);
    return doc;
  });
const tick = () => new Promise((res) => setTimeout(res, 0));

t.test('a tiered merge refused by a busy pool runs once the pool has room, and the thread serves meanwhile', async (t) => {
  const index = engine.createIndex({ compactWhenIdle: false }) as MemoryStoreIndex;
  t.teardown(() => index.close());
  // mergeFactor small batches, each its own segment: the last one makes a tiered merge due
  const batches = [];
  for (let b = 0; b < SEGMENTS.mergeFactor; b++) batches.push(await engine.encode(docs(10 * b, 3)));
  for (const batch of batches.slice(0, -1)) index.apply(batch);
  t.equal(index.segmentCount, SEGMENTS.mergeFactor - 1, 'one segment short of a merge');

  const busy = engine.encode(docs(1000, 60)); // the one worker's only slot, taken
  index.apply(batches[batches.length - 1]); // the merge this write makes due finds the pool full
  t.equal(index.segmentCount, SEGMENTS.mergeFactor, 'not merged yet');
  t.notOk(index.settled, 'the merge is still due');
  await tick(); // a spinning thread never gets here: timers and the workers' replies wait behind it
  t.equal((await busy).docs.length, 60, "the task that held the pool finished: the thread took the worker's reply");

  for (let n = 0; n < 200 && !index.settled; n++) await new Promise((res) => setTimeout(res, 25));
  t.ok(index.settled, 'settled');
  t.ok(index.segmentCount < SEGMENTS.mergeFactor, `merged once the pool had room (${index.segmentCount} segments)`);
  t.equal(index.documentCount, 3 * SEGMENTS.mergeFactor, 'every document still there');
  const got = await index.search({ query: 'harbour 21', maxHops: 1, maxResults: 3, trace: false }, (id, start, end) =>
    texts.get(id)?.slice(start, end),
  );
  t.ok(
    got.passages.some((p) => p.docId === 'd21'),
    'searches the merged segment',
  );
});
