// The stores of every project: each one is its LMDB environment (store layer) paired with its
// in-memory index (engine), plus a write mutex. Stores open lazily: at start the registry reads
// each store's metadata and counts and closes it again; a request that names a store takes a lease
// (acquire), which opens it (once, however many requests wait) and keeps it open until released;
// a store no lease has used for the idle time (SVC_STORE_IDLE_S) is closed again, its memory given
// back, its index left beside its database for the next open (store-snapshot.ts). A store is
// compacted (its data file rewritten without free pages) on request, under its write mutex; its
// upkeep off the request path (idle closes, background snapshots, automatic compaction, reopening
// a database that mapped too much of its file in) is store-maintenance.ts's.
// Invariants: writes to one store (ingest, delete, compaction) run one at a time and update the
// index only after the write is durable, in the same order as the database; a store name maps to at most
// one store per project; a leased store is never closed, and a store opens only once its previous
// close has finished; a database a compaction replaced stays open until every lease taken before
// the compaction is released; a store being deleted is unreachable by name and id before its folder
// goes away, and the requests that held it then finish on it (the last one closes it and removes its
// files); stores of one project are invisible to another (lookups are always by project); a store is
// reachable only once its encodings were made by the loaded model's encoder and this version's text
// analysis (store-open.ts re-encodes it at start otherwise, while the server answers 503 `starting`);
// a store the engine memory could not hold to open is refused at once (507) until the engine's
// blocks held fell by OPEN.retryFreedBytes, not opened again by every request that names it.
import { type Engine, isOutOfEngineMemory } from '../engine/index.js';
import { ApiError } from '../errors.js';
import {
  compactStore,
  createStore,
  isStoreId,
  listProjects,
  newStoreId,
  projectStoreDirs,
  StoreDb,
  type StoreMeta,
  unlinkStore,
} from '../store/index.js';
import { Mutex } from './mutex.js';
import { type Lease, newEntry, type OpenStore, type StoreEntry } from './store-entry.js';
import { StoreMaintenance } from './store-maintenance.js';
import { openStore, readEntry, shutStore } from './store-open.js';

export type { Lease, OpenStore, StoreEntry } from './store-entry.js';

const OPEN = {
  /**
   * A store the engine memory could not hold to open is tried again once the engine holds this
   * many bytes fewer than after the refusal (a store closed or deleted, say): a failed open of
   * a large store reads its snapshot and builds its index before it fails, for minutes at ten
   * million passages. Above the jitter of other stores' merges and searches' scratch.
   */
  retryFreedBytes: 16 * 2 ** 20,
} as const;

class ProjectStores {
  readonly byId = new Map<string, StoreEntry>();
  readonly byName = new Map<string, StoreEntry>();
  /** Serialises create/delete so name uniqueness holds. */
  readonly lock = new Mutex();
}

export class StoreRegistry {
  private readonly projects = new Map<string, ProjectStores>();
  /** The stores' upkeep off the request path: idle closes, background snapshots, compaction, remapping. */
  readonly maintenance: StoreMaintenance;
  /** Deleted stores that requests still hold: the last lease released removes them (closeRetired). */
  private readonly draining = new Set<StoreEntry>();

  constructor(
    private readonly dataDir: string,
    private readonly engine: Engine,
    private readonly log: (msg: string, fields?: Record<string, unknown>) => void = () => {},
  ) {
    this.maintenance = new StoreMaintenance(this, log);
  }

  /** Reads every store of the data dir into the catalog, leaving it closed (store-open.ts readEntry). */
  async loadAll(): Promise<void> {
    for (const project of listProjects(this.dataDir)) {
      for (const dir of projectStoreDirs(this.dataDir, project)) this.add(project, await readEntry(this.engine, project, dir, this.log));
    }
  }

  private add(project: string, entry: StoreEntry): void {
    const p = this.project(project);
    p.byId.set(entry.meta.id, entry);
    p.byName.set(entry.meta.name, entry);
  }

  private project(project: string): ProjectStores {
    let p = this.projects.get(project);
    if (!p) {
      p = new ProjectStores();
      this.projects.set(project, p);
    }
    return p;
  }

