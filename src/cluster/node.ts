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
import { newStoreId } from '../store/index.js';
import { Catalog } from './catalog.js';
import { bucketKeys, type Nats } from './connection.js';
import { ClusterKeys } from './keys.js';
import { CLUSTER } from './params.js';
import { placeReplicas, storeKey } from './placement.js';
import { NotReplicaError, Replicas } from './replicas.js';
import type { AwaitReply, AwaitRequest, ForwardRequest, NodeRecord, RequestOp, StoreRecord, WireReply, WriteOp } from './types.js';
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

/** Undefined for a wait ended because this node stopped holding the store; any other failure is thrown again. */
const notReplica = (err: unknown): undefined => {
  if (err instanceof NotReplicaError) return undefined;
  throw err;
};

const unavailable = (message: string) => new ApiError('cluster_unavailable', message, { headers: { 'Retry-After': '1' } });

export class ClusterNode implements ClusterHooks {
  readonly usage: Usage;
  private readonly keys: ClusterKeys;
  private readonly replicas: Replicas;
  private live: string[];
  private readonly catalog: Catalog;
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
    this.catalog = new Catalog(nats.stores, (key) => {
      if (!this.closed && this.placement(key).includes(this.id)) this.replicas.follow(key);
    });
    this.replicas = new Replicas(nats.js, nats.jsm, (op) => this.apply(op), ctx.dataDir, this.log);
  }

  /** Joins: keys, catalog, membership, the node's subjects; resolves once the stores placed here caught up. */
  async start(): Promise<void> {
    await this.keys.start();
    this.usage.start();
    await this.catalog.start();
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

  /** `verify`, reading the cluster's keys bucket for a key this node has not seen yet (503 cluster_unavailable when it cannot be read). */
  async lookup(token: string): Promise<string | null> {
    try {
      return await this.keys.lookup(token);
    } catch (err) {
      throw unavailable(`the cluster's keys could not be read (${String(err)})`);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const s of this.subs) s.unsubscribe();
    this.usage.stop();
    this.keys.stop();
    this.catalog.stop();
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
      // a key renewed while the bucket is listed can be listed twice
      const live = [...new Set([...(await bucketKeys(this.nats.nodes)), this.id])].sort();
      if (this.closed) return; // closed while this beat was in flight: the nodes listed are those closing too
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

  /** The store key a request names (by name or id); 404 when neither the cluster nor this node has such a store. */
  private async resolve(project: string, ref: string): Promise<string> {
    const key = await this.catalog.resolve(project, ref);
    if (key) return key;
    this.ctx.services.registry.entry(project, ref); // throws the single node's 404 when this node has no such store either
    return storeKey(project, ref);
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
    const started = performance.now();
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
    const acked = performance.now();
    const confirmed = await this.confirmations(key, seq);
    this.log.debug(
      { store: key, seq, op, bytes: data.length, publish_ms: Math.round(acked - started), apply_ms: Math.round(performance.now() - acked) },
      'cluster write',
    );
    const outcome = [...confirmed.values()].find((o) => o !== undefined);
    if (!outcome)
      throw unavailable(
        `the write is in the log (sequence ${seq}) but no replica of the store confirmed applying it within ${CLUSTER.applyWaitMs / 1000} s; it will be applied when one is up`,
      );
    return fromWire(outcome);
  }

  /**
   * Waits until every node the store is placed on (placement re-read as members come and go) applied
   * `seq`, or left the placement, or CLUSTER.applyWaitMs passed: the replies of those that had it.
   */
  private async confirmations(key: string, seq: number): Promise<Map<string, WireReply | undefined>> {
    const asked = new Map<string, WireReply | undefined>();
    const deadline = Date.now() + CLUSTER.applyWaitMs;
    for (;;) {
      const want = this.placement(key).filter((n) => !asked.has(n));
      if (want.length === 0 || Date.now() >= deadline) return asked;
      const answers = await Promise.allSettled(want.map((node) => this.confirm(node, key, seq, deadline)));
      for (const [i, a] of answers.entries()) {
        asked.set(want[i], a.status === 'fulfilled' ? a.value : undefined);
        if (a.status === 'rejected')
          this.log.warn({ node: want[i], store: key, seq, err: String(a.reason) }, 'a replica did not confirm a write');
      }
    }
  }

  /** One node's confirmation that it applied `seq` of `key`: its reply, or undefined once it no longer holds the store. */
  private async confirm(node: string, key: string, seq: number, deadline: number): Promise<WireReply | undefined> {
    if (node === this.id) return this.replicas.awaitApplied(key, seq, deadline - Date.now()).catch(notReplica);
    let timer: NodeJS.Timeout | undefined;
    const left = new Promise<undefined>((resolve) => {
      timer = setInterval(() => {
        if (!this.placement(key).includes(node)) resolve(undefined);
      }, CLUSTER.heartbeatMs / 4);
    });
    const asked = (async () => {
      for (;;) {
        try {
          const r = await this.nats.nc.request(`${CLUSTER.nodePrefix}.${node}.await`, encode({ key, seq } satisfies AwaitRequest), {
            timeout: Math.max(1, deadline - Date.now()),
          });
          const a = decode<AwaitReply & WireReply>(r.data);
          if (a.status) throw new Error(`node ${node}: ${JSON.stringify(a.body)}`);
          return a.notReplica ? undefined : a.outcome;
        } catch (err) {
          // no responders: the node is reconnecting to another NATS server (its subscriptions are not back yet)
          if (!(err instanceof Error && /no responders/i.test(err.message)) || Date.now() + CLUSTER.heartbeatMs / 4 >= deadline) throw err;
          await new Promise((r) => setTimeout(r, CLUSTER.heartbeatMs / 4));
        }
      }
    })();
    try {
      return await Promise.race([asked, left]);
    } finally {
      clearInterval(timer);
    }
  }

  /**
   * A read runs here when this node holds the store and has caught up; else on a replica that has
   * (asked in placement order), and only when none has, on the first that answers once caught up.
   */
  private async read(op: OperationId, req: ClusterRequest, key: string): Promise<Reply<OperationId> | undefined> {
    const replicas = this.placement(key);
    const here = replicas.includes(this.id);
    if (here && this.replicas.isReady(key)) return undefined;
    const fwd: ForwardRequest = {
      op,
      key,
      project: req.project,
      params: req.params,
      query: req.rawQuery,
      body: req.body,
      headers: {},
      requestId: req.requestId,
      waitReady: false,
    };
    const others = replicas.filter((n) => n !== this.id);
    for (const waitReady of here ? [false] : [false, true]) {
      for (const node of others) {
        try {
          const r = await this.nats.nc.request(`${CLUSTER.nodePrefix}.${node}.op`, encode({ ...fwd, waitReady }), {
            timeout: CLUSTER.forwardTimeoutMs,
          });
          const w = decode<WireReply & { notReplica?: boolean }>(r.data);
          if (!w.notReplica) return fromWire(w);
        } catch (err) {
          if (err instanceof ApiError) throw err;
          this.log.warn({ node, store: key, err: String(err) }, 'forwarding a read failed; trying the next replica');
        }
      }
    }
    if (!here) throw unavailable(`no node holding store '${req.params.store}' answered (replicas: ${replicas.join(', ')})`);
    await this.replicas.ready(key).catch((err) => {
      throw unavailable((err as Error).message);
    });
    return undefined;
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
    if (!f.waitReady && !this.replicas.isReady(f.key)) {
      this.replicas.follow(f.key);
      return { status: 0, notReplica: true };
    }
    try {
      await this.replicas.ready(f.key);
      return toWire(await this.invoke(f));
    } catch (err) {
      if (!(err instanceof ApiError)) this.log.error({ err, req_id: f.requestId }, 'a forwarded request failed');
      return errorWire(err, f.requestId);
    }
  }

  private async serveAwait(a: AwaitRequest): Promise<AwaitReply> {
    if (!this.placement(a.key).includes(this.id)) return { notReplica: true };
    const outcome = await this.replicas.awaitApplied(a.key, a.seq, CLUSTER.applyWaitMs - 1000).catch(notReplica);
    return outcome === undefined && !this.replicas.isFollowing(a.key) ? { notReplica: true } : { outcome };
  }

  /** Runs a request that came over NATS on this node, as its own handler would. */
  private invoke(r: RequestOp): ReturnType<typeof this.ctx.invokeLocal> {
    return this.ctx.invokeLocal(r.op, {
      project: r.project,
      params: r.params,
      query: r.query as Record<string, string>,
      body: r.body,
      headers: r.headers,
      requestId: r.requestId,
    });
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
      const reply = await this.invoke(w);
      if (w.op === 'deleteStore') {
        const key = (await this.catalog.resolve(w.project, w.params.store)) ?? storeKey(w.project, w.params.store);
        await this.nats.stores.delete(key);
      }
      return toWire(reply);
    } catch (err) {
      if (err instanceof ApiError) return errorWire(err, w.requestId);
      throw err;
    }
  }
}
