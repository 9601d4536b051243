// The multi-hop loop (worker side): stage 1 (hop 1), then, unless the calibrated sufficiency of the
// evidence reaches the model's threshold, max_hops is 1 or hop 1's first passages lie in one long
// document (stages.ts heldByOneDocument), stage 2 (chains of 2), then likewise
// stage 3 (chains of 3). The response comes from the stage run whose evidence is most likely
// sufficient (a deeper stage must beat a shallower one by STAGES.margin): its result list (assemble,
// which draws on hop 1's ranking at every stage; stage 1's with the most confident chain stage's
// documents woven in past its head when one ran), the hop that found each passage and its
// confidence (recalibrated by the model's `returned` calibration, or its `returnedOneDocument` when
// stage 1 is returned held by one long document); a query typed as keywords rather
// than phrased as a question (isQuestion) is scored by the model's `keywords` sufficiency models and
// calibration where it has them, its questions' otherwise; hops_used counts the hops run,
// and the trace has a step per hop (the deepest stage's top chain). A stage-1 result lists
// max(maxResults, lead) passages, its confidence still that of the first maxResults (the caller
// re-orders the head and cuts the list, see SearchParams.lead). Whether to run a hop and which
// stage to return are decided by the model's `decide` sufficiency models where it has them, the
// confidence returned by its `conf` models; without `decide` the two are one.
import type { LoopParams, ModelDescriptor, Sufficiency } from '../model/index.js';
import { HOPS, SCAN, STAGES } from '../params.js';
import { listOf, weave } from './assemble.js';
import { calibrationFor, chainOrder, confidence, returnedConfidence, scriptCapped } from './confidence.js';
import type { SearchCorpus } from './corpus.js';
import { dotw } from './feature-table.js';
import { Searcher } from './hops.js';
import { markTerms, stopIds } from './marks.js';
import { isQuestion } from './question.js';
import type { ScratchMode } from './question-scan.js';
import { buildHop1, buildHop2, buildHop3, heldByOneDocument, hop1Chains, stageOf } from './stages.js';
import { sufficiencyFeatures } from './sufficiency-features.js';
import type { Chains, HopBuffers, LoopOutput, Stage, Why } from './types.js';

/** The learned question-term weights as a map (built once per parameter object). */
const thetas = new WeakMap<object, Map<number, number>>();
export function thetaOf(m: LoopParams): Map<number, number> {
  let t = thetas.get(m);
  if (!t) {
    t = new Map((m.theta?.terms ?? []).map((term, i) => [term, m.theta!.weights[i]]));
    thetas.set(m, t);
  }
  return t;
}

/** The sufficiency models that score a query: the keyword ones for a query that is not a question. */
export function sufficiencyFor(m: LoopParams, query: string): Sufficiency {
  return m.keywords && !isQuestion(query) ? m.keywords : m;
}

/** What a hop cost: its time in the worker and how many passages (hop 1) or chains (later hops) it scored. */
interface HopCost {
  ms: number;
  candidates: number;
}

/** The trace: the best chain reaching the deepest hop run, one step per hop, with the cost of that hop. */
function traceOf(ch: Chains, scores: number[], hops: number, costs: HopCost[]): LoopOutput['steps'] {
  const order = chainOrder(scores);
  const j = order.find((i) => ch.chains[i].length === hops) ?? order[0];
  if (j === undefined) return [];
  const chain = ch.chains[j];
  return chain.map((row, i) => ({
    hop: i + 1,
    row,
    why: i === chain.length - 1 ? ch.why(j) : stepWhy(ch, j, i),
    ms: costs[i]?.ms ?? 0,
    candidates: costs[i]?.candidates ?? 0,
  }));
}

/** A middle step's why: the query for the first passage, otherwise the passage read before it. */
function stepWhy(ch: Chains, j: number, i: number): Why {
  return i === 0 ? { kind: 'query', terms: [] } : { kind: 'expansion', fromRow: ch.chains[j][i - 1], positions: [] };
}

/** The stage with its list cut to its first k passages (a list is a prefix of a longer one). */
function firstOf(st: Stage & { from: number[] }, k: number): Stage & { from: number[] } {
  return st.ret.length <= k ? st : { ...st, ret: st.ret.slice(0, k), hops: st.hops.slice(0, k), from: st.from.slice(0, k) };
}

interface Done {
  st: Stage & { from: number[] };
  /** the confidence returned if this stage's list is */
  conf: number;
  /** the confidence the loop decides by (the same unless the model has `decide` models) */
  decide: number;
}

/**
 * Runs hops while the best evidence so far is not sufficient (its calibrated confidence below the
 * stage's threshold) and max_hops allows; returns the stage whose evidence is most likely sufficient,
 * with the hops actually run and the path the deepest hop read.
 */
