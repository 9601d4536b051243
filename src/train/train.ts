// `svc train` / `npm run train`: trains the model from the shared data and writes a model folder.
// Steps: index the wiki-pool with the engine itself; fit the chain scorers (W1, W2, W3) and the
// per-stage sufficiency models on the multi-hop dev questions; measure the whole procedure by k-fold
// cross-validation by question (each fold's model is trained without that fold's questions); refit
// on every question for the shipped model, then the reader's re-ranking of one-hop results on it;
// the sufficiency models and calibration of keyword queries are fitted and measured the same way on
// each question's keyword form (keyword-queries.ts), with the chain scorers fitted on the questions;
// write the folder with a manifest naming the data (with hashes), the hyper-parameters and the
// cross-validated figures. Deterministic for a given seed.
import path from 'node:path';
import { NativeReader, READER_FILE } from '../answer/index.js';
import {
  createEngineRuntime,
  ENGINE_FORMAT,
  featureNames,
  InProcessStore,
  isQuestion,
  type LoopParams,
  type ModelParams,
  type ReturnedCalibration,
  type Sufficiency,
  writeModelFolder,
} from '../engine/index.js';
import { type CorpusDoc, DataFolder, isHeldOutArticle, squadArticles, type TrainQuery } from './data.js';
import { encoderCorpus } from './encoder-data.js';
import { evaluateQueries, type QueryResult, summarise } from './evaluate.js';
import { fitChains, type Item } from './fit-chains.js';
import { fitConfidence } from './fit-confidence.js';
import { fitEncoder, type TrainedEncoder } from './fit-encoder.js';
import { fitReader, type ReaderMetrics } from './fit-reader.js';
import { fitRerank } from './fit-rerank.js';
import { crossCalibrated, fitReturned } from './fit-returned.js';
import { fitTermWeights } from './fit-term-weights.js';
import { HYPER, STOP_WORDS } from './hyper.js';
import { keywordForm } from './keyword-queries.js';
import { mulberry32, stratifiedFolds } from './learners.js';
import type { TrainSet } from './train-set.js';

export interface TrainOptions {
  dataDir: string;
  outDir: string;
  name: string;
  version: string;
  seed: number;
  folds: number;
  /** Questions per suite (and only their documents plus distractors) for a quick, small model. */
  sample?: number;
  threads?: number;
  log: (msg: string) => void;
}

/** A deterministic sample: `n` questions per suite, their documents, and 20 distractors per question. */
function sampleData(corpus: CorpusDoc[], queries: TrainQuery[], n: number, seed: number): { corpus: CorpusDoc[]; queries: TrainQuery[] } {
  const rand = mulberry32(seed);
  const picked = [...new Set(queries.map((q) => q.suite))].flatMap((s) => queries.filter((q) => q.suite === s).slice(0, n));
  const keep = new Set(picked.flatMap((q) => q.gold));
  const others = corpus.filter((d) => !keep.has(d.id));
  for (let i = 0; i < 20 * picked.length && others.length; i++) keep.add(others.splice(Math.floor(rand() * others.length), 1)[0].id);
  return { corpus: corpus.filter((d) => keep.has(d.id)), queries: picked };
}

type Theta = { terms: number[]; weights: number[] };

/** Each question as a user who types keywords would ask it, in a suite of its own ("hotpotqa-dev (keywords)"). */
function keywordItems(items: Item[]): Item[] {
  return items.map(({ set, q }) => ({ set, q: { ...q, text: keywordForm(q.text), suite: `${q.suite} (keywords)` } }));
}

/** Chain scorers and sufficiency models fitted on the questions; the keyword sufficiency models on their keyword forms (`keyworded`, in the same order). */
function fitAll(
  items: Item[],
  keyworded: Item[],
  theta: Theta,
  seed: number,
  log: (m: string) => void,
): LoopParams & { keywords: Sufficiency } {
  const map = new Map(theta.terms.map((t, i) => [t, theta.weights[i]]));
  const chains = fitChains(items, { l2: HYPER.l2, exp: HYPER.exp, theta: map, log });
  const conf = fitConfidence(items, chains, HYPER.exp, map, HYPER.confL2, seed);
  const keywords = { conf: fitConfidence(keyworded, chains, HYPER.exp, map, HYPER.confL2, seed) };
  return { theta, ...chains, exp: HYPER.exp, conf, tau: HYPER.tau, keywords, features: featureNames() };
}

