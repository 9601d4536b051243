// One server per data dir. The lock is a file `<dataDir>/.svc.lock` holding the owner's pid and a
// nonce. Invariants: the file appears whole (written to a temp file, then hard-linked into place,
// which fails if a lock exists), so no process ever reads a half-written lock; a lock whose pid no
// longer runs (a server killed with SIGKILL) is stale and taken over (so is one naming our own pid
// that this process does not hold: a container restarts its server as the same pid), by removing
// it under a takeover mutex only if it is still the stale lock that was read, so two servers taking
// over at once cannot both win. Two live servers on one data dir: the second is refused clearly.
// A data dir that cannot be written (read-only, permissions, full) is a StorageError.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { faultOf } from './storage-error.js';

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(`data dir is in use by another svc server (pid ${pid}, lock ${lockFile})`);
    this.name = 'DataDirLockedError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const heldHere = new Set<string>();

export interface DataDirLock {
  release(): void;
}

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Creates `file` holding `content`, whole, unless it exists; false when it exists. */
function create(file: string, content: string): boolean {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const fd = fs.openSync(tmp, 'wx');
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      // file systems without hard links: an exclusive copy (briefly empty while it is written)
      if (!NO_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
      fs.copyFileSync(tmp, file, fs.constants.COPYFILE_EXCL);
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Removes the lock at `file` if it still holds `stale`, under a takeover mutex (`.takeover`,
 * created exclusively), so that of several servers taking over at once only one removes it, and
 * none removes a lock another has just taken. A mutex older than 10 s was abandoned by a process
 * that died in these few lines, and is removed.
 */
function removeStale(file: string, stale: string): void {
  const mutex = `${file}.takeover`;
  try {
    fs.closeSync(fs.openSync(mutex, 'wx'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    try {
      if (Date.now() - fs.statSync(mutex).mtimeMs > 10_000) fs.rmSync(mutex, { force: true });
    } catch {
      // released meanwhile
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    return;
  }
  try {
    if (read(file) === stale) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(mutex, { force: true });
  }
}

function takeLock(dataDir: string, file: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const mine = `${process.pid} ${randomBytes(8).toString('hex')}\n`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (create(file, mine)) {
      heldHere.add(file);
      return {
        release() {
          heldHere.delete(file);
          try {
            if (read(file) === mine) fs.unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    }
    const seen = read(file);
    if (seen === undefined) continue;
    const pid = Number.parseInt(seen, 10);
    if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) throw new DataDirLockedError(file, pid);
    removeStale(file, seen);
  }
  throw new Error(`could not take the data dir lock ${file}: other servers keep taking it over`);
}

export function lockDataDir(dataDir: string): DataDirLock {
  const file = path.join(dataDir, '.svc.lock');
  if (heldHere.has(file)) throw new DataDirLockedError(file, process.pid);
  try {
    return takeLock(dataDir, file);
  } catch (err) {
    throw faultOf((err as NodeJS.ErrnoException).code, dataDir, 'take the data dir lock') ?? err;
  }
}
