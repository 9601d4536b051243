// One contender of the data-dir lock race in data-dir-lock.test.ts: waits until the file `go`
// exists (so every contender starts at once), tries lockDataDir (the compiled dist/ module), and
// prints `won` (then holds the lock until stdin closes) or `lost <error name>`.
// Usage: node lock-racer.mjs <dataDir> <goFile>
import fs from 'node:fs';
import { lockDataDir } from '../../dist/store/data-dir-lock.js';

const [dir, go] = process.argv.slice(2);
while (!fs.existsSync(go)) await new Promise((r) => setImmediate(r));
try {
  const lock = lockDataDir(dir);
  process.stdout.write('won\n');
  process.stdin.resume().on('end', () => {
    lock.release();
    process.exit(0);
  });
} catch (err) {
  process.stdout.write(`lost ${err.name}\n`);
}