/** The calibrations of the returned confidence: one from the searches of questions, one from those of keyword queries. */
function fitReturnedBoth(results: QueryResult[]): { returned: ReturnedCalibration; keywords: ReturnedCalibration } {
  return {
    returned: fitReturned(
      results.filter((r) => isQuestion(r.query.text)),
      HYPER.returned,
    ),
    keywords: fitReturned(
      results.filter((r) => !isQuestion(r.query.text)),
      HYPER.returned,
    ),
  };
}

/** The results cross-calibrated (fit-returned.ts) apart: questions by the other folds' questions, keyword queries by their keyword queries. */
function crossCalibratedByForm(results: QueryResult[], folds: number[]): QueryResult[] {
  return [true, false].flatMap((question) => {
    const idx = results.flatMap((r, i) => (isQuestion(r.query.text) === question ? [i] : []));
    return crossCalibrated(
      idx.map((i) => results[i]),
      idx.map((i) => folds[i]),
      HYPER.returned,
    );
  });
}

/** The dense encoder, trained contrastively on SQuAD-train pairs and wiki-pool self-supervision. */
async function trainEncoder(data: DataFolder, o: TrainOptions): Promise<TrainedEncoder> {
  const squad = data.squadTrain();
  const pool = data.corpus();
  const dev = data.squadDevTitles();
  const corpus = o.sample ? encoderCorpus(squad.slice(0, 200), pool.slice(0, 200), dev) : encoderCorpus(squad, pool, dev);
  const hyper = o.sample ? { ...HYPER.encoder, steps: 10, warmup: 2, batchSquad: 32, batchSelf: 16 } : HYPER.encoder;
  return fitEncoder(corpus, hyper, o.seed, await createEngineRuntime(), o.log);
}

