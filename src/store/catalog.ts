// Store folders on disk: `<dataDir>/<project>/<store-id>/` each holding one LMDB environment.
// Invariants: a store folder appears under its final name only once its metadata is durable
// (created as `.tmp-<id>` then renamed), and disappears from its final name before its files are
// removed (renamed to `.trash-<id>` first), so a crash at any moment leaves either a whole store or
// nothing that is mistaken for one. Leftover `.tmp-*`/`.trash-*` folders are removed on scan.
// Compaction writes a compacted copy as `.tmp-compact-<id>`, renames it `.compact-<id>` once it is
// whole and flushed, then swaps it in (the store to `.trash-…`, the copy to the store's name): a
// scan that finds `.compact-<id>` beside the store drops it (the swap never began), and one that
// finds it without the store finishes the swap, so a crash at any step leaves the store whole, old
// or compacted. The files of a store deleted or compacted away are removed off the event loop (a
// data file of gigabytes takes seconds to unlink). A closed store's folder may hold `summary.json`,
// its metadata and counts (readSummary).
// Only ids the service generated (`st_` + base32) and validated project names ever reach a path.
// A store is created only with MIN_FREE_BYTES free (a new LMDB environment on a full file system
// can kill the process); a create or delete the file system refuses throws a StorageError and
// leaves the catalog as it was.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir } from '../fsync.js';
import { carryIndexSnapshot } from './index-snapshot.js';
import { ensureFree, faultOf, MIN_FREE_BYTES, storageError } from './storage-error.js';
import { StoreDb } from './store-db.js';
import type { StoreMeta } from './types.js';

const STORE_ID_RE = /^st_[a-z2-7]{16}$/;

export function newStoreId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(16);
  let s = 'st_';
  for (const b of bytes) s += alphabet[b & 31];
  return s;
}

export function isStoreId(s: string): boolean {
  return STORE_ID_RE.test(s);
}

export function projectDir(dataDir: string, project: string): string {
  return path.join(dataDir, project);
}

/** Projects that have a folder in the data dir. */
export function listProjects(dataDir: string): string[] {
  if (!fs.existsSync(dataDir)) return [];
  return fs
    .readdirSync(dataDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^[a-z0-9_-]{1,64}$/.test(e.name))
    .map((e) => e.name);
}

const COMPACTED = '.compact-';

/** Finishes or drops the swaps of compactions a crash interrupted (see the header). */
function recoverCompactions(dir: string): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory() || !e.name.startsWith(COMPACTED) || !isStoreId(e.name.slice(COMPACTED.length))) continue;
    const final = path.join(dir, e.name.slice(COMPACTED.length));
    if (fs.existsSync(final)) fs.rmSync(path.join(dir, e.name), { recursive: true, force: true });
    else fs.renameSync(path.join(dir, e.name), final);
    fsyncDir(dir);
  }
}

/** The store folders of a project, after removing leftovers of interrupted creates, deletes and compactions. */
export function projectStoreDirs(dataDir: string, project: string): string[] {
  const dir = projectDir(dataDir, project);
  if (!fs.existsSync(dir)) return [];
  recoverCompactions(dir);
  const stores: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const full = path.join(dir, e.name);
    if (e.name.startsWith('.tmp-') || e.name.startsWith('.trash-')) {
      fs.rmSync(full, { recursive: true, force: true });
    } else if (isStoreId(e.name)) {
      stores.push(full);
    }
  }
  return stores;
}

/** What a closed store's summary file says: its metadata and counts when it closed. */
export interface StoreSummary {
  meta: StoreMeta;
  docs: number;
  bytes: number;
}

const SUMMARY = 'summary.json';

/** The size and modification time of a store's data file, which a summary is valid for. */
function dataStamp(dir: string): string {
  const st = fs.statSync(path.join(dir, 'data.mdb'));
  return `${st.size}:${st.mtimeMs}`;
}

/**
 * The summary a store's folder holds, or undefined (none, unreadable, or written for another state
 * of the data file: changed behind the server's back). A summary is written when a store closes
 * and removed when it opens, so one that exists describes the database beside it.
 */
