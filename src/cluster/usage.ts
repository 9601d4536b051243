// The cluster-wide rate limit's bookkeeping: each node counts the tokens it takes per project and
// publishes its running totals every CLUSTER.rateGossipMs on svc.rate (core NATS, not persisted);
// each node keeps the others' latest totals. The API's token bucket takes the others' growth from
// its own bucket (src/api/rate-limit.ts), so the project's tokens are shared: the cluster admits the
// rate plus at most what the other nodes admit within one gossip interval.
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { SharedUsage } from '../api/index.js';
import { CLUSTER } from './params.js';
import { decode, encode } from './wire.js';

interface Totals {
  node: string;
  counts: Record<string, number>;
}

export class Usage implements SharedUsage {
  private readonly mine = new Map<string, number>();
  private readonly others = new Map<string, Map<string, number>>();
  private changed = false;
  private timer?: NodeJS.Timeout;
  private sub?: Subscription;

  constructor(
    private readonly nc: NatsConnection,
    private readonly node: string,
  ) {}

  start(): void {
    this.sub = this.nc.subscribe(CLUSTER.rateSubject, {
      callback: (err, msg) => {
        if (err) return;
        const t = decode<Totals>(msg.data);
        if (t.node !== this.node) this.others.set(t.node, new Map(Object.entries(t.counts)));
      },
    });
    this.timer = setInterval(() => {
      if (!this.changed) return;
      this.changed = false;
      this.nc.publish(CLUSTER.rateSubject, encode({ node: this.node, counts: Object.fromEntries(this.mine) } satisfies Totals));
    }, CLUSTER.rateGossipMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.sub?.unsubscribe();
  }

  elsewhere(project: string): number {
    let n = 0;
    for (const counts of this.others.values()) n += counts.get(project) ?? 0;
    return n;
  }

  spent(project: string, n: number): void {
    this.mine.set(project, (this.mine.get(project) ?? 0) + n);
    this.changed = true;
  }
}
