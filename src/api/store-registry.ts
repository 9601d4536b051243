// The open stores of every project: each one is its LMDB environment (store layer) paired with its
// in-memory index (engine), plus a write mutex. Invariants: writes to one store (ingest, delete)
// run one at a time and update the index only after the write is durable, in the same order as the
// database; a store name maps to at most one live store per project; a store being deleted is
// unreachable by name and id before its folder goes away; stores of one project are invisible to
// another (lookups are always by project); a store is attached (reachable) only once its encodings
// were made by the loaded model and this version's text analysis: a store of another model version,
// or one analysed otherwise (made before CJK and Thai words were segmented, say), is re-encoded from
// its stored text first (see reencode), while the server still answers 503 `starting`.
import type { Engine, StoreIndex } from '../engine/index.js';
import { ApiError } from '../errors.js';
import {
  createStore,
  destroyStore,
  isStoreId,
  listProjects,
  newStoreId,
  openProjectStores,
  type StoreDb,
  type StoreMeta,
} from '../store/index.js';
import { Mutex } from './mutex.js';

/** Re-encoding batch bounds: documents, and characters of text held in memory at once. */
const REENCODE_DOCS = 500;
const REENCODE_CHARS = 8_000_000;

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
    if (db.meta.model !== this.engine.model || db.meta.analyzer !== this.engine.analyzer) await this.reencode(project, db);
    const started = performance.now();
    const index = this.engine.createIndex();
    await index.load(db.encodedDocs());
    const store: OpenStore = { db, index, lock: new Mutex(), closed: false };
    const p = this.project(project);
    p.byId.set(db.meta.id, store);
    p.byName.set(db.meta.name, store);
    this.log('store opened', {
      project,
      store: db.meta.name,
      id: db.meta.id,
      passages: index.passageCount,
      ms: Math.round(performance.now() - started),
    });
    return store;
  }

  /**
   * Encodes every document of `db` again with the loaded model and text analysis, from its stored
   * text, in batches, logging progress; the new encodings become live, recorded with the model and
   * analysis that made them, in one transaction (StoreDb.commitStaged), so a crash leaves the old
   * encodings or the new ones, whole.
   */
  private async reencode(project: string, db: StoreDb): Promise<void> {
    const made = { model: this.engine.model, analyzer: this.engine.analyzer };
    const total = db.nDocs;
    const fields = { project, store: db.meta.name, id: db.meta.id, from: db.meta.model, to: made.model };
    const started = performance.now();
    if (db.meta.model !== made.model) this.log('store re-encoding with the new model', { ...fields, docs: total });
    else
      this.log('store re-encoding with the new text analysis', {
        ...fields,
        analyzer: { from: db.meta.analyzer ?? null, to: made.analyzer },
        docs: total,
      });
    await db.clearStaged();
    const changed = new Map<string, number>();
    let done = 0;
    let nextReport = 0.1;
    for (const batch of db.textBatches(REENCODE_DOCS, REENCODE_CHARS)) {
      const encoded = await this.engine.encode(batch);
      await db.stageEncodings(encoded.docs);
      encoded.docs.forEach((d, i) => {
        if (d.nTokens !== batch[i].n_tokens) changed.set(d.id, d.nTokens);
      });
      done += batch.length;
      if (done < total && done / total >= nextReport) {
        this.log('store re-encoding progress', { ...fields, docs: done, of: total, pct: Math.floor((100 * done) / total) });
        while (done / total >= nextReport) nextReport += 0.1;
      }
    }
    await db.commitStaged(made, changed);
    this.log('store re-encoded', { ...fields, docs: done, ms: Math.round(performance.now() - started) });
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

  /** Every open store with its project. */
  entries(): Array<{ project: string; store: OpenStore }> {
    return [...this.projects].flatMap(([project, p]) => [...p.byId.values()].filter((s) => !s.closed).map((store) => ({ project, store })));
  }

  allStores(): OpenStore[] {
    return this.entries().map((e) => e.store);
  }

  /** The open store with the most documents, with its project; undefined when there is none. */
  largest(): { project: string; store: OpenStore } | undefined {
    let best: { project: string; store: OpenStore } | undefined;
    for (const e of this.entries()) if (e.store.db.nDocs > (best?.store.db.nDocs ?? 0)) best = e;
    return best;
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
      const meta: StoreMeta = {
        id: newStoreId(),
        name,
        project,
        created_at: new Date().toISOString(),
        model: this.engine.model,
        analyzer: this.engine.analyzer,
      };
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
        try {
          await destroyStore(store.db);
        } catch (err) {
          // nothing was removed (e.g. a read-only data dir): the store stays as it was
          store.closed = false;
          p.byId.set(store.db.meta.id, store);
          p.byName.set(store.db.meta.name, store);
          throw err;
        }
        store.index.close();
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