export function readSummary(dir: string): StoreSummary | undefined {
  try {
    const s = JSON.parse(fs.readFileSync(path.join(dir, SUMMARY), 'utf8')) as StoreSummary & { data?: string };
    const whole = typeof s?.meta?.id === 'string' && Number.isInteger(s.docs) && Number.isInteger(s.bytes);
    return whole && s.data === dataStamp(dir) ? { meta: s.meta, docs: s.docs, bytes: s.bytes } : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a closed store's summary (a cache: a failure leaves none, and the store is read instead). */
export function writeSummary(dir: string, summary: StoreSummary): void {
  const tmp = path.join(dir, `.${SUMMARY}.tmp`);
  try {
    fs.writeFileSync(tmp, JSON.stringify({ ...summary, data: dataStamp(dir) }));
    fs.renameSync(tmp, path.join(dir, SUMMARY));
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

/** Removes a store's summary before it is opened (and may change). */
export function removeSummary(dir: string): void {
  fs.rmSync(path.join(dir, SUMMARY), { force: true });
}

/** Creates a store folder atomically and opens it. */
export async function createStore(dataDir: string, meta: StoreMeta): Promise<StoreDb> {
  if (!isStoreId(meta.id)) throw new Error(`refusing to create a store folder for id ${meta.id}`);
  const dir = projectDir(dataDir, meta.project);
  ensureFree(dataDir, MIN_FREE_BYTES, 'create a store');
  const tmp = path.join(dir, `.tmp-${meta.id}`);
  const final = path.join(dir, meta.id);
  fsStep(dataDir, 'create a store', () => {
    fs.mkdirSync(dir, { recursive: true });
    fs.mkdirSync(tmp);
  });
  try {
    await StoreDb.initialise(tmp, meta);
    fsStep(dir, 'create a store', () => {
      fs.renameSync(tmp, final);
      fsyncDir(dir);
    });
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw await storageError(err, dir, 'create a store');
  }
  return StoreDb.open(final);
}

/**
 * Takes a store away from its name durably: once this returns, a restart no longer sees it (the
 * folder is renamed into the trash and the parent fsynced; if the rename fails, nothing changed and
 * the error is thrown). Returns what finishes the removal (closing the database and deleting its
 * files), for the caller to run once no reader needs the database. A start removes what is left of
 * `.trash-*`.
 */
export function unlinkStore(db: StoreDb): () => Promise<void> {
  const parent = path.dirname(db.dir);
  const trash = path.join(parent, `.trash-${path.basename(db.dir)}-${randomBytes(4).toString('hex')}`);
  fsStep(parent, 'delete the store', () => fs.renameSync(db.dir, trash));
  try {
    fsyncDir(parent);
  } catch {
    // the rename is done; if it never reaches the disk, a crash brings the whole store back
  }
  return async () => {
    await db.close();
    try {
      // off the event loop: unlinking a data file of gigabytes takes seconds, and the server serves on
      await fs.promises.rm(trash, { recursive: true, force: true });
    } catch {
      // gone from its name already; the next start removes what is left of `.trash-*`
    }
  };
}

/**
 * Compacts a store: a copy without its free pages replaces it, crash-safely (see the header), and
 * is returned open. The caller keeps writes out and has nothing else read from `db` after the call
 * (its files are gone from the store's name; it stays readable until closed, and the caller closes
 * it once the readers it had are done). On an error before the swap the store is as it was.
 */
export async function compactStore(db: StoreDb): Promise<StoreDb> {
  const parent = path.dirname(db.dir);
  const id = path.basename(db.dir);
  const tmp = path.join(parent, `.tmp-compact-${id}`);
  const ready = path.join(parent, `${COMPACTED}${id}`);
  ensureFree(parent, db.sizeBytes() + MIN_FREE_BYTES, 'compact the store');
  try {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp);
    await db.copyCompacted(tmp);
    carryIndexSnapshot(db.dir, tmp);
    fs.renameSync(tmp, ready);
    fsyncDir(parent);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw await storageError(err, parent, 'compact the store');
  }
  const trash = path.join(parent, `.trash-${id}-${randomBytes(4).toString('hex')}`);
  try {
    fs.renameSync(db.dir, trash);
  } catch (err) {
    fs.rmSync(ready, { recursive: true, force: true });
    throw await storageError(err, parent, 'compact the store');
  }
  try {
    fs.renameSync(ready, db.dir);
  } catch (err) {
    fs.renameSync(trash, db.dir);
    throw await storageError(err, parent, 'compact the store');
  }
  fsyncDir(parent);
  const compacted = StoreDb.open(db.dir);
  try {
    await fs.promises.rm(trash, { recursive: true, force: true });
  } catch {
    // the next start removes what is left of `.trash-*`
  }
  return compacted;
}

/** Runs a file-system step, turning a storage fault (full, read-only) into a StorageError. */
function fsStep(dir: string, action: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    throw faultOf((err as NodeJS.ErrnoException).code, dir, action) ?? err;
  }
}
