// The model cache (SVC_MODEL_CACHE). Layout: `<cache>/<s3|gs>/<bucket>/<prefix>/<version>/` holds
// one verified model folder per remote URI; `<cache>/.tmp-<pid>-<rand>/` is a download in progress
// and `<cache>/.trash-<rand>/` a replaced folder being removed. Invariants: a cached folder is
// trusted only after loadModelFolder verifies every listed file (size and SHA-256) on each start;
// a download becomes visible under its final name only by one rename of a fully written, verified
// and fsynced temp folder, so a crash or network failure mid-download leaves at most a temp folder,
// which no start trusts and the next start removes (once its process is gone).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadModelFolder, ModelError } from '../engine/index.js';
import { fsyncDir } from '../fsync.js';
import type { ModelLog } from './download.js';
import { ModelSourceError } from './source-error.js';
import type { RemoteModel } from './types.js';

/** True when `dir` holds a model folder that verifies; a corrupt one is logged (and will be fetched again). */
export function cachedModelVerifies(dir: string, remote: RemoteModel, log: ModelLog): boolean {
  if (!fs.existsSync(path.join(dir, 'manifest.json'))) return false;
  try {
    loadModelFolder(dir);
    return true;
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    log.warn('cached model failed verification; fetching it again', { uri: remote.uri, dir, error: err.message });
    return false;
  }
}

function pidAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes what interrupted downloads and replacements left behind (not a live process's download). */
export function removeLeftovers(cacheDir: string): void {
  for (const name of fs.readdirSync(cacheDir)) {
    const tmp = /^\.tmp-(\d+)-[0-9a-f]+$/.exec(name);
    if ((tmp && !pidAlive(Number(tmp[1]))) || /^\.trash-[0-9a-f]+$/.test(name)) {
      fs.rmSync(path.join(cacheDir, name), { recursive: true, force: true });
    }
  }
}

/** Message of a verification error, with the temp folder replaced by the URI it came from. */
function asRemote(err: ModelError, tmp: string, remote: RemoteModel): ModelSourceError {
  const message = err.message.split(`${tmp}${path.sep}`).join(remote.uri).split(tmp).join(remote.uri);
  return new ModelSourceError(`cannot use model ${remote.uri}: ${message}`, err.fix, { cause: err });
}

/**
 * Fills a fresh temp folder with `fill`, verifies it as a model folder, and renames it to `final`
 * (moving a previous, failed copy out of the way first). The temp folder is removed on failure.
 */
export async function installModel(
  cacheDir: string,
  final: string,
  remote: RemoteModel,
  fill: (tmp: string) => Promise<void>,
): Promise<void> {
  const tmp = path.join(cacheDir, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  fs.mkdirSync(tmp);
  try {
    await fill(tmp);
    try {
      loadModelFolder(tmp);
    } catch (err) {
      throw err instanceof ModelError ? asRemote(err, tmp, remote) : err;
    }
    fsyncDir(tmp);
    fs.mkdirSync(path.dirname(final), { recursive: true });
    let trash: string | undefined;
    if (fs.existsSync(final)) {
      trash = path.join(cacheDir, `.trash-${randomBytes(6).toString('hex')}`);
      fs.renameSync(final, trash);
    }
    try {
      fs.renameSync(tmp, final);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
      if (!cachedModelVerifies(final, remote, { info() {}, warn() {} })) throw err;
    }
    fsyncDir(path.dirname(final));
    if (trash) fs.rmSync(trash, { recursive: true, force: true });
  } finally {
    // retried: a file the failed download was still closing must not replace its error with ENOTEMPTY
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
  }
}
