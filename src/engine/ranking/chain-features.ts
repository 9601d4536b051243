// The features of a chain, which rank 2-chains (the model's W2) and 3-chains (W3): each passage's
// hop-1 features, each step's hop features, and a few of the chain's own. A 2-chain (p, c) is
// [H1(p), H1(c), H2(c|p), own2]; a 3-chain (p, c, d) extends it with [H1(d), H2(d|c), own3], and a
// 2-chain ranked among 3-chains is its vector padded with zeros. The blocks are the named tables of
// hop1-features.ts and hop2-features.ts, prefixed by the passage they describe.
import { type Feature, namesOf } from './feature-table.js';
import { H1_NAMES } from './hop1-features.js';
import { H2_NAMES } from './hop2-features.js';

/** What a 2-chain's own features read: where its first passage stands in hop 1. */
export interface ChainStart {
  /** p's place in hop 1's beam (0: the best document) */
  beamRank: number;
  /** hop-1 scores of p and of the beam's best */
  h1: number;
  h1Top: number;
}

export const CHAIN2_OWN: ReadonlyArray<Feature<ChainStart>> = [
  /** ln(1 + p's place in the beam) */
  { name: 'p_beam_rank', compute: (s) => Math.log1p(s.beamRank) },
  /** p's hop-1 score minus the beam's best */
  { name: 'p_h1_gap', compute: (s) => s.h1 - s.h1Top },
];

export const CHAIN3_OWN: ReadonlyArray<Feature<unknown>> = [
  /** 1 for a 3-chain, 0 for a 2-chain ranked among them */
  { name: 'is3', compute: () => 1 },
];

const prefixed = (prefix: string, names: readonly string[]) => names.map((n) => `${prefix}.${n}`);

export const CHAIN2_NAMES = [...prefixed('p', H1_NAMES), ...prefixed('c', H1_NAMES), ...prefixed('c|p', H2_NAMES), ...namesOf(CHAIN2_OWN)];
export const CHAIN3_NAMES = [...CHAIN2_NAMES, ...prefixed('d', H1_NAMES), ...prefixed('d|c', H2_NAMES), ...namesOf(CHAIN3_OWN)];

/** A 2-chain's vector: [H1(p), H1(c), H2(c|p), own2]. */
export function chain2Vector(h1p: Float64Array, h1c: Float64Array, h2c: Float64Array, start: ChainStart): Float64Array {
  const x = new Float64Array(CHAIN2_NAMES.length);
  let at = 0;
  for (const part of [h1p, h1c, h2c]) {
    x.set(part, at);
    at += part.length;
  }
  for (const f of CHAIN2_OWN) x[at++] = f.compute(start);
  return x;
}

/** A 3-chain's vector from its 2-chain's: [x2, H1(d), H2(d|c), own3]; without d, x2 padded with zeros. */
export function chain3Vector(x2: Float64Array, d?: { h1: Float64Array; h2: Float64Array }): Float64Array {
  const x = new Float64Array(CHAIN3_NAMES.length);
  x.set(x2, 0);
  if (!d) return x;
  let at = x2.length;
  for (const part of [d.h1, d.h2]) {
    x.set(part, at);
    at += part.length;
  }
  for (const f of CHAIN3_OWN) x[at++] = f.compute(undefined);
  return x;
}
