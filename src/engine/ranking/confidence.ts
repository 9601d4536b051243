// The calibrated confidence: a stage's sufficiency model (logistic over the sufficiency features,
// then Platt scaling), the recalibration of the confidence a search returns (an increasing map,
// so it changes no ranking and no stop) and its cap for questions in scripts the model was not
// trained on. Pure.
import type { ConfParams, ReturnedCalibration, Sufficiency } from '../model/index.js';
import { SCRIPTS } from '../params.js';
import { shareInScripts } from '../text/index.js';

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** log(p / (1 - p)) of v clamped to [1e-4, 1 - 1e-4]. */
export const logit = (v: number) => {
  const p = Math.min(Math.max(v, 1e-4), 1 - 1e-4);
  return Math.log(p / (1 - p));
};

/** The calibration a search's confidence goes through: `returnedOneDocument` for hop 1's list held by one long document (absent: `returned`). */
export function calibrationFor(
  s: Pick<Sufficiency, 'returned' | 'returnedOneDocument'>,
  oneDocument = false,
): ReturnedCalibration | undefined {
  return oneDocument ? (s.returnedOneDocument ?? s.returned) : s.returned;
}

/** The returned confidence c as calibrated by p (c itself when the model has no such calibration). */
export function returnedConfidence(p: ReturnedCalibration | undefined, c: number): number {
  return p ? sigmoid(p.a * logit(c) + p.b) : c;
}

/**
 * The confidence `c` of a search whose question has the tokens `forms`, capped for the share of
 * them in scripts other than the model's `scripts` (c itself when the model does not record them).
 */
export function scriptCapped(scripts: readonly string[] | undefined, forms: readonly string[], c: number): number {
  if (!scripts) return c;
  return Math.min(c, SCRIPTS.floor + (1 - SCRIPTS.floor) * shareInScripts(forms, scripts));
}

/** The probability a stage model gives the evidence whose sufficiency features are `f`. */
export function confidence(p: ConfParams, f: Float64Array): number {
  let z = p.b;
  for (let i = 0; i < f.length; i++) z += (p.w[i] ?? 0) * f[i];
  return sigmoid(p.platt_a * z + p.platt_b);
}

/** Order of chains by score, best first, ties to the earlier chain. */
export function chainOrder(scores: number[]): number[] {
  return scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
}
