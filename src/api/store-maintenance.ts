// The stores' upkeep off the request path (the registry owns one; store-registry.ts): every so
// often, one round at a time, it closes the stores idle for SVC_STORE_IDLE_S, starts the background
// snapshot of those no write changed for SVC_SNAPSHOT_QUIET_S (store-snapshot.ts), compacts those
// whose free pages pass half their data file, and reopens those whose database holds too much of its
// data file mapped in. Invariants: it changes a store only under its write mutex and never one a
// lease holds open (a reopening waits for the last lease; the registry calls remapIfFree then),
// and what it does to a store the registry's requests see as an open under way (entry.opening).
import { residentBytesByMapping, StoreDb } from '../store/index.js';
import type { StoreEntry } from './store-entry.js';
import { snapshotInBackground } from './store-snapshot.js';

type Log = (msg: string, fields?: Record<string, unknown>) => void;

/** Automatic compaction: of a data file of at least minBytes whose live pages are under liveShare of it. */
const COMPACT = { minBytes: 16 * 2 ** 20, liveShare: 0.5 };
/**
 * A store whose database holds more than maxResidentBytes of its data file mapped in is reopened
 * when no request holds it (remapResident): those pages (clean, but counted in the RSS) leave the
 * process, and the reads that follow map only what they touch.
 */
const MAP = { maxResidentBytes: 32 * 2 ** 20 };
/** How often a round runs at most. */
const MAINTAIN_MS = 10_000;

/** What the upkeep reads and asks of the registry. */
export interface MaintainedStores {
  catalog(): Array<{ project: string; entry: StoreEntry }>;
  counts(entry: StoreEntry): { docs: number; bytes: number };
  compact(project: string, ref: string, opts: { touch?: boolean }): Promise<unknown>;
  closeIdle(idleMs: number): Promise<number>;
}

export class StoreMaintenance {
  private timer?: NodeJS.Timeout;
  /** Stores reopened so far to drop the pages of their data file mapped in (remapResident), for /metrics. */
  reopened = 0;

  constructor(
    private readonly stores: MaintainedStores,
    private readonly log: Log,
  ) {}

  /**
   * From now on, every so often: closes the stores idle for `idleS` seconds (never when 0),
   * snapshots those quiet for `quietS` seconds (never when 0), compacts the wasteful ones, then
   * reopens those with too much of their data file mapped in.
   */
  start(idleS: number, quietS: number, onError: (err: unknown) => void): void {
    const ms = idleS * 1000;
    const quietMs = quietS * 1000;
    let running = false;
    const round = async () => {
      if (running) return;
      running = true;
      try {
        if (ms > 0) await this.stores.closeIdle(ms);
        if (quietMs > 0) this.snapshotQuiet(quietMs);
        await this.compactWasteful();
        await this.remapResident();
      } catch (err) {
        onError(err);
      } finally {
        running = false;
      }
    };
    const every = Math.min(MAINTAIN_MS, ...[ms, quietMs].filter((v) => v > 0).map((v) => v / 2));
    this.timer = setInterval(() => void round(), every);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Starts a background snapshot of each open store no write has changed for `quietMs` (store-snapshot.ts snapshotInBackground). */
  snapshotQuiet(quietMs: number, now = Date.now()): void {
    for (const { entry } of this.stores.catalog()) {
      const store = entry.open;
      if (store && !entry.opening && !entry.closing && now - store.db.changedAt >= quietMs) snapshotInBackground(store, this.log);
    }
  }

  /** Compacts the open stores whose free pages are more than half their data file (of at least `minBytes`). */
  async compactWasteful(minBytes = COMPACT.minBytes): Promise<number> {
    let n = 0;
    for (const { project, entry } of this.stores.catalog()) {
      const db = entry.open?.db;
      if (!db || entry.opening || entry.closing) continue;
      const file = db.fileBytes();
      if (file < minBytes || db.sizeBytes() > file * COMPACT.liveShare) continue;
      await this.stores.compact(project, entry.meta.id, { touch: false });
      n++;
    }
    return n;
  }

  /**
   * Marks every open store whose database holds more than `maxBytes` of its data file mapped in
   * (StoreDb.residentBytes) to be reopened, and reopens those no request holds now; the others are
   * reopened when their last lease is released. Returns how many were reopened now.
   */
  async remapResident(maxBytes = MAP.maxResidentBytes): Promise<number> {
    if (!this.stores.catalog().some(({ entry }) => entry.open)) return 0;
    const byMapping = residentBytesByMapping();
    let n = 0;
    for (const { entry } of this.stores.catalog()) {
      const mapped = entry.open?.db.residentBytes(byMapping) ?? 0;
      if (mapped <= maxBytes) continue;
      entry.remapDue = mapped;
      if (await this.remapIfFree(entry)) n++;
    }
    return n;
  }

  /**
   * Reopens a store's database if that is due (remapResident) and no lease holds it, under its write
   * mutex; requests that come meanwhile wait for it as for an open. If the database does not open
   * again, the store is left closed (its index dropped): the next request loads it. True if it reopened.
   */
  async remapIfFree(entry: StoreEntry): Promise<boolean> {
    const store = entry.open;
    const mapped = entry.remapDue;
    if (mapped === undefined || !store || store.closed || entry.leases > 0 || entry.opening || entry.closing) return false;
    entry.remapDue = undefined;
    entry.counts = this.stores.counts(entry);
    entry.open = undefined;
    const reopen = store.lock.run(async () => {
      await store.snapshotting;
      await store.db.close();
      store.db = StoreDb.open(entry.dir);
    });
    entry.opening = reopen
      .then(
        () => {
          entry.open = store;
          this.reopened++;
          this.log('store reopened (mapped pages dropped)', { store: entry.meta.name, id: entry.meta.id, mapped_bytes: mapped });
          return store;
        },
        (err) => {
          store.closed = true;
          store.index.close();
          this.log('reopening a store failed; it is closed', { store: entry.meta.name, id: entry.meta.id, err: String(err) });
          throw err;
        },
      )
      .finally(() => {
        entry.opening = undefined;
      });
    return entry.opening.then(
      () => true,
      () => false,
    );
  }
}
