// The ECE floor printed by `npm run eval`: the ECE a perfectly calibrated confidence shows on a
// suite of that size (mean and 90th percentile), checked against its closed form; the AUROC of
// found against no-answer runs; and the no-answer report of --hide-gold and --ask.
import t from 'tap';
import { holdsAnswer, noAnswerMetrics, type QueryOutcome } from '../bench/eval-metrics.js';
import { auroc, eceFloor } from '../src/train/learners.js';

t.test('certain confidences have no floor', async (t) => {
  t.same(eceFloor([0, 1, 1, 0, 1]), { mean: 0, p90: 0 });
});

t.test('100 questions at 0.5: the absolute deviation of a binomial mean, its mean and 90th percentile', async (t) => {
  // one bin; |mean - 0.5| is half-normal with sigma sqrt(0.25 / 100) = 0.05 (normal approximation):
  // its mean is 0.05 * sqrt(2 / pi) = 0.0399 and its 90th percentile 0.05 * 1.645 = 0.082
  const floor = eceFloor(new Array(100).fill(0.5), 4000);
  t.ok(Math.abs(floor.mean - 0.0399) < 0.004, `mean ${floor.mean.toFixed(4)}`);
  t.ok(Math.abs(floor.p90 - 0.082) < 0.008, `p90 ${floor.p90.toFixed(4)}`);
});

t.test('the floor falls as the suite grows', async (t) => {
  const conf = (n: number) => Array.from({ length: n }, (_, i) => 0.3 + (0.6 * i) / n);
  t.ok(eceFloor(conf(1000), 300).mean < eceFloor(conf(100), 300).mean / 2);
  t.ok(eceFloor(conf(1000), 300).p90 < eceFloor(conf(100), 300).p90 / 2);
});

t.test('AUROC: the share of (found, no-answer) pairs the confidence orders right, ties half', async (t) => {
  t.equal(auroc([0.9, 0.8], [0.1, 0.2]), 1);
  t.equal(auroc([0.1, 0.2], [0.9, 0.8]), 0);
  t.equal(auroc([0.5], [0.5]), 0.5);
  t.equal(auroc([0.9, 0.4], [0.5, 0.1]), 0.75);
  t.equal(auroc([0.9, 0.5, 0.5], [0.5, 0.1]), (2 + 1.5 + 1.5) / 6);
  t.ok(Number.isNaN(auroc([], [0.1])));
});

t.test('the no-answer report counts confident misses', async (t) => {
  const outcome = (confidence: number, hops: number): QueryOutcome => ({
    query: { gold_doc_ids: ['absent'] },
    result: { passages: [], confidence, hops_used: hops, latency_ms: 1 },
    roundTripMs: 1,
  });
  const m = noAnswerMetrics([outcome(0.1, 1), outcome(0.3, 2), outcome(0.5, 3), outcome(0.9, 2)], [true, false, true, false]);
  t.equal(m.no_answer_conf_mean, 0.45);
  t.equal(m.no_answer_conf_under_0_2, 0.25);
  t.equal(m.no_answer_conf_over_0_5, 0.5, '0.5 itself counts as confident');
  t.equal(m.mean_hops, 2);
  t.equal(m.answer_in_returned, 0, 'no passages, no answer returned');
  t.equal(m.conf_mean_answer_absent, 0.45);
  t.equal(m.answer_absent_from_store, 0.5, 'the questions whose answer the store does not hold');
  t.equal(m.conf_mean_answer_absent_from_store, 0.3, 'their mean confidence');
});

t.test('an answer counts as returned only as a whole word or phrase, yes/no never', async (t) => {
  t.ok(holdsAnswer('Minden, Nevada had 3,001 people.', ['3,001']));
  t.ok(holdsAnswer('The Beatles played.', ['Beatles']));
  t.notOk(holdsAnswer('In 1930 it opened.', ['3']), 'a digit inside a number');
  t.notOk(holdsAnswer('Americana is a genre.', ['American']), 'a word inside a longer one');
  t.notOk(holdsAnswer('yes, no and maybe', ['yes', 'no']), 'yes/no answers are in any text');
  t.notOk(holdsAnswer('the beatles', ['Beatles']), 'case as given, like answer-passage hit@k');
  t.ok(holdsAnswer('Americana, then American.', ['American']), 'a later whole-word occurrence');
  const outcome = (confidence: number, text: string): QueryOutcome => ({
    query: { gold_doc_ids: ['absent'], answers: ['Gardnerville'] },
    result: { passages: [{ doc_id: 'other', text }], confidence, hops_used: 2, latency_ms: 1 },
    roundTripMs: 1,
  });
  const m = noAnswerMetrics(
    [outcome(0.9, 'Gardnerville, Nevada had 5,656 people.'), outcome(0.2, 'Minden is a town.'), outcome(0.4, 'Carson City')],
    [false, false, false],
  );
  t.equal(m.answer_in_returned, 1 / 3);
  t.equal(m.conf_mean_answer_returned, 0.9);
  t.ok(Math.abs(m.conf_mean_answer_absent - 0.3) < 1e-12);
});
