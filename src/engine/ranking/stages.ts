// The stages of a search, shared by serving (loop.ts) and training: stage 1 ranks the hop-1 pool by
// W1; stage 2 extends the best STAGES.beam2 documents of stage 1 into 2-chains scored by W2; stage 3
// extends the best STAGES.beam3 2-chains into 3-chains scored, together with the 2-chains, by W3.
// Building a stage's candidates needs only the weights of earlier stages, so training can fit them
// in order. A stage's result list (assemble.ts) draws on hop 1's ranking whatever the stage.
import type { ExpansionParams } from '../model/index.js';
import { RESULT_LIST, STAGES } from '../params.js';
import { assemble } from './assemble.js';
import { chain2Vector, chain3Vector } from './chain-features.js';
import { chainOrder } from './confidence.js';
import type { SearchCorpus } from './corpus.js';
import { dotw } from './feature-table.js';
import { H1_NAMES } from './hop1-features.js';
import { H2_NAMES } from './hop2-features.js';
import type { Searcher } from './hops.js';
import type { Chains, Hop1, HopNext, Query, Stage, Why } from './types.js';

const QCOV = H1_NAMES.indexOf('qcov');
const HIT = H1_NAMES.indexOf('hit');
const QCOV_UNION = H2_NAMES.indexOf('qcov_union');
const LK = H2_NAMES.indexOf('lk');
/** Words of the passage read that a trace step quotes for an expansion. */
const TRACE_WORDS = 4;

/** Indices into `rows`, taken in `order` (best first), keeping the first row of each document, at most n. */
function bestDocs(c: SearchCorpus, rows: number[], order: number[], n: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  for (const i of order) {
    const d = c.docOf(rows[i]);
    if (seen.has(d)) continue;
    seen.add(d);
    out.push(i);
    if (out.length >= n) break;
  }
  return out;
}

/**
 * Whether hop 1's first STAGES.oneDocument passages (`ranked`, best first) all lie in one document
 * of RESULT_LIST.longDoc passages or more that the loop reads whole: its unit of evidence
 * (SearchCorpus.docOf) is the document itself, not a section of a longer one, nor a passage of one
 * over FEATURE_TEXT.docWindow passages (each a unit of its own, which chains may join).
 */
export function heldByOneDocument(c: SearchCorpus, ranked: readonly number[]): boolean {
  const top = ranked.slice(0, STAGES.oneDocument);
  if (top.length < STAGES.oneDocument) return false;
  const unit = c.docOf(top[0]);
  return unit === c.documentOf(top[0]) && c.docRows(top[0])[1] >= RESULT_LIST.longDoc && top.every((row) => c.docOf(row) === unit);
}

export function buildHop1(s: Searcher, q: Query, W1: number[]): Hop1 {
  const { rows, features } = s.hop1(q);
  const h1 = features.map((f) => dotw(W1, f));
  const order = chainOrder(h1);
  return { pool: rows, F1: features, h1, beam: bestDocs(s.c, rows, order, STAGES.beam2), ranked: order.map((i) => rows[i]) };
}

function queryWhy(s: Searcher, q: Query, row: number): Why {
  const body = new Set(s.c.seq(row).terms);
  return { kind: 'query', terms: q.qt.filter((t) => body.has(t)) };
}

/** Why a chain's last passage was read: p, the passage before it, names its title, or p's expansion terms found it. */
function chainWhy(s: Searcher, chain: number[], next: HopNext): Why {
  const p = chain[chain.length - 2];
  const link = next.links.get(s.c.titleKey(chain[chain.length - 1]));
  const expansion = next.expansion;
  if (link) {
    const skip = s.c.titleLineLength(p);
    return { kind: 'link', fromRow: p, positions: Array.from({ length: link.len }, (_, i) => skip + link.pos + i) };
  }
  return { kind: 'expansion', fromRow: p, positions: expansion.slice(0, TRACE_WORDS) };
}

