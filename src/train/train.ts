// `svc train` / `npm run train`: trains the model from the shared data and writes a model folder.
// Steps: index the wiki-pool with the engine itself; fit the chain scorers (W1, W2, W3) and the
// per-stage sufficiency models on the multi-hop dev questions; measure the whole procedure by k-fold
// cross-validation by question (each fold's model is trained without that fold's questions); refit
// on every question for the shipped model, its returned confidence calibrated on the folds'
// searches, then the reader's re-ranking of one-hop results on it;
// the sufficiency models and calibration of keyword queries are fitted and measured the same way on
// each question's keyword form (keyword-queries.ts), with the chain scorers fitted on the questions;
// write the folder with a manifest naming the data (with hashes), the hyper-parameters and the
// cross-validated figures. Deterministic for a given seed.
import path from 'node:path';
import { NativeReader, READER_FILE } from '../answer/index.js';
import { ENGINE_FORMAT, type ModelParams, writeModelFolder } from '../engine/index.js';
import { DataFolder } from './data.js';
import { foundHiddenAuroc, summarise } from './evaluate.js';
import type { Item } from './fit-chains.js';
import { fitRerank } from './fit-rerank.js';
import { HYPER, STOP_WORDS } from './hyper.js';
import { stratifiedFolds } from './learners.js';
import {
  crossCalibratedByForm,
  deciding,
  fitLoop,
  keywordItems,
  learnTermWeights,
  type Model,
  openSets,
  trainEncoder,
  trainingScripts,
  trainReader,
} from './steps.js';

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

export async function train(o: TrainOptions): Promise<{ dir: string; metrics: unknown }> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  const data = new DataFolder(o.dataDir);
  const encoder = await trainEncoder(data, o);
  o.log(`trained the dense encoder (${elapsed()})`);
  const scripts = trainingScripts(data);
  o.log(`the training text is in ${scripts.join(', ')} (${elapsed()})`);
  const base: ModelParams = { stop: STOP_WORDS, scripts, lexical: HYPER.lexical, dense: encoder.params };
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
    // the shipped loop; its returned confidence calibrated on the cross-validation folds' searches,
    // whose cross-validated figures calibrate each fold with a fit on the other folds
    const {
      search,
      held: results,
      folds: resultFolds,
    } = fitLoop(items, keyworded, folds, theta, o, (k, of) => o.log(`fold ${k + 1}/${of} done (${elapsed()})`));
    const uncalibrated = summarise(results);
    const calibrated = crossCalibratedByForm(results, resultFolds);
    const cv = summarise(calibrated);
    const ranks = foundHiddenAuroc(calibrated);
    for (const [suite, m] of Object.entries(cv)) {
      const raw = uncalibrated[suite];
      o.log(
        `CV ${suite}: found ${JSON.stringify(m.found_at)} ECE@10 ${m.ece10} (${raw.ece10} uncalibrated) hops ${m.mean_hops} conf found/missed/hidden ${m.conf_found}/${m.conf_missed}/${m.conf_hidden} (hidden ${raw.conf_hidden} uncalibrated; AUROC found vs hidden ${ranks[suite]})`,
      );
    }
    const rerank = fitRerank(deciding(items), search, NativeReader.parse(reader.file), HYPER.rerank);
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
          name: 'svc-words-porter/2',
          rules:
            'NFKC; accents removed from Latin, Greek, Cyrillic, Arabic and Hebrew letters; lowercased and case-folded runs of letters, digits and marks; Han, kana, Thai, Lao, Khmer and Myanmar runs cut into words by the ICU dictionary word breaker; Porter (1980) stems; stop words dropped from queries only',
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
