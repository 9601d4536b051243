// Token bucket per project: `rate` tokens per second, bursts up to `rate`. A request that finds
// the bucket empty is refused with 429 `rate_limited` and a Retry-After (whole seconds, at least 1)
// saying when a token will be there; one that counts more than the rate (a batch of more searches)
// could never pass, and is refused with 400 `invalid_request` instead. Buckets of idle projects are
// dropped. In a cluster the bucket is the cluster's: tokens the other nodes took (gossiped totals,
// `shared`) are taken from this node's bucket too, so the project's rate holds across nodes within
// one gossip interval; they are taken as if spent evenly since the bucket last looked (out of its
// refill, before the cap), so tokens spent elsewhere while this bucket was refilling anyway are not
// taken twice.
import { ApiError } from '../errors.js';
import type { SharedUsage } from './cluster-hooks.js';

interface Bucket {
  tokens: number;
  at: number;
  /** The other nodes' running total for the project when this bucket last looked. */
  seen: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly rate: number,
    private readonly now: () => number = () => performance.now(),
    private readonly shared: () => SharedUsage | undefined = () => undefined,
  ) {}

  /**
   * Takes `n` tokens (one per request, one per search of a batch) for `project`, or none and throws
   * 429. `counted` is all the request counts (its own token, taken before its body was read, and
   * `n`): past the rate it could never pass, and is refused with 400 rather than told to retry.
   */
  take(project: string, n = 1, counted = n): void {
    if (counted > this.rate)
      throw new ApiError(
        'invalid_request',
        `this request counts ${counted} against the rate limit, over the ${this.rate} a project may send per second`,
        {
          fix: `A batch counts each of its searches: send at most ${this.rate} per request, in smaller batches.`,
        },
      );
    const t = this.now();
    const shared = this.shared();
    const elsewhere = shared?.elsewhere(project) ?? 0;
    let b = this.buckets.get(project);
    if (!b) {
      if (this.buckets.size > 10_000) this.sweep(t);
      b = { tokens: this.rate, at: t, seen: elsewhere };
      this.buckets.set(project, b);
    }
    b.tokens = Math.min(this.rate, b.tokens + ((t - b.at) / 1000) * this.rate - Math.max(0, elsewhere - b.seen));
    b.seen = elsewhere;
    b.at = t;
    if (b.tokens >= n) {
      b.tokens -= n;
      shared?.spent(project, n);
      return;
    }
    const wait = Math.max(1, Math.ceil((n - b.tokens) / this.rate));
    throw new ApiError('rate_limited', `project '${project}' exceeded ${this.rate} requests per second`, {
      fix: `Retry after ${wait} s (Retry-After header); the limit is ${this.rate} requests per second per project (a batch counts each search).`,
      headers: { 'Retry-After': String(wait) },
    });
  }

  private sweep(t: number): void {
    for (const [k, b] of this.buckets) if (t - b.at > 60_000) this.buckets.delete(k);
  }
}
