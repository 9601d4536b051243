// Memory bandwidth of a plain sequential read on this machine: memchr over a buffer much larger
// than the caches (Buffer.indexOf of a byte that is not there), the same reference bench/scan.ts
// prints. The floor of an exhaustive pass is bytes / this bandwidth. Invariants: the buffer is
// touched once before timing (no page faults are timed); best and median of `runs` are both
// reported, and floors use the best (the machine's limit, not its noise).
import { median } from './bench-util.js';

export interface Bandwidth {
  bestGBs: number;
  medianGBs: number;
  bytes: number;
}

export function measureBandwidth(bytes = 512 * 2 ** 20, runs = 9): Bandwidth {
  const buf = Buffer.alloc(bytes, 7);
  buf.indexOf(1); // fault every page in before timing
  const gbs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    if (buf.indexOf(1) !== -1) throw new Error('unreachable');
    gbs.push(bytes / ((performance.now() - t0) / 1000) / 1e9);
  }
  return { bestGBs: Math.max(...gbs), medianGBs: median(gbs), bytes };
}

/** Milliseconds to stream `bytes` at `gbs` GB/s. */
export const floorMs = (bytes: number, gbs: number) => (bytes / (gbs * 1e9)) * 1000;
