// Fits the calibration of the confidence a search returns (engine ranking/confidence.ts, returnedConfidence)
// on whole searches of questions the model never saw: the cross-validation folds' results, each
// question searched with max_results 10 as asked (label: its evidence found) and with its documents
// hidden (label 0, weighted HYPER.returned.noAnswer). A search that returned stage 1 held by one
// long document (QueryResult.oneDocument, for the hidden run oneDocumentHidden) is fitted apart, in
// the model's `returnedOneDocument`; the rest in `returned`. Invariants: only held-out searches are
// fitted on; crossCalibrated maps a fold's results with calibrations fitted on the other folds
// alone, so the cross-validated figures stay out-of-sample.
import { calibrationFor, logit, type ReturnedCalibration, returnedConfidence, type Sufficiency } from '../engine/index.js';
import type { QueryResult } from './evaluate.js';
import { fitPlatt } from './learners.js';

/** The calibrations of both kinds of search, as the model holds them; `returnedOneDocument` absent when the results hold too few such searches to fit. */
export type ReturnedCalibrations = Required<Pick<Sufficiency, 'returned'>> & Pick<Sufficiency, 'returnedOneDocument'>;

/** σ(a·logit(c) + b) fitted to the searches of the held-out results of one kind; undefined when there is nothing to fit. */
function fitOf(results: QueryResult[], o: { noAnswer: number }, oneDocument: boolean): ReturnedCalibration | undefined {
  const xs: number[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  for (const r of results) {
    if ((r.oneDocument === true) === oneDocument) {
      xs.push(logit(r.conf));
      ys.push(r.found[10] ? 1 : 0);
      ws.push(1);
    }
    if (o.noAnswer > 0 && (r.oneDocumentHidden === true) === oneDocument) {
      xs.push(logit(r.confHidden));
      ys.push(0);
      ws.push(o.noAnswer);
    }
  }
  if (!ys.includes(1) || !ys.includes(0)) return undefined;
  const [a, b] = fitPlatt(xs, ys, ws);
  // a slope of 0 or less would erase or invert the order of confidences: keep them as they are
  return a > 0 ? { a, b } : undefined;
}

/** The calibration of the searches not held by one document; the identity when there is nothing to fit. */
export function fitReturned(results: QueryResult[], o: { noAnswer: number }): ReturnedCalibration {
  return fitOf(results, o, false) ?? { a: 1, b: 0 };
}

/** Both calibrations (a search held by one document is calibrated as the others when there are none such to fit on). */
export function fitCalibrations(results: QueryResult[], o: { noAnswer: number }): ReturnedCalibrations {
  const returnedOneDocument = fitOf(results, o, true);
  return { returned: fitReturned(results, o), ...(returnedOneDocument ? { returnedOneDocument } : {}) };
}

/** The results with each fold's confidences calibrated by a fit on the other folds' results. */
export function crossCalibrated(results: QueryResult[], folds: number[], o: { noAnswer: number }): QueryResult[] {
  const cal = new Map<number, ReturnedCalibrations>();
  for (const k of new Set(folds))
    cal.set(
      k,
      fitCalibrations(
        results.filter((_, i) => folds[i] !== k),
        o,
      ),
    );
  return results.map((r, i) => {
    const p = cal.get(folds[i]) as ReturnedCalibrations;
    return {
      ...r,
      conf: returnedConfidence(calibrationFor(p, r.oneDocument), r.conf),
      confHidden: returnedConfidence(calibrationFor(p, r.oneDocumentHidden), r.confHidden),
    };
  });
}
