// The open stores of every project: each one is its LMDB environment (store layer) paired with its
// in-memory index (engine), plus a write mutex. Invariants: writes to one store (ingest, delete)
// run one at a time and update the index only after the write is durable, in the same order as the
// database; a store name maps to at most one live store per project; a store being deleted is
// unreachable by name and id before its folder goes away; stores of one project are invisible to
// another (lookups are always by project).
import type { Engine, StoreIndex } from '../engine/types.js';
import { ApiError } from '../errors.js';
import { createStore, destroyStore, isStoreId, listProjects, newStoreId, openProjectStores } from '../store/catalog.js';
import type { StoreDb, StoreMeta } from '../store/store-db.js';
import { Mutex } from './mutex.js';

export interface OpenStore {
  db: StoreDb;
  index: StoreIndex;
  lock: Mutex;
  closed: boolean;
}

class ProjectStores {
  readonly byId = new Map<string, OpenStore>();
  readonly byName = new Map<string, OpenStore>();
  /** Serialises create/delete so name uniqueness holds. */
  readonly lock = new Mutex();
}

export class StoreRegistry {
  private readonly projects = new Map<string, ProjectStores>();

  constructor(
    private readonly dataDir: string,
    private readonly engine: Engine,
    private readonly log: (msg: string, fields?: Record<string, unknown>) => void = () => {},
  ) {}

  /** Opens every store found in the data dir and rebuilds its index. */
  async loadAll(): Promise<void> {
    for (const project of listProjects(this.dataDir)) {
      for (const db of openProjectStores(this.dataDir, project)) await this.attach(project, db);
    }
  }

  private async attach(project: string, db: StoreDb): Promise<OpenStore> {
    if (db.meta.model !== this.engine.model) {
      throw new Error(
        `store ${db.meta.project}/${db.meta.name} (${db.dir}) holds encodings of model ${db.meta.model}, but the loaded model is ${this.engine.model}`,
      );
    }
    const started = performance.now();
    const index = this.engine.createIndex();
    await index.load(db.encodedDocs());
    const store: OpenStore = { db, index, lock: new Mutex(), closed: false };
    const p = this.project(project);
    p.byId.set(db.meta.id, store);
    p.byName.set(db.meta.name, store);
    this.log('store opened', { project, store: db.meta.name, id: db.meta.id, passages: index.passageCount, ms: Math.round(performance.now() - started) });
    return store;
  }

  private project(project: string): ProjectStores {
    let p = this.projects.get(project);
    if (!p) {
      p = new ProjectStores();
      this.projects.set(project, p);
    }
    return p;
  }

  /** A store by name or id, or 404. */
  get(project: string, ref: string): OpenStore {
    const p = this.projects.get(project);
    const store = p && ((isStoreId(ref) ? p.byId.get(ref) : undefined) ?? p.byName.get(ref));
    if (!store || store.closed) {
      throw new ApiError('store_not_found', `no store named or with id '${ref}' in project '${project}'`, {
        fix: `Create it with POST /v1/stores {"name": "${/^[a-z0-9_-]{1,64}$/.test(ref) ? ref : '<name>'}"} (or 'svc stores create <name>'); GET /v1/stores lists the project's stores.`,
      });
    }
    return store;
  }

  allStores(): OpenStore[] {
    return [...this.projects.values()].flatMap((p) => [...p.byId.values()]).filter((s) => !s.closed);
  }

  list(project: string): OpenStore[] {
    return [...(this.projects.get(project)?.byId.values() ?? [])].filter((s) => !s.closed);
  }

  async create(project: string, name: string): Promise<OpenStore> {
    const p = this.project(project);
    return p.lock.run(async () => {
      if (p.byName.has(name)) {
        throw new ApiError('store_already_exists', `a store named '${name}' already exists in project '${project}'`, {
          fix: `Use the existing store '${name}' (GET /v1/stores/${name}), or create one with another name.`,
        });
      }
      const meta: StoreMeta = { id: newStoreId(), name, project, created_at: new Date().toISOString(), model: this.engine.model };
      const db = await createStore(this.dataDir, meta);
      return this.attach(project, db);
    });
  }

  async delete(project: string, ref: string): Promise<void> {
    const store = this.get(project, ref);
    const p = this.project(project);
    await p.lock.run(() =>
      store.lock.run(async () => {
        if (store.closed) return;
        store.closed = true;
        p.byId.delete(store.db.meta.id);
        p.byName.delete(store.db.meta.name);
        store.index.close();
        await destroyStore(store.db);
      }),
    );
  }

  async closeAll(): Promise<void> {
    for (const p of this.projects.values()) {
      for (const store of p.byId.values()) {
        await store.lock.run(async () => {
          if (store.closed) return;
          store.closed = true;
          store.index.close();
          await store.db.close();
        });
      }
      p.byId.clear();
      p.byName.clear();
    }
  }
}
