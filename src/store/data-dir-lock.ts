// One server per data dir. The lock is a file `<dataDir>/.svc.lock` created exclusively and
// holding the owner's pid; a lock whose pid no longer runs (a server killed with SIGKILL) is stale
// and taken over (so is one naming our own pid that this process does not hold: a container restarts
// its server as the same pid). Two live servers on one data dir: the second is refused clearly.
import fs from 'node:fs';
import path from 'node:path';

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

export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, '.svc.lock');
  if (heldHere.has(file)) throw new DataDirLockedError(file, process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      heldHere.add(file);
      return {
        release() {
          heldHere.delete(file);
          try {
            if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) throw new DataDirLockedError(file, pid);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take the data dir lock ${file}`);
}
