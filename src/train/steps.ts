// The steps of training that `svc train` and the generalisation evaluation (generalisation.ts)
// share: the parts trained on SQuAD-train and the wiki-pool's text (the dense encoder, the native
// reader, the question-term weights), the training sets and their stores, the learned loop (chain
// scorers, sufficiency models of questions and of keyword queries) fitted on a set of questions,
// and the calibrations of the returned confidence fitted on held-out searches. Deterministic for a
// given seed.

import {
  countScripts,
  createEngineRuntime,
  featureNames,
  InProcessStore,
  isQuestion,
  type LoopParams,
  mainScripts,
  type ReturnedCalibration,
  type Sufficiency,
  tokenize,
} from '../engine/index.js';
import { type CorpusDoc, type DataFolder, isHeldOutArticle, squadArticles, type TrainQuery } from './data.js';
import { encoderCorpus } from './encoder-data.js';
import { evaluateQueries, type QueryResult } from './evaluate.js';
import { fitChains, type Item } from './fit-chains.js';
import { ConfidenceRows, fitConfidence } from './fit-confidence.js';
import { fitEncoder, type TrainedEncoder } from './fit-encoder.js';
import { fitReader, type ReaderMetrics } from './fit-reader.js';
import { crossCalibrated, fitCalibrations, type ReturnedCalibrations } from './fit-returned.js';
import { fitTermWeights } from './fit-term-weights.js';
import { HYPER } from './hyper.js';
import { keywordForm } from './keyword-queries.js';
import { mulberry32 } from './learners.js';
import { SYNTHETIC_SUITE, syntheticQuestions } from './synthetic-questions.js';
import type { Model, TrainSet } from './train-set.js';

/** What the steps need of a run's options. */
export interface StepOptions {
  seed: number;
  /** Questions per suite (and only their documents plus distractors) for a quick, small model. */
  sample?: number;
  threads?: number;
  log: (msg: string) => void;
}

export type { Model } from './train-set.js';

/** A deterministic sample: `n` questions per suite, their documents, and 20 distractors per question. */
export function sampleData(
  corpus: CorpusDoc[],
  queries: TrainQuery[],
  n: number,
  seed: number,
): { corpus: CorpusDoc[]; queries: TrainQuery[] } {
  const rand = mulberry32(seed);
  const picked = [...new Set(queries.map((q) => q.suite))].flatMap((s) => queries.filter((q) => q.suite === s).slice(0, n));
  const keep = new Set(picked.flatMap((q) => q.gold));
  const others = corpus.filter((d) => !keep.has(d.id));
  for (let i = 0; i < 20 * picked.length && others.length; i++) keep.add(others.splice(Math.floor(rand() * others.length), 1)[0].id);
  return { corpus: corpus.filter((d) => keep.has(d.id)), queries: picked };
}

export type Theta = { terms: number[]; weights: number[] };

/** Each question as a user who types keywords would ask it, in a suite of its own ("hotpotqa-dev (keywords)"). */
export function keywordItems(items: Item[]): Item[] {
  return items.map(({ set, q }) => ({ set, q: { ...q, text: keywordForm(q.text), suite: `${q.suite} (keywords)` } }));
}

/** The items that train the search itself: all but the generated questions that train the returned confidence only. */
export const deciding = (items: Item[]): Item[] => items.filter((it) => !it.q.confidenceOnly);

/**
 * Chain scorers and sufficiency models fitted on the questions; the keyword sufficiency models on
 * their keyword forms (`keyworded`, in the same order). With confidence-only questions among the
 * items, the chain scorers and the `decide` models (the loop's stop and stage choice) are fitted
 * without them and the `conf` models (the confidence returned) with them.
 */
export function fitAll(
  items: Item[],
  keyworded: Item[],
  theta: Theta,
  seed: number,
  log: (m: string) => void,
): LoopParams & { keywords: Sufficiency } {
  const map = new Map(theta.terms.map((t, i) => [t, theta.weights[i]]));
  const chains = fitChains(deciding(items), { l2: HYPER.l2, exp: HYPER.exp, theta: map, log });
  const rows = new ConfidenceRows(chains, HYPER.exp, map);
  const suff = (xs: Item[]): Sufficiency => {
    const conf = fitConfidence(xs, rows, HYPER.confL2, seed);
    const some = deciding(xs);
    return some.length === xs.length ? { conf } : { conf, decide: fitConfidence(some, rows, HYPER.confL2, seed) };
  };
  return { theta, ...chains, exp: HYPER.exp, ...suff(items), tau: HYPER.tau, keywords: suff(keyworded), features: featureNames() };
}

