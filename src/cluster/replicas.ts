// The stores this node holds a copy of, each fed by an ordered JetStream consumer on its subject.
// Invariants: a store's writes are applied one at a time in log order, from the sequence after the
// last one applied (kept per store in `<dataDir>/cluster-applied.json`, written after each apply
// without fsync: after a crash a few writes may be applied again, and every write is idempotent
// when replayed in order: an upsert, a delete, a metadata merge, a create of the same id); a store
// is `ready` once it applied everything its subject held when it began to follow it; a write that
// fails for a reason of the request (an ApiError) is applied as that failure, on every replica
// alike, while any other failure (a storage fault) is retried until it passes; a consumer that ends,
// fails or stalls while writes are waited for is made again from the last write applied.
import fs from 'node:fs';
import path from 'node:path';
import type { ConsumerMessages, JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { Logger } from 'pino';
import { ApiError } from '../errors.js';
import { CLUSTER } from './params.js';
import type { WireReply, WriteOp } from './types.js';
import { decode } from './wire.js';

interface Feed {
  key: string;
  ready: Promise<void>;
  markReady: () => void;
  isReady: boolean;
  messages?: ConsumerMessages;
  stopped: boolean;
  loop: Promise<void>;
  /** When the feed last applied a write or (re)started its consumer. */
  progressAt: number;
}

export type Apply = (op: WriteOp) => Promise<WireReply>;

/** A wait for a write ended because this node stopped holding the store (placement moved it). */
export class NotReplicaError extends Error {
  constructor(key: string) {
    super(`this node no longer holds store ${key}`);
    this.name = 'NotReplicaError';
  }
}

export class Replicas {
  private readonly applied: Record<string, number>;
  private readonly feeds = new Map<string, Feed>();
  /** Feeds told to stop whose last apply may still run: a new feed of the store starts after it. */
  private readonly stopping = new Map<string, Promise<void>>();
  private readonly outcomes = new Map<string, { reply: WireReply; at: number }>();
  private readonly waiters = new Map<string, Array<{ seq: number; since: number; wake: () => void; drop: (err: Error) => void }>>();
  private readonly file: string;
  private readonly timer: NodeJS.Timeout;
  /** Set by close: no feed starts after it (a heartbeat in flight at close would otherwise start one that retries forever). */
  private closed = false;

  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly apply: Apply,
    dataDir: string,
    private readonly log: Logger,
  ) {
    this.file = path.join(dataDir, 'cluster-applied.json');
    this.applied = fs.existsSync(this.file) ? (JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, number>) : {};
    this.timer = setInterval(() => this.watchdog(), CLUSTER.stallMs / 2);
    this.timer.unref();
  }

  /** The keys of the stores followed now. */
  following(): string[] {
    return [...this.feeds.keys()];
  }

  isFollowing(key: string): boolean {
    return this.feeds.has(key);
  }

  /** Whether `key` is followed here and has caught up. */
  isReady(key: string): boolean {
    return this.feeds.get(key)?.isReady ?? false;
  }

  /** The last sequence of `key`'s subject applied here (0: none). */
  appliedSeq(key: string): number {
    return this.applied[key] ?? 0;
  }

  /** Starts applying `key`'s subject here (no-op when already); NotReplicaError once closed. */
  follow(key: string): Feed {
    let feed = this.feeds.get(key);
    if (feed) return feed;
    if (this.closed) throw new NotReplicaError(key);
    let markReady = () => {};
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const f: Feed = { key, ready, markReady: () => {}, isReady: false, stopped: false, loop: Promise.resolve(), progressAt: Date.now() };
    f.markReady = () => {
      if (f.isReady) return;
      f.isReady = true;
      markReady();
      this.log.info({ store: key, seq: this.appliedSeq(key) }, 'cluster replica caught up');
    };
    this.log.info({ store: key, from: this.appliedSeq(key) + 1 }, 'cluster replica follows a store');
    const previous = this.stopping.get(key) ?? Promise.resolve();
    f.loop = previous.then(() => this.feedLoop(f));
    this.feeds.set(key, f);
    feed = f;
    return feed;
  }

  /** Stops applying `key` here (the data stays; following again resumes after the last write applied). */
  async unfollow(key: string): Promise<void> {
    const feed = this.feeds.get(key);
    if (!feed) return;
    this.feeds.delete(key);
    feed.stopped = true;
    this.log.info({ store: key, seq: this.appliedSeq(key) }, 'cluster replica stops following a store');
    for (const w of this.waiters.get(key) ?? []) w.drop(new NotReplicaError(key));
    this.waiters.delete(key);
    this.stopping.set(key, feed.loop);
    await feed.messages?.close();
    await feed.loop;
    if (this.stopping.get(key) === feed.loop) this.stopping.delete(key);
  }

  /** Resolves once `key` has caught up (following it first), or throws after `ms`. */
  async ready(key: string, ms: number = CLUSTER.applyWaitMs): Promise<void> {
    const feed = this.follow(key);
    if (feed.isReady) return;
    await withTimeout(feed.ready, ms, `store ${key} did not catch up within ${ms / 1000} s`);
  }

  /** Waits until `seq` of `key` is applied here (following it first): the write's reply when still kept. */
  async awaitApplied(key: string, seq: number, ms: number = CLUSTER.applyWaitMs): Promise<WireReply | undefined> {
    this.follow(key);
    if (this.appliedSeq(key) < seq) {
      let wake = () => {};
      let drop = (_: Error) => {};
      const done = new Promise<void>((resolve, reject) => {
        wake = resolve;
        drop = reject;
      });
      const list = this.waiters.get(key) ?? [];
      list.push({ seq, since: Date.now(), wake, drop });
      this.waiters.set(key, list);
      await withTimeout(done, ms, `store ${key} did not apply write ${seq} within ${ms / 1000} s`);
    }
    return this.outcomes.get(`${key}#${seq}`)?.reply;
  }

  /** Stops every feed. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.all(this.following().map((k) => this.unfollow(k)));
  }

  private async lastSeq(subject: string): Promise<number> {
    try {
      return (await this.jsm.streams.getMessage(CLUSTER.stream, { last_by_subj: subject }))?.seq ?? 0;
    } catch (err) {
      if (/no message found/i.test((err as Error).message)) return 0;
      throw err;
    }
  }

  /**
   * Runs a feed until it is stopped: a consumer that ends or fails (its NATS server went away and
   * JetStream did not answer while the client re-made it), or that the watchdog closed, is made
   * again from the sequence after the last one applied.
   */
  private async feedLoop(feed: Feed): Promise<void> {
    while (!feed.stopped) {
      try {
        await this.run(feed);
      } catch (err) {
        if (!feed.stopped) this.log.warn({ err: String(err), store: feed.key }, 'cluster replica consumer failed; making it again');
      }
      if (!feed.stopped) await new Promise((r) => setTimeout(r, CLUSTER.feedRestartMs));
    }
  }

  /** Closes the consumer of every feed that has writes waited for but applied nothing for CLUSTER.stallMs (feedLoop makes it again). */
  private watchdog(): void {
    const now = Date.now();
    for (const [key, list] of this.waiters) {
      const feed = this.feeds.get(key);
      if (!feed?.messages || now - feed.progressAt < CLUSTER.stallMs) continue;
      if (!list.some((w) => now - w.since >= CLUSTER.stallMs)) continue;
      this.log.warn({ store: key, seq: this.appliedSeq(key) }, 'cluster replica stalled; making its consumer again');
      feed.progressAt = now;
      void feed.messages.close();
    }
  }

  private async run(feed: Feed): Promise<void> {
    const subject = `${CLUSTER.writePrefix}.${feed.key}`;
    const last = await this.lastSeq(subject);
    if (this.appliedSeq(feed.key) >= last) feed.markReady();
    const consumer = await this.js.consumers.get(CLUSTER.stream, {
      filter_subjects: subject,
      opt_start_seq: this.appliedSeq(feed.key) + 1,
    });
    if (feed.stopped) return;
    const messages = await consumer.consume(CLUSTER.pull);
    feed.messages = messages;
    feed.progressAt = Date.now();
    if (feed.stopped) {
      await messages.close();
      return;
    }
    for await (const m of messages) {
      if (feed.stopped) break;
      if (m.seq <= this.appliedSeq(feed.key)) continue;
      const op = decode<WriteOp>(m.data);
      const started = performance.now();
      const reply = await this.applyUntilDone(op, feed);
      this.log.debug(
        { store: feed.key, seq: m.seq, op: op.op, pending: m.info.pending, ms: Math.round(performance.now() - started) },
        'cluster write applied',
      );
      if (reply === undefined) break;
      this.record(feed.key, m.seq, reply);
      feed.progressAt = Date.now();
      if (m.seq >= last || m.info.pending === 0) feed.markReady();
    }
  }

  /** Applies `op`, retrying a failure that is not the request's own; undefined when the feed stopped meanwhile. */
  private async applyUntilDone(op: WriteOp, feed: Feed): Promise<WireReply | undefined> {
    for (;;) {
      try {
        return await this.apply(op);
      } catch (err) {
        if (err instanceof ApiError) throw err; // apply returns request failures as replies; this is a bug
        this.log.error({ err, store: feed.key, op: op.op }, 'cluster replica could not apply a write; retrying');
        await new Promise((r) => setTimeout(r, CLUSTER.applyRetryMs));
        if (feed.stopped) return undefined;
      }
    }
  }

  private record(key: string, seq: number, reply: WireReply): void {
    this.applied[key] = seq;
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.applied));
    fs.renameSync(tmp, this.file);
    const now = Date.now();
    this.outcomes.set(`${key}#${seq}`, { reply, at: now });
    for (const [k, o] of this.outcomes) {
      if (now - o.at < CLUSTER.outcomeKeepMs) break;
      this.outcomes.delete(k);
    }
    const list = this.waiters.get(key);
    if (!list) return;
    const left = list.filter((w) => {
      if (w.seq > seq) return true;
      w.wake();
      return false;
    });
    if (left.length) this.waiters.set(key, left);
    else this.waiters.delete(key);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