  /** A store of the catalog by name or id, open or not, or 404. */
  entry(project: string, ref: string): StoreEntry {
    const p = this.projects.get(project);
    const entry = p && ((isStoreId(ref) ? p.byId.get(ref) : undefined) ?? p.byName.get(ref));
    if (!entry || entry.deleted) {
      throw new ApiError('store_not_found', `no store named or with id '${ref}' in project '${project}'`, {
        fix: `Create it with POST /v1/stores {"name": "${/^[a-z0-9_-]{1,64}$/.test(ref) ? ref : '<name>'}"} (or 'svc stores create <name>'); GET /v1/stores lists the project's stores.`,
      });
    }
    return entry;
  }

  /**
   * The store `ref` held open for the caller (opened first if it is closed), or 404. `touch: false`
   * (the server's own work, an automatic compaction) leaves the store's idle time running.
   */
  async acquire(project: string, ref: string, { touch = true }: { touch?: boolean } = {}): Promise<Lease> {
    const entry = this.entry(project, ref);
    const epoch = entry.epoch;
    entry.leasesByEpoch.set(epoch, (entry.leasesByEpoch.get(epoch) ?? 0) + 1);
    if (touch) entry.lastUsed = Date.now();
    let store: OpenStore;
    try {
      if (!entry.opening && !entry.open) {
        const refused = entry.openRefused;
        if (refused && this.heldBytes() > refused.held - OPEN.retryFreedBytes) throw refused.err;
        entry.opening = this.open(project, entry).finally(() => {
          entry.opening = undefined;
        });
      }
      store = entry.open ?? (await entry.opening!);
    } catch (err) {
      this.unlease(entry, epoch, touch);
      throw openFailure(err, entry.meta.name);
    }
    let held = true;
    return {
      store,
      release: () => {
        if (!held) return;
        held = false;
        this.unlease(entry, epoch, touch);
      },
    };
  }

  /** Opens a closed store, remembering a refusal for the engine memory (entry.openRefused) until an open succeeds. */
  private async open(project: string, entry: StoreEntry): Promise<OpenStore> {
    try {
      const store = await openStore(this.engine, project, entry, this.log);
      entry.openRefused = undefined;
      return store;
    } catch (err) {
      if (isOutOfEngineMemory(err)) entry.openRefused = { held: this.heldBytes(), err };
      throw err;
    }
  }

  /** The engine's blocks in use but those let go of (a failed open's, freed as its tasks in flight end). */
  private heldBytes(): number {
    const { allocated, retired } = this.engine.memory;
    return allocated - retired;
  }

  private unlease(entry: StoreEntry, epoch: number, touch: boolean): void {
    const n = (entry.leasesByEpoch.get(epoch) ?? 1) - 1;
    if (n > 0) entry.leasesByEpoch.set(epoch, n);
    else entry.leasesByEpoch.delete(epoch);
    if (touch) entry.lastUsed = Date.now();
    void this.closeRetired(entry);
    if (n <= 0) void this.maintenance.remapIfFree(entry);
  }

  /**
   * Runs what waits for the leases taken before it: closing the databases compactions replaced, and
   * the removal of a deleted store. Resolves once those it ran are done.
   */
  private async closeRetired(entry: StoreEntry): Promise<void> {
    const due: Array<() => Promise<void>> = [];
    entry.retired = entry.retired.filter(({ until, dispose }) => {
      if ([...entry.leasesByEpoch.keys()].some((e) => e < until)) return true;
      due.push(dispose);
      return false;
    });
    if (entry.retired.length === 0) this.draining.delete(entry);
    await Promise.all(
      due.map((dispose) =>
        dispose().catch((err) =>
          this.log('closing a replaced or deleted store database failed', { store: entry.meta.name, err: String(err) }),
        ),
      ),
    );
  }

  /** Runs everything `entry.retired` holds, whatever the leases (shutdown: no request is left). */
  private async disposeRetired(entry: StoreEntry): Promise<void> {
    for (const r of entry.retired.splice(0)) await r.dispose();
  }

