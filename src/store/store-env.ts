// The layout of a store's LMDB environment: its named databases and how each encodes its keys and
// values, the options every handle opens it with, and a compacted copy of it. Invariants: every
// module of the store layer opens an environment and its databases through here, so a copy holds
// exactly the databases a store has; an id longer than LMDB's largest key is never stored; a store
// too large for the page cache is opened without readahead (READ_AT_RANDOM).
import fs from 'node:fs';
import path from 'node:path';
import { type Database, type Key, open, type RootDatabase, type RootDatabaseOptionsWithPath } from 'lmdb';
import { fsyncDir, fsyncFile } from '../fsync.js';
import { memoryLimitBytes } from '../memory-limit.js';
import type { DocRecord, EncodingsDb, IdempotencyRecord } from './types.js';

const MAP_SIZE = 64 * 1024 ** 3; // address space only; the file grows with the data
// eventTurnBatching off: with it, lmdb-js leaves an internal promise of a failed commit unobserved,
// and Node stops the process on that unhandled rejection (a full disk would kill the server).
const ENV_OPTIONS = { maxDbs: 8, mapSize: MAP_SIZE, eventTurnBatching: false };
/** LMDB's largest key (lmdb-js builds it with 1978 bytes); a longer id cannot be stored, so it is absent. */
const MAX_KEY_BYTES = 1978;
export const storable = (id: string) => Buffer.byteLength(id) <= MAX_KEY_BYTES;

/** Entries a compaction's copy writes, or a trim of the change log removes, per write transaction (each yields to the event loop between them). */
export const COPY_BATCH = 2000;

/** The named databases of a store's environment, with how each encodes its keys and values. */
const DATABASES = {
  docs: {},
  text: { encoding: 'string' },
  enc: { encoding: 'binary' },
  'enc-b': { encoding: 'binary' },
  order: { keyEncoding: 'uint32', encoding: 'string' },
  idem: {},
  changes: { keyEncoding: 'uint32', encoding: 'string' },
} as const;
type DatabaseName = keyof typeof DATABASES;

const openDatabase = (root: RootDatabase, name: DatabaseName) => root.openDB<unknown, Key>(name, { ...DATABASES[name] });

/** A store's environment (its `root`, which also holds the store's metadata under `store`) and its databases, typed. */
export interface StoreDatabases {
  root: RootDatabase;
  docs: Database<DocRecord, string>;
  texts: Database<string, string>;
  encodings: Record<EncodingsDb, Database<Buffer, string>>;
  /** seq -> document id */
  order: Database<string, number>;
  idem: Database<IdempotencyRecord, string>;
  /** change key -> CHANGE kind + document id (change-log.ts) */
  changes: Database<string, number>;
}

/**
 * A store whose data file, when it opens, is larger than this share of the process's memory bound
 * (memory-limit.ts: its control group's limit, or the machine's memory) is read
 * without readahead (LMDB's MDB_NORDAHEAD): the page cache cannot hold it beside the index, and
 * what it reads most is at random (a search's texts, a document by id), where the kernel's readahead
 * reads up to the disk's read_ahead_kb around every page fault (8 MiB on some virtual disks: ten
 * texts then read 80 MiB). Reads of the whole store are slower without it from a cold cache (a
 * compaction's in key order; an export prefetches ahead of its reads); a store the page cache
 * holds keeps it.
 */
export const READ_AT_RANDOM = { memoryShare: 0.5 };

/** Whether a store of `dataBytes` is opened without readahead (READ_AT_RANDOM). */
export function readsAtRandom(dataBytes: number, memoryBytes = memoryLimitBytes()): boolean {
  return dataBytes > READ_AT_RANDOM.memoryShare * memoryBytes;
}

/** Opens (creating it when absent) the environment in `dir` (`memoryBytes`: the process's bound, for READ_AT_RANDOM; read only for a file that exists). */
export function openEnvironment(dir: string, memoryBytes?: number): RootDatabase {
  let dataBytes = 0;
  try {
    dataBytes = fs.statSync(path.join(dir, 'data.mdb')).size;
  } catch {
    // a new environment: LMDB creates the file
  }
  // lmdb-js reads noReadAhead (MDB_NORDAHEAD) though its types do not name it
  const options: RootDatabaseOptionsWithPath & { noReadAhead: boolean } = {
    path: dir,
    ...ENV_OPTIONS,
    noReadAhead: dataBytes > 0 && readsAtRandom(dataBytes, memoryBytes),
  };
  return open(options);
}

export function openDatabases(root: RootDatabase): StoreDatabases {
  return {
    root,
    docs: openDatabase(root, 'docs') as Database<DocRecord, string>,
    texts: openDatabase(root, 'text') as Database<string, string>,
    encodings: {
      enc: openDatabase(root, 'enc') as Database<Buffer, string>,
      'enc-b': openDatabase(root, 'enc-b') as Database<Buffer, string>,
    },
    order: openDatabase(root, 'order') as Database<string, number>,
    idem: openDatabase(root, 'idem') as Database<IdempotencyRecord, string>,
    changes: openDatabase(root, 'changes') as Database<string, number>,
  };
}

/** Bytes of the pages that hold live data across the environment's databases. */
export function livePageBytes(dbs: StoreDatabases): number {
  let pages = 0;
  let pageSize = 4096;
  const all = [dbs.root, dbs.docs, dbs.texts, dbs.encodings.enc, dbs.encodings['enc-b'], dbs.order, dbs.idem, dbs.changes] as Database[];
  for (const db of all) {
    const s = db.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number };
    pageSize = s.pageSize;
    pages += s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages;
  }
  return pages * pageSize;
}

/**
 * Writes a compacted copy of the environment `root` into `dir`, an empty folder: every database's
 * entries from one read snapshot, appended in key order into a new environment (full pages, none
 * free: a page-for-page copy would keep the half-empty pages deletes leave), then flushed and synced.
 */
export async function copyCompacted(root: RootDatabase, dir: string): Promise<void> {
  const transaction = root.useReadTransaction();
  const out = openEnvironment(dir);
  try {
    await out.put('store', root.get('store', { transaction }));
    for (const name of Object.keys(DATABASES) as DatabaseName[]) {
      const to = openDatabase(out, name);
      let batch: Array<[Key, unknown]> = [];
      const write = () => {
        out.transactionSync(() => {
          for (const [key, value] of batch) to.putSync(key, value, { append: true });
        });
        batch = [];
      };
      for (const { key, value } of openDatabase(root, name).getRange({ transaction })) {
        batch.push([key, value]);
        if (batch.length < COPY_BATCH) continue;
        write();
        await new Promise((r) => setImmediate(r));
      }
      write();
    }
    await out.flushed;
  } finally {
    transaction.done();
    await out.close();
  }
  fsyncFile(path.join(dir, 'data.mdb'));
  fsyncDir(dir);
}
