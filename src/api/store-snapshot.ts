// A store's index from its snapshot, and back (store/index-snapshot.ts holds the file): a store
// opens by reading the index it last left and then applying the documents changed since (the
// store's change log, store-db.ts), and it leaves its index when it closes and, in the background,
// once it has been quiet a while, so that a restart after a crash reads little. Invariants: a
// snapshot is read only while the change log still goes back to the point it was written at (else
// it is removed: it could never be read again); one that cannot be read (another model or format,
// short, no room in the engine memory) only costs the build from the documents that would have run
// anyway; what a snapshot holds is the index as of the change-log point in its stamp, taken under
// the store's write mutex; a snapshot is of one store and one making of its encodings (encoder and
// text analysis: a re-encode leaves it unread); the change log is trimmed only up to a snapshot on disk;
// a snapshot that does not fit the engine memory is never removed for it (a larger bound reads it),
// only replaced by the next snapshot of the index built instead; a close leaves a new snapshot when
// merges changed the index's segments since the last one was read or taken, writes or not.
import { isOutOfEngineMemory, type StoreIndex } from '../engine/index.js';
import {
  type Changed,
  type ChangePoint,
  hasIndexSnapshot,
  readIndexSnapshot,
  removeIndexSnapshot,
  type StoreDb,
  writeIndexSnapshot,
} from '../store/index.js';
import type { OpenStore } from './store-entry.js';

type Log = (msg: string, fields?: Record<string, unknown>) => void;

const SNAPSHOT = {
  /**
   * A snapshot is brought up to date only while fewer documents changed since than this share of
   * the store's (else the index is built): below the share where a replay costs as much as a build
   * (`npm run bench -- snapshot-replay`, bench/RESULTS.md), leaving room for the merges a replay
   * leaves behind, which the bench does not time.
   */
  maxReplayShare: 0.5,
} as const;

/** The fields of a snapshot's stamp that must be the database's own: the store, and what made its encodings (a re-encode logs no change). */
function identity(db: StoreDb): string {
  return JSON.stringify([db.meta.id, db.meta.encoder ?? '', db.meta.analyzer ?? '']);
}

/** What a snapshot's stamp says: the store and encodings it is of, and the change-log point its index is as of. */
function stampOf(db: StoreDb, point: ChangePoint): string {
  return JSON.stringify({ of: identity(db), at: point.at, entry: point.entry });
}

/** The documents changed since the stamp's point, or undefined when the stamp is not of this store's encodings and log as they are now. */
function changedSinceStamp(db: StoreDb, stamp: string): Changed[] | undefined {
  let got: { of?: unknown; at?: unknown; entry?: unknown };
  try {
    got = JSON.parse(stamp);
  } catch {
    return undefined;
  }
  if (got.of !== identity(db) || !Number.isSafeInteger(got.at) || typeof got.entry !== 'string') return undefined;
  return db.changedSince({ at: got.at as number, entry: got.entry });
}

/**
 * A store's index: from its snapshot and the documents changed since it when it has a usable one,
 * else built from every document's encoding (in an index of `create`). `replayed`: the changed
 * documents applied. A snapshot brought up to date must hold as many documents as the database (a
 * check against a database put back from another time that its change log cannot tell): else it
 * is dropped and the index built; one the changes cannot be applied to (no room in the engine
 * memory for them beside the rows they replace) is left, and the index built. One the engine
 * memory has no room for is left too (`unread`: the open store's next snapshot must replace it,
 * whatever its stamp), and the index built, which may fit where the snapshot's layout did not; if
 * it does not either, the store does not open and its snapshot waits for a larger bound.
 * `upgraded`: the snapshot was of the format before and was brought to this one as it was read
 * (the open store's next snapshot must replace it, whatever its stamp).
 * `maxReplayShare`: SNAPSHOT's (another only for the bench that measures it, snapshot-replay).
 */