  /**
   * Compacts the store `ref` (StoreDb file without free pages, store/catalog.ts compactStore) under
   * its write mutex: writes wait, searches and reads go on; readers that began before it finish on
   * the database they began with. Returns the data file's bytes before and after. `touch: false` (an
   * automatic compaction) does not count as a use of the store for its idle time.
   */
  async compact(
    project: string,
    ref: string,
    { touch = true }: { touch?: boolean } = {},
  ): Promise<{ store: StoreEntry; before: number; after: number; ms: number }> {
    const entry = this.entry(project, ref);
    const lease = await this.acquire(project, entry.meta.id, { touch });
    try {
      const store = lease.store;
      return await store.lock.run(async () => {
        if (store.closed) this.entry(project, ref); // deleted while it waited: 404
        const started = performance.now();
        await store.snapshotting; // its file is carried into the compacted folder whole
        const old = store.db;
        const before = old.fileBytes();
        store.db = await compactStore(old);
        entry.epoch++;
        entry.retired.push({ until: entry.epoch, dispose: () => old.close() });
        const after = store.db.fileBytes();
        const ms = Math.round(performance.now() - started);
        this.log('store compacted', { project, store: entry.meta.name, id: entry.meta.id, bytes_before: before, bytes_after: after, ms });
        return { store: entry, before, after, ms };
      });
    } finally {
      lease.release();
    }
  }

  /** The open store `ref` of a request that holds its lease (the router takes one for every operation on a store), or 404. */
  get(project: string, ref: string): OpenStore {
    const entry = this.entry(project, ref);
    if (!entry.open || entry.leases === 0) throw new Error(`store '${ref}' used without a lease (StoreRegistry.acquire)`);
    return entry.open;
  }

  /** Documents of a store: live while it is open, as of its last close otherwise. */
  docs(entry: StoreEntry): number {
    return entry.open ? entry.open.db.nDocs : entry.counts.docs;
  }

  /** Documents and bytes of a store: live while it is open, as of its last close otherwise. */
  counts(entry: StoreEntry): { docs: number; bytes: number } {
    return entry.open ? { docs: entry.open.db.nDocs, bytes: entry.open.db.sizeBytes() } : entry.counts;
  }

  /** Every store of the catalog, open or not, with its project (a store leaves the maps when it is marked deleted). */
  catalog(): Array<{ project: string; entry: StoreEntry }> {
    return [...this.projects].flatMap(([project, p]) => [...p.byId.values()].map((entry) => ({ project, entry })));
  }

  /**
   * Runs `work` on every open store in turn, each under a lease of the server's own (it does not
   * count as a use for the idle time): no close, reopening or deletion takes the database from under it.
   */
  async eachOpen(work: (store: OpenStore) => Promise<unknown>): Promise<void> {
    for (const { project, entry } of this.catalog()) {
      if (!entry.open || entry.open.closed) continue;
      let lease: Lease;
      try {
        lease = await this.acquire(project, entry.meta.id, { touch: false });
      } catch {
        continue; // deleted meanwhile
      }
      try {
        await work(lease.store);
      } finally {
        lease.release();
      }
    }
  }

  /** The store with the most documents, open or not, with its project; undefined when there is none. */
  largest(): { project: string; entry: StoreEntry } | undefined {
    let best: { project: string; entry: StoreEntry; docs: number } | undefined;
    for (const c of this.catalog()) {
      const docs = this.docs(c.entry);
      if (docs > (best?.docs ?? 0)) best = { ...c, docs };
    }
    return best && { project: best.project, entry: best.entry };
  }

  /** The project's stores, open or not. */
  list(project: string): StoreEntry[] {
    return [...(this.projects.get(project)?.byId.values() ?? [])];
  }

  /**
   * Creates a store, open (with no lease: it closes when idle like any other). `fixed` gives its id
   * and creation time (a cluster's replicas create the same store from one log entry).
   */
  async create(project: string, name: string, fixed?: { id: string; created_at: string }): Promise<StoreEntry> {
    const p = this.project(project);
    return p.lock.run(async () => {
      if (p.byName.has(name)) {
        throw new ApiError('store_already_exists', `a store named '${name}' already exists in project '${project}'`, {
          fix: `Use the existing store '${name}' (GET /v1/stores/${name}), or create one with another name.`,
        });
      }
      const meta: StoreMeta = {
        id: fixed?.id ?? newStoreId(),
        name,
        project,
        created_at: fixed?.created_at ?? new Date().toISOString(),
        model: this.engine.model,
        encoder: this.engine.encoder,
        analyzer: this.engine.analyzer,
      };
      const db = await createStore(this.dataDir, meta);
      const entry = newEntry(db.dir, meta, { docs: 0, bytes: 0 }, Date.now());
      await openStore(this.engine, project, entry, this.log, db);
      this.add(project, entry);
      return entry;
    });
  }

