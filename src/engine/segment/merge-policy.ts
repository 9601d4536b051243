// When and what to merge. Segments are grouped in size tiers (powers of 4 of their row count);
// when a tier holds SEGMENTS.mergeFactor or more segments, the smallest such tier is merged into one
// segment. Segments that are mostly dead are merged too. This keeps the segment count logarithmic
// in the store size whatever the ingest batch sizes, and reclaims deleted rows.

import { SEGMENTS } from '../params.js';

interface Sized {
  nRows: number;
  liveRows: number;
}

const tier = (n: number) => Math.floor(Math.log(Math.max(n, 1)) / Math.log(4));

/** Segments to merge together now (at least two), or undefined. */
export function mergePlan<T extends Sized>(segments: T[]): T[] | undefined {
  const tiers = new Map<number, T[]>();
  for (const s of segments) {
    const t = tier(s.liveRows);
    tiers.set(t, [...(tiers.get(t) ?? []), s]);
  }
  const full = [...tiers.entries()].filter(([, ss]) => ss.length >= SEGMENTS.mergeFactor).sort((a, b) => a[0] - b[0]);
  if (full.length) return full[0][1].slice(0, 2 * SEGMENTS.mergeFactor);
  const sparse = segments.filter((s) => s.nRows > 64 && s.liveRows < SEGMENTS.deadRatio * s.nRows);
  if (sparse.length === 0) return undefined;
  const smallest = [...segments].sort((a, b) => a.liveRows - b.liveRows);
  const partner = smallest.find((s) => s !== sparse[0]);
  return partner ? [sparse[0], partner] : undefined;
}