/** The calibrations of the returned confidence: those from the searches of questions, those from the searches of keyword queries. */
export function fitReturnedBoth(results: QueryResult[]): { returned: ReturnedCalibrations; keywords: ReturnedCalibrations } {
  return {
    returned: fitCalibrations(
      results.filter((r) => isQuestion(r.query.text)),
      HYPER.returned,
    ),
    keywords: fitCalibrations(
      results.filter((r) => !isQuestion(r.query.text)),
      HYPER.returned,
    ),
  };
}

const shown = (p: ReturnedCalibration) => `σ(${p.a.toFixed(3)}·logit + ${p.b.toFixed(3)})`;

/** The results cross-calibrated (fit-returned.ts) apart: questions by the other folds' questions, keyword queries by their keyword queries. */
export function crossCalibratedByForm(results: QueryResult[], folds: number[]): QueryResult[] {
  return [true, false].flatMap((question) => {
    const idx = results.flatMap((r, i) => (isQuestion(r.query.text) === question ? [i] : []));
    return crossCalibrated(
      idx.map((i) => results[i]),
      idx.map((i) => folds[i]),
      HYPER.returned,
    );
  });
}

/**
 * The dense encoder, trained contrastively on SQuAD-train pairs and wiki-pool self-supervision; with
 * `squad: false`, on the self-supervision alone (its batches as large).
 */
export async function trainEncoder(data: DataFolder, o: StepOptions, { squad: withSquad = true } = {}): Promise<TrainedEncoder> {
  const squad = withSquad ? data.squadTrain() : [];
  const pool = data.corpus();
  const dev = data.squadDevTitles();
  const corpus = o.sample ? encoderCorpus(squad.slice(0, 200), pool.slice(0, 200), dev) : encoderCorpus(squad, pool, dev);
  const sized = o.sample ? { ...HYPER.encoder, steps: 10, warmup: 2, batchSquad: 32, batchSelf: 16 } : HYPER.encoder;
  const hyper = withSquad ? sized : { ...sized, batchSquad: 0, batchSelf: sized.batchSquad + sized.batchSelf };
  return fitEncoder(corpus, hyper, o.seed, await createEngineRuntime(), o.log);
}

/** The scripts of the text the encoder learns from (the wiki-pool and SQuAD-train): those holding HYPER.scriptShare of its letter tokens. */
export function trainingScripts(data: DataFolder): string[] {
  const counts = new Map<string, number>();
  for (const d of data.corpus()) countScripts(tokenize(d.text).forms, counts);
  for (const p of data.squadTrain()) countScripts(tokenize(p.context).forms, counts);
  return mainScripts(counts, HYPER.scriptShare);
}

/** θ from SQuAD-train articles that neither the chain scorers nor the sufficiency models see. */
export async function learnTermWeights(data: DataFolder, o: StepOptions, base: Model): Promise<Theta> {
  const { docs, queries } = squadArticles(data.squadTrain(), (t) => !isHeldOutArticle(t), HYPER.theta.perArticle);
  const picked = o.sample
    ? { docs: docs.slice(0, 3), queries: queries.filter((q) => docs.slice(0, 3).some((d) => d.id === q.gold[0])) }
    : { docs, queries };
  const store = await InProcessStore.open(picked.docs, base, o.threads);
  try {
    const set: TrainSet = { name: 'squad-fit', store, queries: picked.queries, judge: 'answer-passage', chains: false };
    return fitTermWeights(set, { ...HYPER.theta, log: o.log });
  } finally {
    await store.close();
  }
}

/** The native reader of answer=true, on SQuAD-train (squad-articles-dev is SQuAD dev: no article in common). */
export function trainReader(data: DataFolder, o: StepOptions): { file: Uint8Array; metrics: ReaderMetrics } {
  const sample = o.sample ? { questions: 300, evalQuestions: 50, hashBits: 14 } : HYPER.reader;
  return fitReader(data, o.log, sample);
}

/**
 * The held-out SQuAD-train articles (3 of them for a sample), SQuAD's questions on them, and the
 * synthetic confidence-only questions written from their text.
 */