export async function loadIndex(
  create: () => StoreIndex,
  db: StoreDb,
  log: Log,
  maxReplayShare: number = SNAPSHOT.maxReplayShare,
): Promise<{ index: StoreIndex; from: 'snapshot' | 'documents'; replayed: number; unread?: boolean; upgraded?: boolean }> {
  let index = create();
  let changed: Changed[] | undefined;
  let unusable = false;
  let unread = false;
  let restored = false;
  let upgraded = false;
  try {
    restored = await readIndexSnapshot(db.dir, async (stamp, read) => {
      changed = changedSinceStamp(db, stamp);
      unusable = changed === undefined || changed.length > maxReplayShare * Math.max(db.nDocs, 1);
      if (unusable) return false;
      const outcome = await index.restore(read);
      upgraded = outcome === 'upgraded';
      unusable = !outcome;
      return !unusable;
    });
  } catch (err) {
    // restore left the index empty; the file goes (a close would find its stamp current and keep
    // it), unless only the engine memory's bound kept it out
    unread = isOutOfEngineMemory(err);
    if (unread)
      log('a store index snapshot does not fit the engine memory; building the index from the documents', {
        dir: db.dir,
        err: String(err),
        fix: 'a larger SVC_ENGINE_MEMORY_MB reads it; it is kept until this index leaves its own',
      });
    else log('a store index snapshot could not be read; building the index from the documents', { dir: db.dir, err: String(err) });
    unusable = !unread;
  }
  if (restored && changed) {
    try {
      if (changed.length) await replay(index, db, changed);
      if (index.documentCount === db.nDocs) return { index, from: 'snapshot', replayed: changed.length, upgraded };
      log('a store index snapshot does not hold the documents of the database; building the index from them', {
        dir: db.dir,
        snapshot: index.documentCount,
        database: db.nDocs,
      });
      unusable = true;
    } catch (err) {
      // the old rows of the changed documents take room a build does not need (the engine memory's bound)
      log('the documents changed since a store index snapshot could not be applied; building the index from the documents', {
        dir: db.dir,
        err: String(err),
      });
    }
    index.close();
    index = create();
  }
  if (unusable) {
    try {
      removeIndexSnapshot(db.dir);
    } catch (err) {
      // a read-only data dir: the store takes no write, so the stale snapshot harms nothing
      log('a stale store index snapshot could not be removed', { dir: db.dir, err: String(err) });
    }
  }
  try {
    await index.load(db.encodedDocs());
  } catch (err) {
    index.close();
    throw err;
  }
  return { index, from: 'documents', replayed: 0, unread };
}

/**
 * Brings a restored index up to date as the writes did: the documents deleted since are removed,
 * those written since loaded again (replacing their rows, in the order they were written), and
 * those whose metadata alone changed given it.
 */
async function replay(index: StoreIndex, db: StoreDb, changed: Changed[]): Promise<void> {
  for (const { id, rows } of changed) {
    const metadata = db.getDoc(id)?.metadata;
    if (!metadata) index.remove(id);
    else if (!rows) index.setMetadata(id, metadata);
  }
  await index.load(db.encodedDocs(changed.filter((c) => c.rows).map((c) => c.id)));
}

/**
 * Begins writing the snapshot of the store as it is now, unless it has no passage or the snapshot
 * on disk is of it as it is (its stamp, and the segments it was read or taken with): `taken`
 * resolves once the index's state is taken (persist's first await; writes may go on from then),
 * `done` once the file is on disk and the change log trimmed up to it, or the failure logged.
 */
function beginSnapshot(store: OpenStore, log: Log): { taken: Promise<unknown>; done: Promise<void> } | undefined {
  const { index, db } = store;
  const point = db.changePoint();
  const stamp = stampOf(db, point);
  const same = !store.snapshotUnread && store.snapshotSegments === index.segmentCount && hasIndexSnapshot(db.dir, stamp);
  if (index.passageCount === 0 || same) return undefined;
  const started = performance.now();
  let onTaken!: () => void;
  const taken = new Promise<void>((resolve) => (onTaken = resolve));
  let segments = 0;
  const writing = writeIndexSnapshot(db.dir, stamp, index.memoryBytes, (sink) => {
    segments = index.segmentCount;
    const persisted = index.persist(sink);
    onTaken();
    return persisted;
  });
  const done = (async () => {
    const failed = await writing;
    if (failed) {
      log('store index snapshot not written; the next open reads the documents instead', { dir: db.dir, why: failed });
      return;
    }
    store.snapshotUnread = false;
    store.snapshotSegments = segments;
    log('store index snapshot written', { dir: db.dir, ms: Math.round(performance.now() - started), at: point.at });
    await db.trimChanges(point.at);
  })();
  // a write that fails before the state is taken (no room) settles `taken` too
  return { taken: Promise.race([taken, writing]), done };
}

/** Leaves the index of a store about to close beside its database, unless the snapshot there is of the store as it is. */
export async function leaveSnapshot(store: OpenStore, log: Log): Promise<void> {
  await store.snapshotting;
  await beginSnapshot(store, log)?.done;
}

/**
 * Writes the snapshot of an open store whose snapshot is behind its change log, in the background:
 * the index is taken under the store's write mutex (queued like a write), and written after it is
 * released (store.snapshotting until it ends), so writes go on meanwhile. What closes, compacts,
 * reopens or deletes the store awaits store.snapshotting under the mutex first. Does nothing while
 * one is queued or under way, or when the last one was tried at the same point.
 */
export function snapshotInBackground(store: OpenStore, log: Log): void {
  if (store.snapshotQueued || store.snapshotting || store.closed) return;
  const point = store.db.changePoint();
  if (store.snapshotTried === point.at || store.index.passageCount === 0) return;
  store.snapshotTried = point.at;
  store.snapshotQueued = true;
  store.lock
    .run(async () => {
      if (store.closed) return;
      const begun = beginSnapshot(store, log);
      if (!begun) return;
      await begun.taken;
      store.snapshotting = begun.done
        .catch((err) => log('store index snapshot failed', { dir: store.db.dir, err: String(err) }))
        .finally(() => {
          store.snapshotting = undefined;
        });
    })
    .catch((err) => log('store index snapshot failed', { dir: store.db.dir, err: String(err) }))
    .finally(() => {
      store.snapshotQueued = false;
    });
}