  /**
   * Deletes a store: once its folder is renamed away (durably), the store is gone by name and id and
   * the call returns; requests already holding it (an export, a search) finish on it as it was, and
   * the last of them closes it and removes its files.
   */
  async delete(project: string, ref: string): Promise<void> {
    const entry = this.entry(project, ref);
    const p = this.project(project);
    await p.lock.run(async () => {
      if (entry.deleted) return;
      await entry.opening?.catch(() => undefined);
      await entry.closing;
      /** Takes the store from the catalog and its name; what finishes the removal comes back. */
      const unlink = (db: StoreDb): (() => Promise<void>) => {
        entry.deleted = true;
        p.byId.delete(entry.meta.id);
        p.byName.delete(entry.meta.name);
        try {
          return unlinkStore(db);
        } catch (err) {
          // nothing was removed (e.g. a read-only data dir): the store stays as it was
          entry.deleted = false;
          this.add(project, entry);
          throw err;
        }
      };
      const store = entry.open;
      if (!store) {
        const db = StoreDb.open(entry.dir);
        let finish: () => Promise<void>;
        try {
          finish = unlink(db);
        } catch (err) {
          await db.close();
          throw err;
        }
        await finish();
        return;
      }
      await store.lock.run(async () => {
        if (store.closed) return;
        store.closed = true;
        await store.snapshotting;
        let finish: () => Promise<void>;
        try {
          finish = unlink(store.db);
        } catch (err) {
          store.closed = false;
          throw err;
        }
        entry.open = undefined;
        entry.epoch++;
        entry.retired.push({
          until: entry.epoch,
          dispose: async () => {
            await store.snapshotting;
            store.index.close();
            await finish();
          },
        });
        this.draining.add(entry);
        await this.closeRetired(entry);
      });
    });
  }

  /**
   * Closes the stores no lease has used for `idleMs`, each under its write mutex (a write under way
   * finishes first); their counts are kept for listings.
   */
  async closeIdle(idleMs: number, now = Date.now()): Promise<number> {
    let closed = 0;
    for (const [project, p] of this.projects) {
      for (const entry of p.byId.values()) {
        const store = entry.open;
        if (!store || entry.leases > 0 || entry.opening || now - entry.lastUsed < idleMs) continue;
        const close = store.lock.run(async () => {
          if (store.closed || entry.leases > 0 || entry.open !== store) return;
          entry.open = undefined;
          await shutStore(entry, store, this.log);
          await this.closeRetired(entry);
          closed++;
          this.log('store closed (idle)', {
            project,
            store: entry.meta.name,
            id: entry.meta.id,
            idle_s: Math.round((now - entry.lastUsed) / 1000),
          });
        });
        entry.closing = close.finally(() => (entry.closing = undefined));
        await entry.closing;
      }
    }
    return closed;
  }

  async closeAll(): Promise<void> {
    this.maintenance.stop();
    for (const p of this.projects.values()) {
      for (const entry of p.byId.values()) {
        await entry.opening?.catch(() => undefined);
        await entry.closing;
        const store = entry.open;
        if (!store) continue;
        await store.lock.run(async () => {
          if (store.closed) return;
          store.closed = true;
          entry.open = undefined;
          await shutStore(entry, store, this.log);
          await this.disposeRetired(entry);
        });
      }
      p.byId.clear();
      p.byName.clear();
    }
    // deleted stores a request still held: shutdown waited for the requests, so nothing reads them now
    for (const entry of this.draining) await this.disposeRetired(entry);
    this.draining.clear();
  }
}

/** What a request gets when the store it names could not open: a store the engine memory cannot hold is a 507 that says so (its data is kept). */
function openFailure(err: unknown, store: string): unknown {
  if (!isOutOfEngineMemory(err)) return err;
  return new ApiError(
    'engine_memory_full',
    `the engine's memory (SVC_ENGINE_MEMORY_MB) cannot hold the index of store '${store}' to open it`,
    {
      fix: 'Raise SVC_ENGINE_MEMORY_MB on a server with the memory, or delete or close other stores (SVC_STORE_IDLE_S), then retry; the store, its documents and its index snapshot are kept.',
    },
  );
}
