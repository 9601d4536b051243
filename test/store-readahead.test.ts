// A store too large for the page cache is opened without readahead (store-env.ts READ_AT_RANDOM):
// the rule by size, and a real LMDB environment opened each way, whose data mapping the kernel then
// marks for random reads ("rr" in /proc/self/smaps' VmFlags) or not, reads back what was written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { openEnvironment, READ_AT_RANDOM, readsAtRandom } from '../src/store/store-env.js';

t.test('past a share of the memory a store reads at random', async (t) => {
  const gib = 1024 ** 3;
  t.notOk(readsAtRandom(0, 8 * gib), 'a new store');
  t.notOk(readsAtRandom(READ_AT_RANDOM.memoryShare * 8 * gib, 8 * gib), 'at the share');
  t.ok(readsAtRandom(READ_AT_RANDOM.memoryShare * 8 * gib + 1, 8 * gib), 'past it');
  t.notOk(readsAtRandom(100 * 1024 ** 2), 'a store of 100 MiB on this machine');
});

/** VmFlags of this process's mapping of `file`, or undefined when it is not mapped. */
function mappingFlags(file: string): string[] | undefined {
  const lines = fs.readFileSync('/proc/self/smaps', 'utf8').split('\n');
  const at = lines.findIndex((l) => l.endsWith(` ${file}`));
  if (at < 0) return undefined;
  const flags = lines.slice(at + 1).find((l) => l.startsWith('VmFlags:'));
  return flags?.slice('VmFlags:'.length).trim().split(/\s+/);
}

t.test(
  'an environment opened without readahead reads what it holds',
  { skip: process.platform !== 'linux' && 'smaps is Linux only' },
  async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-readahead-'));
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    const first = openEnvironment(dir);
    const texts = first.openDB<string, string>('text', { encoding: 'string' });
    for (let i = 0; i < 200; i++) await texts.put(`d${i}`, `text ${i} `.repeat(50));
    await first.close();
    const file = fs.realpathSync(path.join(dir, 'data.mdb'));
    const size = fs.statSync(file).size;
    for (const [memory, random] of [
      [os.totalmem(), false],
      [size, true],
    ] as const) {
      const root = openEnvironment(dir, memory);
      const db = root.openDB<string, string>('text', { encoding: 'string' });
      t.equal(db.get('d7'), `text 7 `.repeat(50), `${random ? 'at random' : 'with readahead'}: a value read back`);
      t.equal([...db.getKeys()].length, 200, `${random ? 'at random' : 'with readahead'}: every key`);
      const flags = mappingFlags(file);
      t.ok(flags, 'the data file is mapped');
      t.equal(flags?.includes('rr'), random, random ? 'the mapping is advised random' : 'the mapping keeps readahead');
      await root.close();
    }
  },
);
