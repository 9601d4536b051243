// The cluster's catalog of stores, from the KV bucket svc_stores (`<project>.<name>` -> StoreRecord,
// written by the replicas that apply a create or a delete), kept in memory and followed by a watch.
// Invariant: a store this node has seen created is found by name and by id until its delete is seen;
// a miss is checked against the bucket itself before it counts (the watch may lag a create by ms).
import type { KV, KvWatchEntry } from '@nats-io/kv';
import type { QueuedIterator } from '@nats-io/transport-node';
import { isStoreId } from '../store/index.js';
import { bucketKeys } from './connection.js';
import { storeKey } from './placement.js';
import type { StoreRecord } from './types.js';

export class Catalog {
  private readonly byKey = new Map<string, StoreRecord>();
  /** `<project>/<id>` -> store key. */
  private readonly byId = new Map<string, string>();
  private watch?: QueuedIterator<KvWatchEntry>;

  /** `onStore` is told of every store seen (at start and when created). */
  constructor(
    private readonly kv: KV,
    private readonly onStore: (key: string) => void,
  ) {}

  /** Reads the bucket, then follows it until `stop`. */
  async start(): Promise<void> {
    for (const k of await bucketKeys(this.kv)) {
      const e = await this.kv.get(k);
      if (e?.operation === 'PUT') this.remember(e.json<StoreRecord>());
    }
    const watch = await this.kv.watch();
    this.watch = watch;
    void (async () => {
      for await (const e of watch) {
        if (e.operation === 'PUT') this.remember(e.json<StoreRecord>());
        else this.forget(e.key);
      }
    })();
  }

  stop(): void {
    this.watch?.stop();
  }

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  /** The store key `ref` (a name or an id) names in `project`, or undefined when the cluster has no such store. */
  async resolve(project: string, ref: string): Promise<string | undefined> {
    if (isStoreId(ref)) {
      const key = this.byId.get(`${project}/${ref}`);
      if (key) return key;
    }
    const key = storeKey(project, ref);
    if (this.byKey.has(key)) return key;
    const e = await this.kv.get(key).catch(() => null);
    if (e?.operation !== 'PUT') return undefined;
    this.remember(e.json<StoreRecord>());
    return key;
  }

  private remember(rec: StoreRecord): void {
    const key = storeKey(rec.project, rec.name);
    this.byKey.set(key, rec);
    this.byId.set(`${rec.project}/${rec.id}`, key);
    this.onStore(key);
  }

  private forget(key: string): void {
    const rec = this.byKey.get(key);
    this.byKey.delete(key);
    if (rec) this.byId.delete(`${rec.project}/${rec.id}`);
  }
}
