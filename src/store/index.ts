// The store layer's entry: one LMDB environment per store (documents, encodings, idempotency
// records), the catalog of a data dir's stores, API keys, the data-dir lock and storage faults.
// Loading it loads lmdb's native module: the CLI imports it only in the commands that need it.
export {
  compactStore,
  createStore,
  isStoreId,
  listProjects,
  newStoreId,
  projectDir,
  projectStoreDirs,
  readSummary,
  removeSummary,
  type StoreSummary,
  unlinkStore,
  writeSummary,
} from './catalog.js';
export { type DataDirLock, DataDirLockedError, lockDataDir } from './data-dir-lock.js';
export { hasIndexSnapshot, readIndexSnapshot, removeIndexSnapshot, writeIndexSnapshot } from './index-snapshot.js';
export { KeyNotFoundError, type KeyRecord, KeyRing, keyId, keyMatches, newKey } from './keys.js';
export { residentBytesByMapping } from './map-residency.js';
export { ensureFree, faultOf, freeBytes, MIN_FREE_BYTES, StorageError, type StorageFault, storageError } from './storage-error.js';
export { StoreDb } from './store-db.js';
export { MARK_UNITS, sliceUtf8, utf8Marks } from './text-ranges.js';
export type {
  Changed,
  ChangePoint,
  DocRecord,
  DocSummary,
  EncodingsDb,
  IdempotencyRecord,
  PreparedDoc,
  StoredText,
  StoreMeta,
} from './types.js';
