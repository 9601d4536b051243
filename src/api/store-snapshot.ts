// A store's index from its snapshot, and back (store/index-snapshot.ts holds the file): a store
// opens by reading the index it had when it last closed, when its database has not changed since,
// and a store that closes leaves its index for the next open. Invariants: a snapshot that cannot be
// read (stale, another model or format, short, no room in the engine memory) only costs the build
// from the documents that would have run anyway; an index is persisted only from a store no write
// is running on (the caller holds it closed to requests).
import type { StoreIndex } from '../engine/index.js';
import { hasIndexSnapshot, readIndexSnapshot, type StoreDb, writeIndexSnapshot } from '../store/index.js';

type Log = (msg: string, fields?: Record<string, unknown>) => void;

/** Fills a new, empty index: from the store's snapshot when it has a valid one, else from every document's encoding. */
export async function loadIndex(index: StoreIndex, db: StoreDb, log: Log): Promise<'snapshot' | 'documents'> {
  try {
    if (readIndexSnapshot(db.dir, db.stamp(), (read) => index.restore(read))) return 'snapshot';
  } catch (err) {
    // restore left the index empty
    log('a store index snapshot could not be read; building the index from the documents', { dir: db.dir, err: String(err) });
  }
  await index.load(db.encodedDocs());
  return 'documents';
}

/** Leaves the index of a store about to close beside its database, unless one for the database as it is is there. */
export async function leaveSnapshot(index: StoreIndex, db: StoreDb, log: Log): Promise<void> {
  const stamp = db.stamp();
  if (index.passageCount === 0 || hasIndexSnapshot(db.dir, stamp)) return;
  const started = performance.now();
  const failed = await writeIndexSnapshot(db.dir, stamp, index.memoryBytes, (sink) => index.persist(sink));
  if (failed) log('store index snapshot not written; the next open builds the index from the documents', { dir: db.dir, why: failed });
  else log('store index snapshot written', { dir: db.dir, ms: Math.round(performance.now() - started) });
}
