// Scores a fitted model on questions it may not have seen: whole searches (stop rule included) with
// max_results = k for each reported k, all-gold@k, the confidence at k = 10 against "all gold found",
// the hops used, and the confidence when the question's documents are hidden from the store.
import type { LoopParams } from '../engine/index.js';
import type { TrainQuery } from './data.js';
import type { Item } from './fit-chains.js';
import { auroc, ece } from './learners.js';
import { evidenceRows, sufficient } from './train-set.js';

export const REPORT_KS = [2, 5, 10, 20];

export interface QueryResult {
  query: TrainQuery;
  found: Record<number, boolean>;
  conf: number;
  hops: number;
  confHidden: number;
  /** whether the search as asked, and with the documents hidden, returned stage 1 held by one long document (LoopOutput.oneDocument) */
  oneDocument?: boolean;
  oneDocumentHidden?: boolean;
}

export function evaluateQueries(items: Item[], params: LoopParams): QueryResult[] {
  return items.map(({ set, q }) => {
    const store = set.store;
    const ev = evidenceRows(set, q);
    const found: Record<number, boolean> = {};
    let conf = 0;
    let hops = 0;
    let oneDocument = false;
    for (const k of REPORT_KS) {
      const out = store.search(q.text, params, { maxResults: k });
      found[k] = sufficient(
        set,
        q,
        out.hits.map((h) => h.row),
        ev,
      );
      if (k === 10) {
        conf = out.confidence;
        hops = out.hopsUsed;
        oneDocument = out.oneDocument === true;
      }
    }
    const hidden = store.search(q.text, params, { maxResults: 10, hidden: q.gold });
    return { query: q, found, conf, hops, confHidden: hidden.confidence, oneDocument, oneDocumentHidden: hidden.oneDocument === true };
  });
}

export interface SuiteMetrics {
  queries: number;
  /** all-gold@k (multi-hop) or answer-passage hit@k (single-hop) */
  found_at: Record<string, number>;
  ece10: number;
  mean_hops: number;
  conf_found: number;
  conf_missed: number;
  conf_hidden: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round = (v: number) => Math.round(v * 1000) / 1000;

/** The results of each suite, suites in name order. */
function bySuite(results: QueryResult[]): Array<[string, QueryResult[]]> {
  const suites = [...new Set(results.map((r) => r.query.suite))].sort();
  return suites.map((suite) => [suite, results.filter((r) => r.query.suite === suite)]);
}

/**
 * Per suite, the AUROC of the runs that found their evidence (at 10) against every run with its
 * documents hidden: how well the confidence ranks the two, whatever its level (a training log
 * figure; the manifest keeps SuiteMetrics).
 */
export function foundHiddenAuroc(results: QueryResult[]): Record<string, number> {
  return Object.fromEntries(
    bySuite(results).map(([suite, rs]) => {
      const found = rs.filter((r) => r.found[10]).map((r) => r.conf);
      const hidden = rs.map((r) => r.confHidden);
      return [suite, round(auroc(found, hidden))];
    }),
  );
}

export function summarise(results: QueryResult[]): Record<string, SuiteMetrics> {
  const out: Record<string, SuiteMetrics> = {};
  for (const [suite, rs] of bySuite(results)) {
    const y = rs.map((r) => (r.found[10] ? 1 : 0));
    out[suite] = {
      queries: rs.length,
      found_at: Object.fromEntries(REPORT_KS.map((k) => [`@${k}`, round(mean(rs.map((r) => (r.found[k] ? 1 : 0))))])),
      ece10: round(
        ece(
          rs.map((r) => r.conf),
          y,
        ),
      ),
      mean_hops: round(mean(rs.map((r) => r.hops))),
      conf_found: round(mean(rs.filter((r) => r.found[10]).map((r) => r.conf))),
      conf_missed: round(mean(rs.filter((r) => !r.found[10]).map((r) => r.conf))),
      conf_hidden: round(mean(rs.map((r) => r.confHidden))),
    };
  }
  return out;
}
