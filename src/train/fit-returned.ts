// Fits the calibration of the confidence a search returns (engine ranking/confidence.ts, returnedConfidence)
// on whole searches of questions the model never saw: the cross-validation folds' results, each
// question searched with max_results 10 as asked (label: its evidence found) and with its documents
// hidden (label 0, weighted HYPER.returned.noAnswer). Invariants: only held-out searches are fitted
// on; crossCalibrated maps a fold's results with a calibration fitted on the other folds alone, so
// the cross-validated figures stay out-of-sample.
import { logit, type ReturnedCalibration, returnedConfidence } from '../engine/index.js';
import type { QueryResult } from './evaluate.js';
import { fitPlatt } from './learners.js';

/** σ(a·logit(c) + b) fitted to the held-out results; the identity when there is nothing to fit. */
export function fitReturned(results: QueryResult[], o: { noAnswer: number }): ReturnedCalibration {
  const xs: number[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  for (const r of results) {
    xs.push(logit(r.conf));
    ys.push(r.found[10] ? 1 : 0);
    ws.push(1);
    if (o.noAnswer > 0) {
      xs.push(logit(r.confHidden));
      ys.push(0);
      ws.push(o.noAnswer);
    }
  }
  if (!ys.includes(1) || !ys.includes(0)) return { a: 1, b: 0 };
  const [a, b] = fitPlatt(xs, ys, ws);
  // a slope of 0 or less would erase or invert the order of confidences: keep them as they are
  return a > 0 ? { a, b } : { a: 1, b: 0 };
}

/** The results with each fold's confidences calibrated by a fit on the other folds' results. */
export function crossCalibrated(results: QueryResult[], folds: number[], o: { noAnswer: number }): QueryResult[] {
  const cal = new Map<number, ReturnedCalibration>();
  for (const k of new Set(folds))
    cal.set(
      k,
      fitReturned(
        results.filter((_, i) => folds[i] !== k),
        o,
      ),
    );
  return results.map((r, i) => {
    const p = cal.get(folds[i]);
    return { ...r, conf: returnedConfidence(p, r.conf), confHidden: returnedConfidence(p, r.confHidden) };
  });
}
