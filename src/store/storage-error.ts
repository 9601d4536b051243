// Storage faults of the data dir, told apart from bugs. Invariants: a write that fails because the
// file system is full (ENOSPC, EDQUOT, LMDB's MDB_MAP_FULL, or EIO with almost no space left) or
// cannot be written (EROFS, EACCES, EPERM, EIO) surfaces as a StorageError naming the folder, never
// as an anonymous exception; lmdb-js reports a failed commit as 'Commit failed' with its cause in a
// `commitError` promise, which is always awaited here, so it is never left as an unhandled
// rejection (which would stop the process). A StorageError is thrown before or instead of a write,
// never after part of one: LMDB commits whole transactions or nothing.
import fs from 'node:fs';
import os from 'node:os';

export type StorageFault = 'full' | 'unavailable';

export class StorageError extends Error {
  constructor(
    readonly fault: StorageFault,
    /** errno name (ENOSPC, EROFS, …) or MDB_MAP_FULL. */
    readonly code: string,
    /** The folder the failed operation wrote to (a store folder or the data dir). */
    readonly dir: string,
    message: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

/** Free space every new LMDB environment needs: LMDB maps its lock file, and touching a page of a
 * sparse file on a full file system kills the process (SIGBUS) instead of failing a call. */
export const MIN_FREE_BYTES = 4 * 1024 * 1024;

const FULL = new Set(['ENOSPC', 'EDQUOT', 'MDB_MAP_FULL']);
const UNWRITABLE = new Set(['EROFS', 'EACCES', 'EPERM', 'EIO', 'EFBIG']);
const MDB_MAP_FULL = -30792;

/** Bytes available to this process on the file system holding `dir`, or undefined if unknown. */
export function freeBytes(dir: string): number | undefined {
  try {
    const s = fs.statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

function codeName(code: unknown): string | undefined {
  if (typeof code === 'string') return code;
  if (typeof code !== 'number') return undefined;
  if (code === MDB_MAP_FULL) return 'MDB_MAP_FULL';
  const hit = Object.entries(os.constants.errno).find(([, n]) => n === code);
  return hit?.[0];
}

function describe(fault: StorageFault, code: string, dir: string, action: string): string {
  return fault === 'full'
    ? `cannot ${action}: the file system holding ${dir} is full (${code})`
    : `cannot ${action}: ${dir} cannot be written (${code})`;
}

/** A StorageError for `code` at `dir`, or undefined when `code` is no storage fault. */
export function faultOf(code: string | undefined, dir: string, action: string): StorageError | undefined {
  if (!code || !(FULL.has(code) || UNWRITABLE.has(code))) return undefined;
  const free = freeBytes(dir);
  const fault: StorageFault = FULL.has(code) || (code === 'EIO' && free !== undefined && free < MIN_FREE_BYTES) ? 'full' : 'unavailable';
  return new StorageError(fault, code, dir, describe(fault, code, dir, action));
}

/**
 * Translates the failure of a write at `dir` into a StorageError when it is a storage fault
 * (resolving lmdb-js's `commitError`), and returns any other error unchanged.
 */
export async function storageError(err: unknown, dir: string, action: string): Promise<unknown> {
  if (err instanceof StorageError) return err;
  let cause: unknown = err;
  const commitError = (err as { commitError?: Promise<unknown> } | undefined)?.commitError;
  if (commitError && typeof commitError.then === 'function')
    cause = await commitError.then(
      () => err,
      (e: unknown) => e,
    );
  return faultOf(codeName((cause as { code?: unknown } | undefined)?.code), dir, action) ?? err;
}

/** Throws StorageError('full') when the file system holding `dir` has less than `need` bytes free. */
export function ensureFree(dir: string, need: number, action: string): void {
  const free = freeBytes(dir);
  if (free !== undefined && free < need) {
    throw new StorageError('full', 'ENOSPC', dir, `${describe('full', 'ENOSPC', dir, action)}: ${free} bytes free, ${need} needed`);
  }
}