export function runLoop(c: SearchCorpus, model: ModelDescriptor, task: LoopTask, buf: HopBuffers): LoopOutput & { scratchClean: boolean } {
  const m = model.params.search;
  if (!m) throw new Error(`model ${model.name}@${model.version} has no search parameters`);
  const s = new Searcher(
    c,
    new Set(model.params.stop),
    buf,
    thetaOf(m),
    model.dense,
    task.approximate ? (task.scanBudget ?? SCAN.budget) : 0,
    task.scratch,
  );
  const out = loop(s, c, model, m, task);
  return { ...out, scratchClean: s.end() };
}

/** What runLoop is asked: the question and its bounds, how hop 1 scans and how it treats its scratch (hops.ts Searcher). */
interface LoopTask {
  query: string;
  maxHops: number;
  maxResults: number;
  lead?: number;
  approximate?: boolean;
  scanBudget?: number;
  scratch?: ScratchMode;
}

function loop(s: Searcher, c: SearchCorpus, model: ModelDescriptor, m: LoopParams, task: LoopTask): LoopOutput {
  const k = task.maxResults;
  let clock = performance.now();
  const costs: HopCost[] = [];
  /** Records the hop that ends now: its time since the previous one ended. */
  const hopDone = (candidates: number) => {
    const now = performance.now();
    costs.push({ ms: Math.round((now - clock) * 1000) / 1000, candidates });
    clock = now;
  };
  const q = s.query(task.query);
  if (q.order.length === 0) return { hits: [], hopsUsed: 1, stage: 1, confidence: 0, steps: [] };
  const suff = sufficiencyFor(m, task.query);
  const done: Done[] = [];
  /** A stage's list scored by the sufficiency models of stage i. */
  const scored = (st: Stage & { from: number[] }, i: number, f: Float64Array): Done => {
    const conf = confidence(suff.conf[i], f);
    return { st, conf, decide: suff.decide ? confidence(suff.decide[i], f) : conf };
  };
  /** The output of the stages run; `oneDocument`: stage 1's list, held by one long document (its own calibration). */
  const finish = (ch: Chains, scores: number[], hops: number, oneDocument = false): LoopOutput => {
    const best = done.reduce((a, b) => (b.decide > a.decide + STAGES.margin ? b : a));
    const stop = stopIds(model.params.stop);
    // stage 1 returned after a chain stage ran: the most confident chain stage's documents join its list
    const chain =
      best === done[0] ? done.slice(1).reduce<Done | undefined>((a, b) => (a && a.decide >= b.decide ? a : b), undefined) : undefined;
    const list = chain ? weave(c, listOf(best.st), listOf(chain.st), STAGES.keepStage1) : listOf(best.st);
    return {
      hits: list.map(({ row, score, hop, prev }) => ({ row, score, hop, marks: markTerms(c, q.qt, stop, row, prev) })),
      hopsUsed: hops,
      stage: done.indexOf(best) + 1,
      confidence: scriptCapped(model.params.scripts, q.forms, returnedConfidence(calibrationFor(suff, oneDocument), best.conf)),
      ...(oneDocument ? { oneDocument } : {}),
      steps: traceOf(ch, scores, hops, costs),
    };
  };
  const h1 = buildHop1(s, q, m.W1);
  const ch1 = hop1Chains(s, q, h1);
  // stage 1's list as far as the caller's lead asks; its first k are the list the confidence reads
  const st1 = stageOf(c, ch1, h1.h1, Math.max(k, Math.min(task.lead ?? 0, HOPS.rankCap)), h1.ranked);
  done.push(scored(st1, 0, sufficiencyFeatures(c, q, firstOf(st1, k), k)));
  hopDone(h1.pool.length);
  const held = heldByOneDocument(c, h1.ranked);
  if (task.maxHops === 1 || done[0].decide >= m.tau[0] || h1.beam.length === 0 || held) return finish(ch1, h1.h1, 1, held);
  const ch2 = buildHop2(s, q, h1, m.exp);
  if (ch2.chains.length === 0) return finish(ch1, h1.h1, 1);
  const sc2 = ch2.X.map((x) => dotw(m.W2, x));
  const st2 = stageOf(c, ch2, sc2, k, h1.ranked);
  done.push(scored(st2, 1, sufficiencyFeatures(c, q, st2, k)));
  hopDone(ch2.chains.length);
  if (task.maxHops === 2 || Math.max(done[0].decide, done[1].decide) >= m.tau[1]) return finish(ch2, sc2, 2);
  const ch3 = buildHop3(s, q, ch2, sc2, m.exp);
  const sc3 = ch3.X.map((x) => dotw(m.W3, x));
  const st3 = stageOf(c, ch3, sc3, k, h1.ranked);
  done.push(scored(st3, 2, sufficiencyFeatures(c, q, st3, k)));
  hopDone(ch3.chains.length);
  return finish(ch3, sc3, ch3.chains.some((ch) => ch.length === 3) ? 3 : 2);
}