/** θ from SQuAD-train articles that neither the chain scorers nor the sufficiency models see. */
async function learnTermWeights(data: DataFolder, o: TrainOptions, base: Model): Promise<Theta> {
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
function trainReader(data: DataFolder, o: TrainOptions): { file: Uint8Array; metrics: ReaderMetrics } {
  const sample = o.sample ? { questions: 300, evalQuestions: 50, hashBits: 14 } : HYPER.reader;
  return fitReader(data, o.log, sample);
}

/** The training sets: multi-hop questions over the wiki-pool, single-hop questions over whole SQuAD articles. */
type Model = { name: string; version: string; params: ModelParams; files: Map<string, Uint8Array> };

async function openSets(data: DataFolder, o: TrainOptions, base: Model): Promise<TrainSet[]> {
  let corpus = data.corpus();
  let queries = data.multihopQueries();
  if (o.sample) ({ corpus, queries } = sampleData(corpus, queries, o.sample, o.seed));
  const squad = squadArticles(data.squadTrain(), isHeldOutArticle, HYPER.squadPerArticle);
  const squadDocs = o.sample ? squad.docs.slice(0, 3) : squad.docs;
  const squadQueries = squad.queries.filter((q) => squadDocs.some((d) => d.id === q.gold[0])).slice(0, o.sample ?? Infinity);
  o.log(
    `data: wiki-pool ${corpus.length} documents, ${queries.length} multi-hop questions; ${squadDocs.length} SQuAD articles, ${squadQueries.length} single-hop questions`,
  );
  return [
    { name: 'wiki-pool', store: await InProcessStore.open(corpus, base, o.threads), queries, judge: 'all-gold-docs', chains: true },
    {
      name: 'squad-articles',
      store: await InProcessStore.open(squadDocs, base, o.threads),
      queries: squadQueries,
      judge: 'answer-passage',
      chains: false,
    },
  ];
}

export async function train(o: TrainOptions): Promise<{ dir: string; metrics: unknown }> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  const data = new DataFolder(o.dataDir);
  const encoder = await trainEncoder(data, o);
  o.log(`trained the dense encoder (${elapsed()})`);
  const base: ModelParams = { stop: STOP_WORDS, lexical: HYPER.lexical, dense: encoder.params };
  const model: Model = { name: o.name, version: o.version, params: base, files: encoder.files };
  const reader = trainReader(data, o);
  o.log(`trained the native reader (${elapsed()})`);
  const theta = await learnTermWeights(data, o, model);
  o.log(`learned ${theta.terms.length} question-term weights (${elapsed()})`);
  const sets = await openSets(data, o, model);
  o.log(`indexed ${sets.map((s) => `${s.name}: ${s.store.totalRows} passages`).join(', ')} (${elapsed()})`);
  try {
    const items: Item[] = sets.flatMap((set) => set.queries.map((q) => ({ set, q })));
    const keyworded = keywordItems(items);
    const folds = stratifiedFolds(
      items.map((it) => it.q.suite),
      o.folds,
      o.seed,
    );
    const results: QueryResult[] = [];
    const resultFolds: number[] = [];
    for (let k = 0; k < o.folds; k++) {
      const inFold = (xs: Item[]) => xs.filter((_, i) => folds[i] === k);
      const outOfFold = (xs: Item[]) => xs.filter((_, i) => folds[i] !== k);
      const params = fitAll(outOfFold(items), outOfFold(keyworded), theta, o.seed, () => {});
      // each question asked as a question and as keywords (the loop picks the sufficiency models by the query)
      const got = evaluateQueries([...inFold(items), ...inFold(keyworded)], params);
      results.push(...got);
      resultFolds.push(...got.map(() => k));
      o.log(`fold ${k + 1}/${o.folds} done (${elapsed()})`);
    }
    // the returned confidence's calibrations: their cross-validated figures from fits on the other folds
    const uncalibrated = summarise(results);
    const cv = summarise(crossCalibratedByForm(results, resultFolds));
    for (const [suite, m] of Object.entries(cv)) {
      const raw = uncalibrated[suite];
      o.log(
        `CV ${suite}: found ${JSON.stringify(m.found_at)} ECE@10 ${m.ece10} (${raw.ece10} uncalibrated) hops ${m.mean_hops} conf found/missed/hidden ${m.conf_found}/${m.conf_missed}/${m.conf_hidden} (hidden ${raw.conf_hidden} uncalibrated)`,
      );
    }
    const { returned, keywords } = fitReturnedBoth(results);
    o.log(
      `returned confidence calibrated as σ(${returned.a.toFixed(3)}·logit + ${returned.b.toFixed(3)}), of keyword queries σ(${keywords.a.toFixed(3)}·logit + ${keywords.b.toFixed(3)})`,
    );
    const fitted = fitAll(items, keyworded, theta, o.seed, o.log);
    const search: LoopParams = { ...fitted, returned, keywords: { ...fitted.keywords, returned: keywords } };
    const rerank = fitRerank(items, search, NativeReader.parse(reader.file), HYPER.rerank);
    o.log(
      `re-ranking of one-hop results: w ${rerank.params.w.map((v) => v.toFixed(3)).join(', ')}; training hit@1 of the stage-1 head ${rerank.at1.map((v) => v.toFixed(3)).join(' -> ')} (${elapsed()})`,
    );
    const params: ModelParams = { ...base, search, rerank: rerank.params };
    const dir = path.resolve(o.outDir);
    writeModelFolder(
      dir,
      {
        format: 'svc-model/1',
        name: o.name,
        version: o.version,
        engine: ENGINE_FORMAT,
        dims: encoder.params.dim,
        tokenizer: {
          name: 'svc-words-porter/1',
          rules: 'NFKD, marks removed, lowercased runs of letters and digits; Porter (1980) stems; stop words dropped from queries only',
        },
        params,
        training: {
          seed: o.seed,
          sample: o.sample ?? null,
          data: data.used,
          sets: sets.map((s) => ({ name: s.name, documents: s.store.totalRows, questions: s.queries.length, judge: s.judge })),
          hyperparameters: HYPER,
        },
        metrics: {
          cross_validation: {
            folds: o.folds,
            by: "question, stratified by suite; each fold model trained without its questions, its returned confidences calibrated by a fit on the other folds' results",
            suites: cv,
            uncalibrated_returned_confidence: Object.fromEntries(
              Object.entries(uncalibrated).map(([suite, m]) => [
                suite,
                { ece10: m.ece10, conf_found: m.conf_found, conf_missed: m.conf_missed, conf_hidden: m.conf_hidden },
              ]),
            ),
          },
          rerank: { hit1_stage1_head_training: { before: rerank.at1[0], after: rerank.at1[1] } },
          reader: reader.metrics,
        },
      },
      new Map([...encoder.files, [READER_FILE, reader.file]]),
    );
    o.log(`wrote ${dir} (${elapsed()} in all)`);
    return { dir, metrics: cv };
  } finally {
    for (const s of sets) await s.store.close();
  }
}