/** 2-chains (p in the beam, c a candidate read from p), with their chain features (chain-features.ts). */
export function buildHop2(s: Searcher, q: Query, h: Hop1, exp: ExpansionParams): Chains {
  // a chain's why is built when asked (the trace asks for one chain's): chain j was read from nexts[from[j]]
  const nexts: HopNext[] = [];
  const from: number[] = [];
  const out: Chains = { chains: [], X: [], qcov: [], lk: [], why: (j) => chainWhy(s, out.chains[j], nexts[from[j]]) };
  const beamRows = new Set(h.beam.map((j) => h.pool[j]));
  const top = h.h1[h.beam[0]];
  h.beam.forEach((j, r) => {
    const p = h.pool[j];
    const next = s.hopNext(q, [p], beamRows, exp);
    nexts.push(next);
    next.rows.forEach((cRow, i) => {
      const x = chain2Vector(h.F1[j], s.hop1Features(q, cRow), next.features[i], { beamRank: r, h1: h.h1[j], h1Top: top });
      out.chains.push([p, cRow]);
      out.X.push(x);
      out.qcov.push(next.features[i][QCOV_UNION]);
      out.lk.push(next.features[i][LK]);
      from.push(nexts.length - 1);
    });
  });
  return out;
}

/** 3-chains extending the best STAGES.beam3 2-chains, plus every 2-chain padded with zeros. */
export function buildHop3(s: Searcher, q: Query, two: Chains, sc2: number[], exp: ExpansionParams): Chains & { extends: number[] } {
  // the 2-chains come first and keep their whys; 3-chain j was read from nexts[from[j - n2]]
  const nexts: HopNext[] = [];
  const from: number[] = [];
  const n2 = two.chains.length;
  const out: Chains & { extends: number[] } = {
    chains: [],
    X: [],
    qcov: [],
    lk: [],
    why: (j) => (j < n2 ? two.why(j) : chainWhy(s, out.chains[j], nexts[from[j - n2]])),
    extends: [],
  };
  two.chains.forEach((ch, j) => {
    out.chains.push(ch);
    out.X.push(chain3Vector(two.X[j]));
    out.qcov.push(two.qcov[j]);
    out.lk.push(two.lk[j]);
    out.extends.push(-1);
  });
  const extended = chainOrder(sc2).slice(0, STAGES.beam3);
  const all = s.hopNexts(
    q,
    extended.map((j) => two.chains[j]),
    new Set(),
    exp,
  );
  extended.forEach((j, b) => {
    const [p, cRow] = two.chains[j];
    const next = all[b];
    nexts.push(next);
    next.rows.forEach((d, i) => {
      out.chains.push([p, cRow, d]);
      out.X.push(chain3Vector(two.X[j], { h1: s.hop1Features(q, d), h2: next.features[i] }));
      out.qcov.push(next.features[i][QCOV_UNION]);
      out.lk.push(next.features[i][LK]);
      from.push(nexts.length - 1);
      out.extends.push(j);
    });
  });
  return out;
}

/** Stage-1 chains are single pool rows. */
export function hop1Chains(s: Searcher, q: Query, h: Hop1): Chains {
  return {
    chains: h.pool.map((r) => [r]),
    X: h.F1,
    qcov: h.F1.map((f) => f[QCOV]),
    lk: h.F1.map((f) => f[HIT]),
    why: (j) => queryWhy(s, q, h.pool[j]),
  };
}

/** A stage as the sufficiency features see it: its chains and the first k of its result list. */
export function stageOf(c: SearchCorpus, ch: Chains, scores: number[], k: number, s1: readonly number[]): Stage & { from: number[] } {
  const { ret, hops, from } = assemble(c, ch.chains, scores, k, s1);
  return { chains: ch.chains, scores, ret, hops, from, qcov: ch.qcov, lk: ch.lk };
}
