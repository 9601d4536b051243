// One svc node of a cluster (issue 33, docs/cluster.md). It heart-beats into the nodes bucket and
// reads the live set from it; places each store on SVC_REPLICAS live nodes by rendezvous hashing
// and follows (applies) the stores placed on it; and routes every request: a write is appended to
// its store's subject, acknowledged by a JetStream quorum, then answered with the reply of the
// store's live replicas once all of them applied it (so a search on any node after the 200 sees
// it); a read runs here when this node holds the store (once caught up), else on a node that does,
// over NATS request-reply; a store listing gathers every node's part.
// Invariants: nothing a client is told succeeded is only on this node (the log holds it on a
// quorum first); every replica applies the same writes in the same order; this node answers reads
// of a store only once it applied what the store's subject held when it began following it.
import { randomUUID } from 'node:crypto';
import type { Msg, Subscription } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { ClusterContext, ClusterHooks, ClusterRequest, Reply, RoutedReply } from '../api/index.js';
import { storeBody, storesPage } from '../api/index.js';
import type { OperationId, Store } from '../api-types.js';
import type { ClusterConfig } from '../config.js';
import { ApiError } from '../errors.js';
import { isStoreId, newStoreId } from '../store/index.js';
import { bucketKeys, type Nats } from './connection.js';
import { ClusterKeys } from './keys.js';
import { CLUSTER } from './params.js';
import { placeReplicas, storeKey } from './placement.js';
import { Replicas } from './replicas.js';
import type { AwaitReply, AwaitRequest, ForwardRequest, NodeRecord, StoreRecord, WireReply, WriteOp } from './types.js';
import { Usage } from './usage.js';
import { decode, encode, errorWire, fromWire, toWire } from './wire.js';

/** Operations that change a store (appended to the log); the other store operations read. */
const WRITES = new Set<OperationId>([
  'createStore',
  'deleteStore',
  'compactStore',
  'ingestDocuments',
  'deleteDocument',
  'patchDocument',
  'deleteDocuments',
]);
/** Operations every node answers by itself. */
const LOCAL = new Set<OperationId>(['health', 'livez', 'openapi']);

const unavailable = (message: string) => new ApiError('cluster_unavailable', message, { headers: { 'Retry-After': '1' } });

export class ClusterNode implements ClusterHooks {
  readonly usage: Usage;
  private readonly keys: ClusterKeys;
  private readonly replicas: Replicas;
  private live: string[];
  /** The catalog: store key -> record, and `<project>/<id>` -> store key. */
  private readonly catalog = new Map<string, StoreRecord>();
  private readonly byId = new Map<string, string>();
  private readonly subs: Subscription[] = [];
  private timer?: NodeJS.Timeout;
  private readonly started_at = new Date().toISOString();
  private closed = false;
  private readonly log: Logger;

  constructor(
    private readonly nats: Nats,
    private readonly config: ClusterConfig,
    readonly id: string,
    private readonly ctx: ClusterContext,
  ) {
    this.log = ctx.logger;
    this.live = [id];
    this.usage = new Usage(nats.nc, id);
    this.keys = new ClusterKeys(nats.keys, ctx.services.keys);
    this.replicas = new Replicas(nats.js, nats.jsm, (op) => this.apply(op), ctx.dataDir, this.log);
  }

