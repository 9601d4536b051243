// The stores this node holds a copy of, each fed by an ordered JetStream consumer on its subject.
// Invariants: a store's writes are applied one at a time in log order, from the sequence after the
// last one applied (kept per store in `<dataDir>/cluster-applied.json`, written after each apply
// without fsync: after a crash a few writes may be applied again, and every write is idempotent
// when replayed in order: an upsert, a delete, a metadata merge, a create of the same id); a store
// is `ready` once it applied everything its subject held when it began to follow it; a write that
// fails for a reason of the request (an ApiError) is applied as that failure, on every replica
// alike, while any other failure (a storage fault) is retried until it passes.
import fs from 'node:fs';
import path from 'node:path';
import type { ConsumerMessages, JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
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
}

export type Apply = (op: WriteOp) => Promise<WireReply>;

export class Replicas {
  private readonly applied: Record<string, number>;
  private readonly feeds = new Map<string, Feed>();
  private readonly outcomes = new Map<string, { reply: WireReply; at: number }>();
  private readonly waiters = new Map<string, Array<{ seq: number; wake: () => void }>>();
  private readonly file: string;

  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly apply: Apply,
    dataDir: string,
    private readonly log: { info(o: object, m: string): void; error(o: object, m: string): void },
  ) {
    this.file = path.join(dataDir, 'cluster-applied.json');
    this.applied = fs.existsSync(this.file) ? (JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, number>) : {};
  }

  /** The keys of the stores followed now. */
  following(): string[] {
    return [...this.feeds.keys()];
  }

  isFollowing(key: string): boolean {
    return this.feeds.has(key);
  }

  /** The last sequence of `key`'s subject applied here (0: none). */
  appliedSeq(key: string): number {
    return this.applied[key] ?? 0;
  }

  /** Starts applying `key`'s subject here (no-op when already). */
  follow(key: string): Feed {
    let feed = this.feeds.get(key);
    if (feed) return feed;
    let markReady = () => {};
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const f: Feed = { key, ready, markReady: () => {}, isReady: false, stopped: false, loop: Promise.resolve() };
    f.markReady = () => {
      if (f.isReady) return;
      f.isReady = true;
      markReady();
      this.log.info({ store: key, seq: this.appliedSeq(key) }, 'cluster replica caught up');
    };
    f.loop = this.run(f).catch((err) => this.log.error({ err, store: key }, 'cluster replica stopped applying'));
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
    await feed.messages?.close();
    await feed.loop;
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
      const done = new Promise<void>((resolve) => (wake = resolve));
      const list = this.waiters.get(key) ?? [];
      list.push({ seq, wake });
      this.waiters.set(key, list);
      await withTimeout(done, ms, `store ${key} did not apply write ${seq} within ${ms / 1000} s`);
    }
    return this.outcomes.get(`${key}#${seq}`)?.reply;
  }

  /** Stops every feed. */
  async close(): Promise<void> {
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

  private async run(feed: Feed): Promise<void> {
    const subject = `${CLUSTER.writePrefix}.${feed.key}`;
    const last = await this.lastSeq(subject);
    if (this.appliedSeq(feed.key) >= last) feed.markReady();
    const consumer = await this.js.consumers.get(CLUSTER.stream, {
      filter_subjects: subject,
      opt_start_seq: this.appliedSeq(feed.key) + 1,
    });
    if (feed.stopped) return;
    const messages = await consumer.consume();
    feed.messages = messages;
    if (feed.stopped) {
      await messages.close();
      return;
    }
    for await (const m of messages) {
      if (feed.stopped) break;
      if (m.seq <= this.appliedSeq(feed.key)) continue;
      const op = decode<WriteOp>(m.data);
      const reply = await this.applyUntilDone(op, feed);
      if (reply === undefined) break;
      this.record(feed.key, m.seq, reply);
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
