// A store's index, persisted beside its database (`index.snap`): opening the store then reads its
// segments back (the engine's StoreIndex.restore) instead of building them again from every
// document's encoding. A cache, stamped with the point of the store's change log it holds
// (store-db.ts changePoint): the caller reads it back only while the log still goes back to that
// point, and brings it up to date by the documents changed since. Its large blocks are read by
// several threads at once (parallel-read.ts). Written when a store closes and
// when it has been quiet a while (api/store-snapshot.ts); a compaction keeps it (the log is the
// same). Invariants: the file appears whole or not at all (written as a temporary file without
// blocking the thread, flushed, then renamed); writing it leaves at least SNAPSHOT_SPARE_BYTES free
// on the file system, and a failure to write it leaves no new file and is not an error of the store.
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir } from '../fsync.js';
import { FileReader, type FileReaderOptions } from './parallel-read.js';
import { freeBytes, MIN_FREE_BYTES } from './storage-error.js';

const FILE = 'index.snap';
const TMP = '.index.snap.tmp';
const MAGIC = 0x4e535653; // 'SVSN'
/** Room a snapshot leaves on its file system, beyond the bytes it takes: a cache never fills a disk. */
export const SNAPSHOT_SPARE_BYTES = 256 * 2 ** 20 + MIN_FREE_BYTES;

/** A snapshot file read from its start, in order: large reads go to several threads (parallel-read.ts). */
class SnapshotReader {
  private at = 0;
  private readonly file: FileReader;

  private constructor(
    file: string,
    private readonly fd: number,
    opts?: FileReaderOptions,
  ) {
    this.file = new FileReader(file, fd, opts);
  }

  /** A reader of the store's snapshot from its start, or undefined when its folder holds none. */
  static open(dir: string, opts?: FileReaderOptions): SnapshotReader | undefined {
    const file = path.join(dir, FILE);
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return undefined;
    }
    return new SnapshotReader(file, fd, opts);
  }

  /** Fills `into` whole from where the last read ended, or throws at the end of the file. */
  read(into: Uint8Array): void {
    this.file.read(into, this.at, () => new Error(`${FILE}: the file ends short of ${into.length} bytes at ${this.at}`));
    this.at += into.length;
  }

  close(): void {
    void this.file.close();
    fs.closeSync(this.fd);
  }
}

/** The stamp a snapshot file was written for, read from its head (the reader then after it). */
function readStamp(reader: SnapshotReader): string | undefined {
  const head = new Uint32Array(2);
  reader.read(new Uint8Array(head.buffer));
  if (head[0] !== MAGIC || head[1] > 1024) return undefined;
  const stamp = Buffer.alloc(head[1]);
  reader.read(stamp);
  return stamp.toString('utf8');
}

/**
 * Gives `restore` the stamp of the store's snapshot and a reader of the rest, when it has one, and
 * resolves to what restore resolved to (false: not read, as when there is none). What restore
 * throws is thrown. Each read fills its argument before it returns (restore may await between
 * reads; the file stays open until it settles). `opts` sets when and how reads go to several
 * threads (tests; PARALLEL_READ by default).
 */
export async function readIndexSnapshot(
  dir: string,
  restore: (stamp: string, read: (into: Uint8Array) => void) => Promise<boolean>,
  opts?: FileReaderOptions,
): Promise<boolean> {
  const reader = SnapshotReader.open(dir, opts);
  if (!reader) return false;
  try {
    const stamp = readStamp(reader);
    return stamp !== undefined && (await restore(stamp, (into) => reader.read(into)));
  } finally {
    reader.close();
  }
}

/** Whether the store's folder holds a snapshot written for `stamp` (one too short for its head holds none). */
export function hasIndexSnapshot(dir: string, stamp: string): boolean {
  const reader = SnapshotReader.open(dir);
  if (!reader) return false;
  try {
    return readStamp(reader) === stamp;
  } catch {
    return false;
  } finally {
    reader.close();
  }
}

/** Removes the store's snapshot (one that can never be read again), durably. */
export function removeIndexSnapshot(dir: string): void {
  fs.rmSync(path.join(dir, FILE), { force: true });
  fsyncDir(dir);
}

/** Links the snapshot of the store in `from` (if any) into `to`, the folder of its compacted copy. */
export function carryIndexSnapshot(from: string, to: string): void {
  try {
    fs.linkSync(path.join(from, FILE), path.join(to, FILE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * Writes the store's snapshot for `stamp`: `persist` gives the index's bytes in order (about
 * `bytes` in all). Returns the reason when it was not written (too little room, a file-system
 * error); what was begun is removed and any older snapshot left (it is stale, so never read).
 */
export async function writeIndexSnapshot(
  dir: string,
  stamp: string,
  bytes: number,
  persist: (sink: (b: Uint8Array) => Promise<void>) => Promise<void>,
): Promise<string | undefined> {
  const free = freeBytes(dir);
  if (free !== undefined && free < bytes + SNAPSHOT_SPARE_BYTES)
    return `${Math.round(free / 2 ** 20)} MiB free, ${Math.round(bytes / 2 ** 20)} needed`;
  const tmp = path.join(dir, TMP);
  try {
    const file = await fs.promises.open(tmp, 'w');
    try {
      const write = async (b: Uint8Array) => {
        for (let at = 0; at < b.length; ) at += (await file.write(b, at, b.length - at)).bytesWritten;
      };
      const text = Buffer.from(stamp, 'utf8');
      await write(new Uint8Array(new Uint32Array([MAGIC, text.length]).buffer));
      await write(text);
      await persist(write);
      await file.sync();
    } finally {
      await file.close();
    }
    fs.renameSync(tmp, path.join(dir, FILE));
    fsyncDir(dir);
    return undefined;
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    return String(err);
  }
}