  /** Joins: keys, catalog, membership, the node's subjects; resolves once the stores placed here caught up. */
  async start(): Promise<void> {
    await this.keys.start();
    this.usage.start();
    for (const k of await bucketKeys(this.nats.stores)) {
      const e = await this.nats.stores.get(k);
      if (e?.operation === 'PUT') this.remember(e.json<StoreRecord>());
    }
    void this.watchCatalog();
    const serve = (what: string, fn: (data: Uint8Array) => Promise<unknown>) =>
      this.subs.push(
        this.nats.nc.subscribe(`${CLUSTER.nodePrefix}.${this.id}.${what}`, {
          callback: (err, msg: Msg) => {
            if (err) return;
            fn(msg.data).then(
              (r) => msg.respond(encode(r)),
              (e) => msg.respond(encode(errorWire(e, 'cluster'))),
            );
          },
        }),
      );
    serve('op', (d) => this.serveForward(decode<ForwardRequest>(d)));
    serve('await', (d) => this.serveAwait(decode<AwaitRequest>(d)));
    serve('stores', async (d) => this.localStores(decode<{ project: string }>(d).project));
    await this.heartbeat();
    this.timer = setInterval(() => void this.heartbeat(), CLUSTER.heartbeatMs);
    this.timer.unref();
    await Promise.all(this.replicas.following().map((k) => this.replicas.ready(k, 24 * 3600_000)));
  }

  describe(): string {
    return `cluster ${this.config.urls.join(',')} · node ${this.id} · ${this.config.replicas} replicas of each store (${this.live.length} nodes live, stream on ${this.nats.streamReplicas} NATS servers)`;
  }

