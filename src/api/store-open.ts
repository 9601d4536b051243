// Opening and closing one store of the registry (store-registry.ts): reading a closed store's catalog
// entry at start, loading its database and index on first use, and shutting it when idle or at
// shutdown. Invariants: a store opens only once its previous close has finished; an open store's
// summary file is removed (its counts change), and a closed one leaves its summary and its index
// beside its database (store-snapshot.ts); a store whose encodings another encoder (a model version
// that changed it, or a store made before encoders were recorded) or text analysis made is
// re-encoded from its stored text before it enters the catalog (store-reencode.ts); a model version
// that changed only the ranking opens it as it is.
import type { Engine } from '../engine/index.js';
import { readSummary, removeSummary, StoreDb, type StoreMeta, writeSummary } from '../store/index.js';
import { Mutex } from './mutex.js';
import { newEntry, type OpenStore, type StoreEntry } from './store-entry.js';
import { reencode } from './store-reencode.js';
import { leaveSnapshot, loadIndex } from './store-snapshot.js';

type Log = (msg: string, fields?: Record<string, unknown>) => void;

/** Whether a store's encodings were made by another encoder (or one not recorded) or text analysis than the engine's. */
function isStale(engine: Engine, meta: StoreMeta): boolean {
  return meta.encoder !== engine.encoder || meta.analyzer !== engine.analyzer;
}

/**
 * The catalog entry of the store in `dir`, left closed: its metadata and counts from the summary
 * it left when it closed (store/catalog.ts readSummary), or from its database when it has none (a
 * crash while it was open) or was made by another encoder or text analysis (then re-encoded).
 */
export async function readEntry(engine: Engine, project: string, dir: string, log: Log): Promise<StoreEntry> {
  const summary = readSummary(dir);
  if (summary && !isStale(engine, summary.meta)) return newEntry(dir, summary.meta, { docs: summary.docs, bytes: summary.bytes }, 0);
  const db = StoreDb.open(dir);
  let entry: StoreEntry;
  try {
    if (isStale(engine, db.meta)) await reencode(engine, project, db, log);
    entry = newEntry(dir, db.meta, { docs: db.nDocs, bytes: db.sizeBytes() }, 0);
  } finally {
    await db.close();
  }
  writeSummary(dir, { meta: entry.meta, ...entry.counts });
  return entry;
}

/** Opens a store's database (`created`: one just made) and loads its index, after any close under way has finished; sets `entry.open`. */
export async function openStore(engine: Engine, project: string, entry: StoreEntry, log: Log, created?: StoreDb): Promise<OpenStore> {
  await entry.closing;
  const started = performance.now();
  try {
    removeSummary(entry.dir);
  } catch {
    // a read-only data dir: the store takes no write, so the summary stays true
  }
  let db = created ?? StoreDb.open(entry.dir);
  let loaded: Awaited<ReturnType<typeof loadIndex>>;
  try {
    loaded = await loadIndex(() => engine.createIndex(), db, log); // closes its index if it throws
  } catch (err) {
    await db.close();
    throw err;
  }
  const { index, from, replayed, unread, upgraded } = loaded;
  try {
    if (from === 'documents' && !created) {
      // reading every encoding mapped the whole data file in; a fresh handle maps only what is read from now on
      await db.close();
      db = StoreDb.open(entry.dir);
    }
    // an upgraded snapshot counts no segments, so that the next one (at the close, or once the store is quiet) replaces it
    const snapshotSegments = from === 'snapshot' && !upgraded ? index.segmentCount : undefined;
    const store: OpenStore = { db, index, lock: new Mutex(), closed: false, snapshotUnread: unread, snapshotSegments };
    entry.meta = db.meta;
    entry.open = store;
    log('store opened', {
      project,
      store: db.meta.name,
      id: db.meta.id,
      passages: index.passageCount,
      from,
      replayed,
      ...(upgraded && { upgraded }),
      ms: Math.round(performance.now() - started),
    });
    return store;
  } catch (err) {
    index.close();
    await db.close();
    throw err;
  }
}

/** Closes an open store's index and database, leaving its index and summary for the next open (the caller holds its write mutex). */
export async function shutStore(entry: StoreEntry, store: OpenStore, log: Log): Promise<void> {
  store.closed = true; // what was queued on its mutex (a background snapshot) finds it closed
  entry.counts = { docs: store.db.nDocs, bytes: store.db.sizeBytes() }; // listings read them from now on
  await leaveSnapshot(store, log);
  store.index.close();
  await store.db.close();
  writeSummary(entry.dir, { meta: entry.meta, ...entry.counts });
}
