// The multi-hop loop (worker side): stage 1 (hop 1), then, unless the calibrated sufficiency of the
// evidence reaches the model's threshold or max_hops is 1, stage 2 (chains of 2), then likewise
// stage 3 (chains of 3). The response comes from the stage it stopped at: its result list, the hop
// that found each passage, its confidence, and a trace step per hop (the top chain's passages).
import type { ModelDescriptor } from './model.js';
import { confFeatures, confidence, type ConfParams, type Stage } from './search-confidence.js';
import type { SearchCorpus } from './search-corpus.js';
import { RANK_CAP, Searcher, type ExpansionParams, type HopBuffers } from './search-hops.js';
import { assemble, buildHop1, buildHop2, buildHop3, dotw, hop1Chains, type Chains, type Why } from './search-stages.js';

export const TOPK_MAX = RANK_CAP;

/** The learned part of the model used by the loop (model.params.search). */
export interface LoopParams {
  W1: number[];
  W2: number[];
  W3: number[];
  exp: ExpansionParams;
  conf: ConfParams[];
  tau: number[];
}

export interface LoopHit {
  row: number;
  score: number;
  hop: number;
}

export interface LoopOutput {
  hits: LoopHit[];
  hopsUsed: number;
  confidence: number;
  steps: Array<{ hop: number; row: number; why: Why }>;
}

function stageOf(c: SearchCorpus, ch: Chains, scores: number[], k: number): Stage & { from: number[] } {
  const { ret, hops, from } = assemble(c, ch.chains, scores, k);
  return { chains: ch.chains, scores, ret, hops, from, qcov: ch.qcov, lk: ch.lk };
}

function output(st: Stage & { from: number[] }, ch: Chains, conf: number): LoopOutput {
  const order = st.scores.map((_, i) => i).sort((a, b) => st.scores[b] - st.scores[a] || a - b);
  const top = ch.chains[order[0]];
  const steps = top.map((row, i) => ({ hop: i + 1, row, why: i === 0 ? firstWhy(ch, order[0]) : stepWhyOf(ch, order[0], i) }));
  return {
    hits: st.ret.map((row, i) => ({ row, score: st.scores[st.from[i]], hop: st.hops[i] })),
    hopsUsed: Math.max(1, top.length, ...st.hops),
    confidence: conf,
    steps,
  };
}

/** The why of hop 1 is kept on single-row chains; longer chains carry the why of their last step. */
function firstWhy(ch: Chains, j: number): Why {
  return ch.chains[j].length === 1 ? ch.whys[j] : { kind: 'query', terms: [] };
}

function stepWhyOf(ch: Chains, j: number, i: number): Why {
  return i === ch.chains[j].length - 1 ? ch.whys[j] : { kind: 'expansion', fromRow: ch.chains[j][i - 1], positions: [] };
}

export function runLoop(c: SearchCorpus, model: ModelDescriptor, task: { query: string; maxHops: number; maxResults: number }, buf: HopBuffers): LoopOutput {
  const m = model.params.search as unknown as LoopParams;
  const k = task.maxResults;
  const s = new Searcher(c, new Set(model.params.stop), buf);
  const q = s.query(task.query);
  if (q.order.length === 0) return { hits: [], hopsUsed: 1, confidence: 0, steps: [] };
  const h1 = buildHop1(s, q, m.W1);
  const ch1 = hop1Chains(s, q, h1);
  const st1 = stageOf(c, ch1, h1.h1, k);
  const conf1 = confidence(m.conf[0], confFeatures(c, q, st1, k));
  if (task.maxHops === 1 || conf1 >= m.tau[0] || h1.beam.length === 0) return output(st1, ch1, conf1);
  const ch2 = buildHop2(s, q, h1, m.exp);
  if (ch2.chains.length === 0) return output(st1, ch1, conf1);
  const sc2 = ch2.X.map((x) => dotw(m.W2, x));
  const st2 = stageOf(c, ch2, sc2, k);
  const conf2 = confidence(m.conf[1], confFeatures(c, q, st2, k));
  if (task.maxHops === 2 || conf2 >= m.tau[1]) return output(st2, ch2, conf2);
  const ch3 = buildHop3(s, q, ch2, sc2, m.exp);
  const sc3 = ch3.X.map((x) => dotw(m.W3, x));
  const st3 = stageOf(c, ch3, sc3, k);
  return output(st3, ch3, confidence(m.conf[2], confFeatures(c, q, st3, k)));
}
