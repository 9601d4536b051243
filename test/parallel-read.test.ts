// Large reads of a file into shared memory go to several threads at once (src/store/parallel-read.ts):
// every byte lands in its place from its own file position whatever thread read it, past the page
// cache or through it, nothing outside the range is written, a file that ends inside the range
// throws, and a view over memory that is not shared (or a small range) is read by the calling thread
// alone. The index snapshot reads its large blocks that way (src/store/index-snapshot.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { readIndexSnapshot, writeIndexSnapshot } from '../src/store/index.js';
import { FileReader, mostlyCached, PARALLEL_READ } from '../src/store/parallel-read.js';
import { tempDir } from './helpers/server.js';

const SMALL = { from: 1000, chunk: 4099, helpers: 2 };

function fileOf(t: { teardown(fn: () => void): void }, bytes: Buffer): { file: string; fd: number } {
  const file = path.join(tempDir(t), 'f.bin');
  fs.writeFileSync(file, bytes);
  const fd = fs.openSync(file, 'r');
  t.teardown(() => fs.closeSync(fd));
  return { file, fd };
}

const short = () => new Error('short');

/** Whether the file system under `file` reads past its page cache (O_DIRECT): not every one does (tmpfs). */
function directReadable(file: string): boolean {
  if (!fs.constants.O_DIRECT) return false;
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_DIRECT));
    return true;
  } catch {
    return false;
  }
}

for (const direct of ['always', 'never', 'uncached'] as const)
  t.test(
    `a large read into shared memory (past the page cache: ${direct}): every byte from its own position, nothing outside the range`,
    async (t) => {
      const bytes = crypto.randomBytes(1_000_003);
      const { file, fd } = fileOf(t, bytes);
      const reader = new FileReader(file, fd, { ...SMALL, direct });
      t.teardown(() => reader.close());
      const shared = new Uint8Array(new SharedArrayBuffer(bytes.length + 64)).fill(7);
      for (const [offset, length, position] of [
        [13, 900_001, 5],
        [0, bytes.length, 0],
        [1, 4099 * 3, 777],
        [2, 4099 * 2 + 1, bytes.length - 4099 * 2 - 1],
      ]) {
        shared.fill(7);
        reader.read(new Uint8Array(shared.buffer, offset, length), position, short);
        t.ok(
          Buffer.from(shared.buffer, offset, length).equals(bytes.subarray(position, position + length)),
          `${length} bytes at ${position}: as in the file`,
        );
        t.ok(
          shared.subarray(0, offset).every((b) => b === 7) && shared.subarray(offset + length).every((b) => b === 7),
          'nothing written outside the range',
        );
      }
      t.throws(
        () => reader.read(new Uint8Array(new SharedArrayBuffer(10_000)), bytes.length - 5_000, short),
        /short/,
        'past the end of the file',
      );
      if (direct === 'never') t.equal(reader.directChunks, 0, 'no chunk read past the page cache');
      else if (direct === 'uncached')
        t.pass(`${reader.directChunks} chunks read past the page cache (the file was just written: held or not, as the probes find)`);
      else if (directReadable(file)) t.ok(reader.directChunks > 0, `${reader.directChunks} chunks read past the page cache`);
      else t.equal(reader.directChunks, 0, 'a file system without direct reads: every chunk through the page cache');
    },
  );

/** The descriptors this process has open (Linux), or undefined where that cannot be listed. */
function openDescriptors(): number | undefined {
  try {
    return fs.readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

t.test('the helper threads read every chunk when the caller reads none, and close what they opened', async (t) => {
  const bytes = crypto.randomBytes(200_000);
  const { file, fd } = fileOf(t, bytes);
  const before = openDescriptors();
  const reader = new FileReader(file, fd, { ...SMALL, callerReads: false, direct: 'always' });
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
  reader.read(shared, 0, short);
  t.ok(Buffer.from(shared).equals(bytes), 'as in the file');
  t.throws(() => reader.read(new Uint8Array(new SharedArrayBuffer(10_000)), 195_000, short), /short/, 'a helper finds the end of the file');
  if (directReadable(file)) t.ok(reader.directChunks > 0, 'the helpers read past the page cache');
  await reader.close();
  t.equal(openDescriptors(), before, 'every descriptor the helpers opened is closed once they end');
});

t.test('a range is held by the page cache when at least half of its timed pages answered within the bound', async (t) => {
  const fast = PARALLEL_READ.cachedMicros;
  const slow = PARALLEL_READ.cachedMicros + 1;
  t.ok(mostlyCached([fast, fast, fast, fast]), 'every page at the bound');
  t.ok(mostlyCached([fast, slow, fast, slow]), 'half');
  t.notOk(mostlyCached([fast, slow, slow, slow]), 'a quarter');
  t.notOk(mostlyCached([slow, slow]), 'none');
});

t.test('a file that ends inside the range throws; small or unshared reads are the caller’s alone', async (t) => {
  const bytes = crypto.randomBytes(50_000);
  const { file, fd } = fileOf(t, bytes);
  const reader = new FileReader(file, fd, SMALL);
  t.teardown(() => reader.close());
  const shared = new Uint8Array(new SharedArrayBuffer(60_000));
  t.throws(() => reader.read(shared, 0, short), /short/, 'past the end, read by several threads');
  t.throws(() => reader.read(new Uint8Array(20_000), 40_000, short), /short/, 'past the end, read alone');
  const plain = new Uint8Array(30_000);
  reader.read(plain, 100, short);
  t.ok(Buffer.from(plain).equals(bytes.subarray(100, 30_100)), 'a view over memory that is not shared');
  const small = new Uint8Array(new SharedArrayBuffer(999));
  reader.read(small, 3, short);
  t.ok(Buffer.from(small).equals(bytes.subarray(3, 1002)), 'a range below the bound');
  reader.read(new Uint8Array(0), bytes.length, short);
  t.pass('an empty read at the end of the file reads nothing');
});

t.test('an index snapshot reads its large blocks by several threads, in order', async (t) => {
  const dir = tempDir(t);
  const parts = [crypto.randomBytes(10), crypto.randomBytes(300_001), crypto.randomBytes(20), crypto.randomBytes(1_000_000)];
  t.equal(
    await writeIndexSnapshot(dir, 'x', 1_300_031, async (write) => {
      for (const p of parts) await write(p);
    }),
    undefined,
  );
  const got: Buffer[] = [];
  t.ok(
    await readIndexSnapshot(
      dir,
      async (stamp, read) => {
        t.equal(stamp, 'x');
        for (const p of parts) {
          const into = new Uint8Array(new SharedArrayBuffer(p.length));
          read(into);
          got.push(Buffer.from(into));
        }
        return true;
      },
      SMALL,
    ),
  );
  t.ok(
    got.every((g, i) => g.equals(parts[i])),
    'each block as written',
  );
  await t.rejects(
    readIndexSnapshot(
      dir,
      async (_, read) => {
        read(new Uint8Array(new SharedArrayBuffer(1_400_000)));
        return true;
      },
      SMALL,
    ),
    /short/,
    'a block past the end of the file throws',
  );
});
