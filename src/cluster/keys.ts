// API keys of a cluster, in the KV bucket svc_keys (key id -> KeyRecord, which holds only the key's
// hash). Every node watches the bucket and keeps it in memory, so a key created or revoked through
// any node (or `svc keys` with SVC_NATS_URL) holds on every node as soon as the watch delivers it,
// milliseconds on a LAN; a key this node has no record of yet is read from the bucket once
// (`lookup`), so a key works on every node as soon as its creation returns. Invariants: a record in
// the bucket decides for its id (a revocation there wins over the node's own key file); ids not in
// the bucket fall back to the data dir's KeyRing; of two records of an id, the later revision
// stands; an id read in vain is not read again for CLUSTER.keyMissMs (a stream of unknown keys
// costs the bucket one read per id, at most CLUSTER.keyMisses remembered).
import type { KV } from '@nats-io/kv';
import { type KeyRecord, type KeyRing, keyId, keyMatches, newKey } from '../store/index.js';
import { CLUSTER } from './params.js';

export class ClusterKeys {
  private readonly records = new Map<string, KeyRecord>();
  private readonly revisions = new Map<string, number>();
  /** ids read from the bucket in vain, and when */
  private readonly misses = new Map<string, number>();
  private stopped = false;

  constructor(
    private readonly kv: KV,
    private readonly local: KeyRing,
  ) {}

  /** Loads the bucket, then follows its changes until `stop`. */
  async start(): Promise<void> {
    const watch = await this.kv.watch();
    let loaded = () => {};
    const initial = new Promise<void>((resolve) => (loaded = resolve));
    void (async () => {
      for await (const e of watch) {
        if (this.stopped) break;
        if (e.revision > (this.revisions.get(e.key) ?? 0))
          this.apply(e.key, e.revision, e.operation === 'PUT' ? e.json<KeyRecord>() : undefined);
        if (e.delta === 0) loaded();
      }
    })();
    // an empty bucket sends no entry: the watch is current once the bucket's history has been read
    if ((await this.kv.status()).values === 0) loaded();
    await initial;
    this.stopWatch = () => watch.stop();
  }

  private stopWatch = () => {};

  stop(): void {
    this.stopped = true;
    this.stopWatch();
  }

  verify(token: string): string | null {
    const id = keyId(token);
    if (!id) return null;
    const rec = this.records.get(id);
    if (!rec) return this.local.verify(token);
    return !rec.revoked_at && keyMatches(rec, token) ? rec.project : null;
  }

  /**
   * `verify` after reading the bucket's record of a key this node has no record of (one created
   * through another node a moment ago, which the watch has not delivered yet).
   */
  async lookup(token: string): Promise<string | null> {
    const id = keyId(token);
    if (id && !this.records.has(id) && Date.now() - (this.misses.get(id) ?? -Infinity) >= CLUSTER.keyMissMs) await this.read(id);
    return this.verify(token);
  }

  /** Takes the bucket's record of `id` (when newer than this node's), or remembers that it has none. */
  private async read(id: string): Promise<void> {
    const e = await this.kv.get(id);
    if (e && e.revision > (this.revisions.get(id) ?? 0))
      this.apply(id, e.revision, e.operation === 'PUT' ? e.json<KeyRecord>() : undefined);
    if (this.records.has(id)) return;
    if (this.misses.size >= CLUSTER.keyMisses) this.misses.clear();
    this.misses.set(id, Date.now());
  }

  private apply(id: string, revision: number, rec: KeyRecord | undefined): void {
    this.revisions.set(id, revision);
    if (rec) this.records.set(id, rec);
    else this.records.delete(id);
    this.misses.delete(id);
  }
}

/** Creates a key for `project` in the cluster's bucket; the key itself is returned once. */
export async function createKey(kv: KV, project: string): Promise<{ key: string; record: KeyRecord }> {
  const made = newKey(project);
  await kv.create(made.record.id, JSON.stringify(made.record));
  return made;
}

/** Revokes a key (the key itself or its id) in the cluster's bucket; undefined when there is none. */
export async function revokeKey(kv: KV, keyOrId: string): Promise<KeyRecord | undefined> {
  const id = keyId(keyOrId) ?? keyOrId;
  const e = await kv.get(id);
  if (e?.operation !== 'PUT') return undefined;
  const rec = e.json<KeyRecord>();
  if (keyId(keyOrId) && !keyMatches(rec, keyOrId)) return undefined;
  const revoked = { ...rec, revoked_at: rec.revoked_at ?? new Date().toISOString() };
  await kv.put(id, JSON.stringify(revoked));
  return revoked;
}

/** Every key record of the cluster's bucket. */
export async function listKeys(kv: KV): Promise<KeyRecord[]> {
  const out: KeyRecord[] = [];
  for await (const id of await kv.keys()) {
    const e = await kv.get(id);
    if (e?.operation === 'PUT') out.push(e.json<KeyRecord>());
  }
  return out;
}
