// The registry's records of a store (store-registry.ts): the catalog entry every store has, open or
// not, what an open store holds, and the lease a request holds on one. Plain data; the registry
// and its upkeep (store-maintenance.ts) alone change them.
import type { StoreIndex } from '../engine/index.js';
import type { StoreDb, StoreMeta } from '../store/index.js';
import type { Mutex } from './mutex.js';

/** A store while it is open: its database, its index, its write mutex; `closed` once deleted or closed. */
export interface OpenStore {
  db: StoreDb;
  index: StoreIndex;
  lock: Mutex;
  closed: boolean;
  /** a background snapshot (store-snapshot.ts): queued for the mutex, the write under way, the change-log key last tried */
  snapshotQueued?: boolean;
  snapshotting?: Promise<void>;
  snapshotTried?: number;
  /**
   * the snapshot beside the database is not of this index: one that did not fit the engine memory
   * when the store opened, kept for a larger bound; the next snapshot replaces it, stamp or not
   */
  snapshotUnread?: boolean;
  /**
   * the index's segments when the snapshot beside the database was read or taken: merges since (no
   * write, so the same stamp) make the next close leave a new one, or every open would read the
   * unmerged segments and merge them again
   */
  snapshotSegments?: number;
}

/** A store of the catalog, open or not. */
export interface StoreEntry {
  dir: string;
  meta: StoreMeta;
  /** while open */
  open?: OpenStore;
  /** the open, or the close, under way */
  opening?: Promise<OpenStore>;
  closing?: Promise<void>;
  /** leases held (the sum of leasesByEpoch), and when the last one was taken or released (ms) */
  readonly leases: number;
  lastUsed: number;
  /** compactions so far: a lease is of the epoch it was taken in, and holds the databases of that epoch */
  epoch: number;
  leasesByEpoch: Map<number, number>;
  /**
   * what waits for the leases taken before epoch `until`: closing a database a compaction replaced,
   * removing a deleted store
   */
  retired: Array<{ until: number; dispose: () => Promise<void> }>;
  /** documents and bytes on disk as of its last close (live figures while open) */
  counts: { docs: number; bytes: number };
  deleted: boolean;
  /** the bytes of its data file its database held mapped in when it was found to be too many: it is reopened once no lease holds it */
  remapDue?: number;
  /** its last open failed for the engine memory: the bytes the engine held then, and the error (store-registry.ts acquire) */
  openRefused?: { held: number; err: unknown };
}

/** A store held open for one request: release it when the request is done (its response written). */
export interface Lease {
  store: OpenStore;
  release(): void;
}

/** A catalog entry for the store in `dir`, closed. */
export function newEntry(dir: string, meta: StoreMeta, counts: { docs: number; bytes: number }, lastUsed: number): StoreEntry {
  return {
    dir,
    meta,
    get leases() {
      let n = 0;
      for (const k of this.leasesByEpoch.values()) n += k;
      return n;
    },
    lastUsed,
    epoch: 0,
    leasesByEpoch: new Map(),
    retired: [],
    counts,
    deleted: false,
  };
}