  verify(token: string): string | null {
    return this.keys.verify(token);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const s of this.subs) s.unsubscribe();
    this.usage.stop();
    this.keys.stop();
    await this.nats.nodes.delete(this.id).catch(() => undefined);
    await this.replicas.close();
    await this.nats.nc.drain().catch(() => undefined);
  }

  // --- membership and placement

  private async heartbeat(): Promise<void> {
    if (this.closed) return;
    try {
      const rec: NodeRecord = { id: this.id, started_at: this.started_at, at: new Date().toISOString() };
      await this.nats.nodes.put(this.id, JSON.stringify(rec));
      const live = (await bucketKeys(this.nats.nodes)).sort();
      if (!live.includes(this.id)) live.push(this.id);
      if (live.join() !== this.live.join()) {
        this.log.info({ nodes: live }, 'cluster members changed');
        this.live = live;
        this.rebalance();
      }
    } catch (err) {
      this.log.warn({ err: String(err) }, 'cluster heartbeat failed');
    }
  }

  private placement(key: string): string[] {
    return placeReplicas(key, this.live, this.config.replicas);
  }

  /** Follows the stores placed here, stops following the others. */
  private rebalance(): void {
    for (const key of new Set([...this.catalog.keys(), ...this.replicas.following()])) {
      if (this.placement(key).includes(this.id)) this.replicas.follow(key);
      else void this.replicas.unfollow(key);
    }
  }

  private remember(rec: StoreRecord): void {
    const key = storeKey(rec.project, rec.name);
    this.catalog.set(key, rec);
    this.byId.set(`${rec.project}/${rec.id}`, key);
    if (this.placement(key).includes(this.id)) this.replicas.follow(key);
  }

  private async watchCatalog(): Promise<void> {
    const watch = await this.nats.stores.watch();
    for await (const e of watch) {
      if (this.closed) break;
      if (e.operation === 'PUT') this.remember(e.json<StoreRecord>());
      else {
        const rec = this.catalog.get(e.key);
        this.catalog.delete(e.key);
        if (rec) this.byId.delete(`${rec.project}/${rec.id}`);
      }
    }
  }

  /** The store key a request names (by name or id); 404 when the catalog has no such store. */
  private async resolve(project: string, ref: string): Promise<string> {
    if (isStoreId(ref)) {
      const key = this.byId.get(`${project}/${ref}`);
      if (key) return key;
    }
    const key = storeKey(project, ref);
    if (this.catalog.has(key)) return key;
    const e = await this.nats.stores.get(key).catch(() => null);
    if (e?.operation === 'PUT') {
      this.remember(e.json<StoreRecord>());
      return key;
    }
    this.ctx.services.registry.entry(project, ref); // throws the single node's 404 when this node has no such store either
    return key;
  }

  // --- routing

  async route(op: OperationId, req: ClusterRequest): Promise<RoutedReply | undefined> {
    if (LOCAL.has(op)) return undefined;
    if (op === 'listStores') return this.listStores(req);
    if (op === 'createStore') return this.write(op, req, storeKey(req.project, (req.body as { name: string }).name));
    const key = await this.resolve(req.project, req.params.store);
    return WRITES.has(op) ? this.write(op, req, key) : this.read(op, req, key);
  }

  private async write(op: OperationId, req: ClusterRequest, key: string): Promise<Reply<OperationId>> {
    const idem = req.headers['idempotency-key'];
    const w: WriteOp = {
      op,
      project: req.project,
      params: req.params,
      query: req.rawQuery,
      body: req.body,
      headers: typeof idem === 'string' ? { 'idempotency-key': idem } : {},
      requestId: req.requestId,
      origin: this.id,
      fixed: op === 'createStore' ? { id: newStoreId(), created_at: new Date().toISOString() } : undefined,
    };
    const data = encode(w);
    const max = this.nats.nc.info?.max_payload ?? 1024 * 1024;
    if (data.length > max) {
      throw new ApiError(
        'document_too_large',
        `the request is ${(data.length / 2 ** 20).toFixed(1)} MB, over the cluster's ${(max / 2 ** 20).toFixed(1)} MB per write (the NATS servers' max_payload)`,
        {
          fix: `Send batches of at most ${(max / 2 ** 20).toFixed(1)} MB to a cluster, or raise max_payload on the NATS servers (docs/cluster.md).`,
        },
      );
    }
    let seq: number;
    try {
      const ack = await this.nats.js.publish(`${CLUSTER.writePrefix}.${key}`, data, {
        msgID: randomUUID(),
        timeout: CLUSTER.publishTimeoutMs,
      });
      seq = ack.seq;
    } catch (err) {
      throw unavailable(`the write was not acknowledged by a quorum of NATS servers: ${(err as Error).message}; nothing was written`);
    }
    const replicas = this.placement(key);
    const answers = await Promise.allSettled(
      replicas.map(async (node) => {
        if (node === this.id) return this.replicas.awaitApplied(key, seq);
        const r = await this.nats.nc.request(`${CLUSTER.nodePrefix}.${node}.await`, encode({ key, seq } satisfies AwaitRequest), {
          timeout: CLUSTER.applyWaitMs,
        });
        const a = decode<AwaitReply & WireReply>(r.data);
        if (a.status) throw new Error(`node ${node}: ${JSON.stringify(a.body)}`);
        return a.notReplica ? undefined : a.outcome;
      }),
    );
    for (const [i, a] of answers.entries())
      if (a.status === 'rejected')
        this.log.warn({ node: replicas[i], store: key, seq, err: String(a.reason) }, 'a replica did not confirm a write');
    const outcome = answers.find((a): a is PromiseFulfilledResult<WireReply> => a.status === 'fulfilled' && a.value !== undefined);
    if (!outcome)
      throw unavailable(
        `the write is in the log (sequence ${seq}) but no replica of the store confirmed applying it within ${CLUSTER.applyWaitMs / 1000} s; it will be applied when one is up`,
      );
    return fromWire(outcome.value);
  }

  private async read(op: OperationId, req: ClusterRequest, key: string): Promise<Reply<OperationId> | undefined> {
    const replicas = this.placement(key);
    if (replicas.includes(this.id)) {
      await this.replicas.ready(key).catch((err) => {
        throw unavailable((err as Error).message);
      });
      return undefined;
    }
    const fwd: ForwardRequest = {
      op,
      key,
      project: req.project,
      params: req.params,
      query: req.rawQuery,
      body: req.body,
      headers: {},
      requestId: req.requestId,
    };
    for (const node of replicas) {
      try {
        const r = await this.nats.nc.request(`${CLUSTER.nodePrefix}.${node}.op`, encode(fwd), { timeout: CLUSTER.forwardTimeoutMs });
        const w = decode<WireReply & { notReplica?: boolean }>(r.data);
        if (!w.notReplica) return fromWire(w);
      } catch (err) {
        if (err instanceof ApiError) throw err;
        this.log.warn({ node, store: key, err: String(err) }, 'forwarding a read failed; trying the next replica');
      }
    }
    throw unavailable(`no node holding store '${req.params.store}' answered (replicas: ${replicas.join(', ')})`);
  }

  private async listStores(req: ClusterRequest): Promise<Reply<OperationId>> {
    const parts = await Promise.allSettled(
      this.live.map(async (node) => {
        if (node === this.id) return this.localStores(req.project);
        const r = await this.nats.nc.request(`${CLUSTER.nodePrefix}.${node}.stores`, encode({ project: req.project }), {
          timeout: CLUSTER.listTimeoutMs,
        });
        return decode<Store[]>(r.data);
      }),
    );
    const byId = new Map<string, Store>();
    for (const p of parts) if (p.status === 'fulfilled' && Array.isArray(p.value)) for (const s of p.value) byId.set(s.id, s);
    const q = req.rawQuery as { cursor?: string; limit?: string };
    const limit = q.limit === undefined ? 20 : Number(q.limit);
    return { status: 200, body: storesPage([...byId.values()], q.cursor, limit) };
  }

  // --- what other nodes ask of this one

  /** This node's copies of the project's stores (those it follows). */
  private localStores(project: string): Store[] {
    const { registry } = this.ctx.services;
    return registry
      .list(project)
      .filter((e) => this.replicas.isFollowing(storeKey(project, e.meta.name)))
      .map((e) => storeBody(registry, e));
  }

  private async serveForward(f: ForwardRequest): Promise<WireReply & { notReplica?: boolean }> {
    if (!this.placement(f.key).includes(this.id)) return { status: 0, notReplica: true };
    try {
      await this.replicas.ready(f.key);
      const reply = await this.ctx.invokeLocal(f.op, {
        project: f.project,
        params: f.params,
        query: f.query as Record<string, string>,
        body: f.body,
        headers: f.headers,
        requestId: f.requestId,
      });
      return toWire(reply);
    } catch (err) {
      if (!(err instanceof ApiError)) this.log.error({ err, req_id: f.requestId }, 'a forwarded request failed');
      return errorWire(err, f.requestId);
    }
  }

  private async serveAwait(a: AwaitRequest): Promise<AwaitReply> {
    if (!this.placement(a.key).includes(this.id)) return { notReplica: true };
    return { outcome: await this.replicas.awaitApplied(a.key, a.seq, CLUSTER.applyWaitMs - 1000) };
  }

  /** Applies one write of the log here: the reply it gets, failures of the request included. */
  private async apply(w: WriteOp): Promise<WireReply> {
    const { registry } = this.ctx.services;
    try {
      if (w.op === 'createStore') {
        const name = (w.body as { name: string }).name;
        const entry = await registry.create(w.project, name, w.fixed);
        const rec: StoreRecord = { id: entry.meta.id, name, project: w.project, created_at: entry.meta.created_at };
        await this.nats.stores.put(storeKey(w.project, name), JSON.stringify(rec));
        return { status: 201, body: storeBody(registry, entry) };
      }
      const reply = await this.ctx.invokeLocal(w.op, {
        project: w.project,
        params: w.params,
        query: w.query as Record<string, string>,
        body: w.body,
        headers: w.headers,
        requestId: w.requestId,
      });
      if (w.op === 'deleteStore') {
        const key = this.byId.get(`${w.project}/${w.params.store}`) ?? storeKey(w.project, w.params.store);
        await this.nats.stores.delete(key);
      }
      return toWire(reply);
    } catch (err) {
      if (err instanceof ApiError) return errorWire(err, w.requestId);
      throw err;
    }
  }
}