export function heldOutSquad(data: DataFolder, o: StepOptions): { docs: CorpusDoc[]; queries: TrainQuery[]; synthetic: TrainQuery[] } {
  const squad = squadArticles(data.squadTrain(), isHeldOutArticle, HYPER.squadPerArticle);
  const docs = o.sample ? squad.docs.slice(0, 3) : squad.docs;
  const queries = squad.queries.filter((q) => docs.some((d) => d.id === q.gold[0])).slice(0, o.sample ?? Infinity);
  const synthetic = syntheticQuestions(docs, HYPER.synthetic.perArticle, SYNTHETIC_SUITE).slice(0, o.sample ?? Infinity);
  return { docs, queries, synthetic };
}

/** The training sets: multi-hop questions over the wiki-pool; single-hop questions over whole SQuAD articles, SQuAD's and synthetic ones written from the articles' text (confidence-only). */
export async function openSets(data: DataFolder, o: StepOptions, base: Model): Promise<TrainSet[]> {
  let corpus = data.corpus();
  let queries = data.multihopQueries();
  if (o.sample) ({ corpus, queries } = sampleData(corpus, queries, o.sample, o.seed));
  const { docs: squadDocs, queries: squadQueries, synthetic } = heldOutSquad(data, o);
  o.log(
    `data: wiki-pool ${corpus.length} documents, ${queries.length} multi-hop questions; ${squadDocs.length} SQuAD articles, ${squadQueries.length} single-hop questions and ${synthetic.length} synthetic ones`,
  );
  return [
    { name: 'wiki-pool', store: await InProcessStore.open(corpus, base, o.threads), queries, judge: 'all-gold-docs', chains: true },
    {
      name: 'squad-articles',
      store: await InProcessStore.open(squadDocs, base, o.threads),
      queries: [...squadQueries, ...synthetic],
      judge: 'answer-passage',
      chains: false,
    },
  ];
}

/**
 * Each item searched by a model fitted without its fold (`folds[i]`, 0..k-1): the questions as asked
 * and their keyword forms (`keyworded`, in the same order), so the loop picks the sufficiency models
 * by the query. Returns the results with the fold of each.
 */
export function heldOutResults(
  items: Item[],
  keyworded: Item[],
  folds: number[],
  theta: Theta,
  o: StepOptions,
  onFold: (k: number, of: number) => void = () => {},
): { results: QueryResult[]; folds: number[] } {
  const k = Math.max(...folds) + 1;
  const results: QueryResult[] = [];
  const resultFolds: number[] = [];
  for (let f = 0; f < k; f++) {
    const inFold = (xs: Item[]) => xs.filter((_, i) => folds[i] === f);
    const outOfFold = (xs: Item[]) => xs.filter((_, i) => folds[i] !== f);
    const params = fitAll(outOfFold(items), outOfFold(keyworded), theta, o.seed, () => {});
    const got = evaluateQueries([...inFold(items), ...inFold(keyworded)], params);
    results.push(...got);
    resultFolds.push(...got.map(() => f));
    onFold(f, k);
  }
  return { results, folds: resultFolds };
}

/**
 * The learned loop as it ships: chain scorers and sufficiency models fitted on every item, and the
 * returned confidence calibrated on the searches of the items each asked of a loop fitted without
 * its fold (`folds`: cross-validation by question). Also returns those held-out searches.
 */
export function fitLoop(
  items: Item[],
  keyworded: Item[],
  folds: number[],
  theta: Theta,
  o: StepOptions,
  onFold?: (k: number, of: number) => void,
): { search: LoopParams; held: QueryResult[]; folds: number[] } {
  const { results: held, folds: heldFolds } = heldOutResults(items, keyworded, folds, theta, o, onFold);
  const { returned, keywords } = fitReturnedBoth(held);
  const oneDoc = (p: ReturnedCalibrations) => (p.returnedOneDocument ? `, held by one document ${shown(p.returnedOneDocument)}` : '');
  o.log(
    `returned confidence calibrated as ${shown(returned.returned)}${oneDoc(returned)}, of keyword queries ${shown(keywords.returned)}${oneDoc(keywords)}`,
  );
  const fitted = fitAll(items, keyworded, theta, o.seed, o.log);
  return {
    search: { ...fitted, ...returned, keywords: { ...fitted.keywords, ...keywords } },
    held,
    folds: heldFolds,
  };
}
