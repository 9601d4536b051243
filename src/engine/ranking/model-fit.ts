// Whether a model's learned weights fit the features this engine computes. The manifest names the
// features each weight vector was fitted on (params.search.features); a model whose names or order
// differ from this engine's tables, or whose weight vectors have another length, would be scored
// silently wrong, so it is refused, naming the first difference.
import type { ConfParams, FeatureNames, LoopParams } from '../model/index.js';
import { CHAIN2_NAMES, CHAIN3_NAMES } from './chain-features.js';
import { H1_NAMES } from './hop1-features.js';
import { SUFFICIENCY_NAMES } from './sufficiency-features.js';

/** The names of the features this engine computes, as a manifest records them. */
export function featureNames(): FeatureNames {
  return { W1: [...H1_NAMES], W2: [...CHAIN2_NAMES], W3: [...CHAIN3_NAMES], conf: [...SUFFICIENCY_NAMES] };
}

const LABEL: Record<keyof FeatureNames, string> = {
  W1: 'W1 (hop 1)',
  W2: 'W2 (2-chains)',
  W3: 'W3 (3-chains)',
  conf: 'conf (sufficiency)',
};

/** Where two name lists first differ, in words, or undefined when they are the same. */
export function namesDiffer(model: readonly string[], engine: readonly string[]): string | undefined {
  const n = Math.max(model.length, engine.length);
  for (let i = 0; i < n; i++) {
    if (model[i] === engine[i]) continue;
    const had = model[i] === undefined ? 'nothing' : `'${model[i]}'`;
    const want = engine[i] === undefined ? 'nothing' : `'${engine[i]}'`;
    return `feature ${i + 1} is ${had} in the model and ${want} in this engine`;
  }
  return undefined;
}

/** Every set of per-stage sufficiency models a loop carries: its path in the parameters, what it scores, the models. */
function sufficiencies(m: LoopParams): Array<[string, string, ConfParams[]]> {
  const all: Array<[string, string, ConfParams[] | undefined]> = [
    ['conf', 'sufficiency', m.conf],
    ['decide', 'sufficiency the loop decides by', m.decide],
    ['keywords.conf', 'sufficiency of keyword queries', m.keywords?.conf],
    ['keywords.decide', 'sufficiency keyword queries are decided by', m.keywords?.decide],
  ];
  return all.filter((s): s is [string, string, ConfParams[]] => s[2] !== undefined);
}

/**
 * Why a model's loop parameters do not fit the features this engine computes (undefined when they
 * do): feature names first, then the length of every weight vector, the keyword models' stage
 * count, and calibrations that would reverse the order of confidences.
 */
export function modelFitProblem(m: LoopParams): string | undefined {
  const engine = featureNames();
  for (const key of Object.keys(LABEL) as Array<keyof FeatureNames>) {
    const diff = namesDiffer(m.features[key], engine[key]);
    if (diff) return `${LABEL[key]}: ${diff}`;
  }
  const want: Array<[string, number[], number]> = [
    [LABEL.W1, m.W1, H1_NAMES.length],
    [LABEL.W2, m.W2, CHAIN2_NAMES.length],
    [LABEL.W3, m.W3, CHAIN3_NAMES.length],
    ...sufficiencies(m).flatMap(([name, what, models]) =>
      models.map((c, i): [string, number[], number] => [`${name}[${i}].w (${what})`, c.w, SUFFICIENCY_NAMES.length]),
    ),
  ];
  for (const [name, w, n] of want) if (w.length !== n) return `${name} has ${w.length} weights; this engine computes ${n} features`;
  for (const [name, , models] of sufficiencies(m).slice(1))
    if (models.length !== m.conf.length) return `${name} has ${models.length} stage models; conf has ${m.conf.length}`;
  for (const [name, r] of [
    ['returned', m.returned],
    ['returnedOneDocument', m.returnedOneDocument],
    ['keywords.returned', m.keywords?.returned],
    ['keywords.returnedOneDocument', m.keywords?.returnedOneDocument],
  ] as const) {
    if (r !== undefined && !(r.a > 0))
      return `${name} (calibration of the returned confidence) is not {a > 0, b}: it must keep the order of confidences`;
  }
  return undefined;
}
