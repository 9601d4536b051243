// The metrics of ../shared/bench/README.md over searched queries. Multi-hop suites: all-gold@k (every
// gold document among the first k passages' documents). Long-document suites (queries carry
// `gold_paragraph`): answer-passage hit@k (one of the first k passages is from the gold document and
// contains an answer string). ECE of `confidence` against all-gold@max_results or hit@max_results,
// with the 90th percentile of the ECE a perfectly calibrated confidence shows on as many questions
// (its sampling floor: a suite's calibration passes at max(0.05, floor)).
import { ece, eceFloor } from '../src/train/learners.js';

export interface QueryOutcome {
  query: { gold_doc_ids: string[]; answers?: string[]; answerable?: boolean; gold_paragraph?: number };
  result: {
    passages: Array<{ doc_id: string; text: string }>;
    confidence: number;
    hops_used: number;
    latency_ms: number;
    trace?: Array<{ ms?: number }>;
  };
  roundTripMs: number;
}

export function allGold(o: QueryOutcome, k: number): boolean {
  const got = new Set(o.result.passages.slice(0, k).map((p) => p.doc_id));
  return o.query.gold_doc_ids.every((g) => got.has(g));
}

export function answerHit(o: QueryOutcome, k: number): boolean {
  const gold = new Set(o.query.gold_doc_ids);
  return o.result.passages.slice(0, k).some((p) => gold.has(p.doc_id) && (o.query.answers ?? []).some((a) => p.text.includes(a)));
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export function suiteMetrics(
  outcomes: QueryOutcome[],
  run: { ingestDocs: number; ingestSeconds: number; maxResults: number },
): Record<string, number> {
  const longDocs = outcomes.some((o) => o.query.gold_paragraph !== undefined);
  const scored = outcomes.filter((o) => o.query.answerable !== false);
  const rate = (f: (o: QueryOutcome) => boolean) => scored.filter(f).length / Math.max(scored.length, 1);
  const m: Record<string, number> = {};
  const hit = longDocs ? answerHit : allGold;
  const name = longDocs ? 'answer_hit' : 'all_gold';
  for (const k of longDocs ? [1, 5, 10] : [2, 5, 10, 20]) if (k <= run.maxResults) m[`${name}@${k}`] = rate((o) => hit(o, k));
  const ys = scored.map((o) => (hit(o, run.maxResults) ? 1 : 0));
  const conf = scored.map((o) => o.result.confidence);
  m[`ece@${run.maxResults}`] = ece(conf, ys);
  m[`ece_floor@${run.maxResults}`] = eceFloor(conf).p90;
  const found = conf.filter((_, i) => ys[i] === 1);
  const missed = conf.filter((_, i) => ys[i] === 0);
  m.conf_found = mean(found);
  m.conf_missed = mean(missed);
  m.mean_hops = mean(outcomes.map((o) => o.result.hops_used));
  const lat = outcomes.map((o) => o.result.latency_ms);
  const rt = outcomes.map((o) => o.roundTripMs);
  m.latency_p50_ms = percentile(lat, 50);
  m.latency_p99_ms = percentile(lat, 99);
  m.round_trip_p50_ms = percentile(rt, 50);
  m.round_trip_p99_ms = percentile(rt, 99);
  m.ingest_docs_per_s = run.ingestDocs / run.ingestSeconds;
  return m;
}

/** An answer string other than yes/no, as a whole word or phrase of `text` (case as given). */
export function holdsAnswer(text: string, answers: readonly string[] = []): boolean {
  return answers.some((a) => {
    if (/^(yes|no)$/i.test(a.trim()) || !a.trim()) return false;
    const at = (from: number): number => text.indexOf(a, from);
    for (let i = at(0); i >= 0; i = at(i + 1)) {
      const before = text[i - 1] ?? ' ';
      const after = text[i + a.length] ?? ' ';
      if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    }
    return false;
  });
}

/**
 * Queries whose gold documents are all absent: how confident svc still is (it should not be). Other
 * documents may still state the answer (a town's census figure in another article): the share whose
 * returned passages hold an answer string (yes/no answers never count) is reported, and the mean
 * confidence of the others, whose evidence plainly lacks the answer; and the share whose answer no
 * document of the store holds (`absentFromStore`, src/train/answer-presence.ts), with their mean
 * confidence: the questions that truly have no answer there.
 */
export function noAnswerMetrics(outcomes: QueryOutcome[], absentFromStore: boolean[]): Record<string, number> {
  const conf = outcomes.map((o) => o.result.confidence);
  const share = (f: (c: number) => boolean) => conf.filter(f).length / Math.max(conf.length, 1);
  const held = outcomes.map((o) => o.result.passages.some((p) => holdsAnswer(p.text, o.query.answers)));
  return {
    no_answer_conf_mean: mean(conf),
    no_answer_conf_p50: percentile(conf, 50),
    no_answer_conf_p90: percentile(conf, 90),
    no_answer_conf_under_0_2: share((c) => c < 0.2),
    no_answer_conf_over_0_5: share((c) => c >= 0.5),
    answer_in_returned: held.filter(Boolean).length / Math.max(held.length, 1),
    conf_mean_answer_returned: mean(conf.filter((_, i) => held[i])),
    conf_mean_answer_absent: mean(conf.filter((_, i) => !held[i])),
    answer_absent_from_store: absentFromStore.filter(Boolean).length / Math.max(absentFromStore.length, 1),
    conf_mean_answer_absent_from_store: mean(conf.filter((_, i) => absentFromStore[i])),
    mean_hops: mean(outcomes.map((o) => o.result.hops_used)),
  };
}
