// The per-project token bucket (api/rate-limit.ts) on a fake clock: a burst of `rate`, then `rate`
// per second, 429 `rate_limited` with a Retry-After beyond; in a cluster, the tokens the other nodes
// took (their gossiped totals) come out of this node's bucket, as if spent evenly since it last
// looked, so the cluster admits what one bucket would: tokens the others took while this bucket
// was refilling anyway are not taken twice (the cluster test once admitted 81 of 110 after a pause).
import t from 'tap';
import { RateLimiter } from '../src/api/rate-limit.js';

const RATE = 50;

/** A limiter on a clock the test moves, and the other nodes' running total it reads. */
function limiter() {
  const clock = { ms: 0, elsewhere: 0, spent: 0 };
  const shared = {
    elsewhere: () => clock.elsewhere,
    spent: (_: string, n: number) => {
      clock.spent += n;
    },
  };
  return {
    clock,
    rl: new RateLimiter(
      RATE,
      () => clock.ms,
      () => shared,
    ),
  };
}

/** Requests admitted of `n` sent at once. */
function admitted(rl: RateLimiter, n: number): number {
  let ok = 0;
  for (let i = 0; i < n; i++) {
    try {
      rl.take('p');
      ok++;
    } catch (err) {
      if ((err as { type?: string }).type !== 'rate_limited') throw err;
    }
  }
  return ok;
}

t.test('alone: a burst of the rate, then the rate per second, 429 beyond with Retry-After', async (t) => {
  const { clock, rl } = limiter();
  t.equal(admitted(rl, 2 * RATE), RATE, 'a full bucket');
  clock.ms += 200;
  t.equal(admitted(rl, RATE), RATE / 5, 'a fifth of a second refills a fifth');
  try {
    rl.take('p');
    t.fail('admitted past the bucket');
  } catch (err) {
    const e = err as { type: string; status: number; headers?: Record<string, string> };
    t.same([e.type, e.status, e.headers?.['Retry-After']], ['rate_limited', 429, '1']);
  }
  t.equal(clock.spent, RATE + RATE / 5, 'every admitted token recorded for the other nodes');
});

t.test("the other nodes' tokens come out of this bucket", async (t) => {
  const { clock, rl } = limiter();
  t.equal(admitted(rl, 10), 10);
  clock.elsewhere += 30; // taken elsewhere just now
  t.equal(admitted(rl, RATE), RATE - 40, 'what is left of the one bucket');
  clock.ms += 1000;
  clock.elsewhere += RATE; // the others took the whole second's refill
  t.equal(admitted(rl, RATE), 0, 'nothing left for this node');
});

t.test('tokens the others took while the bucket refilled anyway are not taken twice', async (t) => {
  const { clock, rl } = limiter();
  t.equal(admitted(rl, 1), 1, 'this node looked once');
  clock.ms += 100;
  clock.elsewhere += 40; // the others' burst, then a pause of two seconds with nothing taken
  clock.ms += 2000;
  t.equal(admitted(rl, 2 * RATE), RATE, 'the bucket is full again: a whole burst');
});

t.test('the others spending the rate all along keep the bucket where it was', async (t) => {
  const { clock, rl } = limiter();
  t.equal(admitted(rl, RATE), RATE, 'drained');
  for (let s = 0; s < 4; s++) {
    clock.ms += 250;
    clock.elsewhere += RATE / 4;
  }
  t.equal(admitted(rl, RATE), 0, 'still empty: the others took every token the second brought');
});
