// The ECE floor printed by `npm run eval`: the ECE a perfectly calibrated confidence shows on a
// suite of that size, checked against its closed form.
import t from 'tap';
import { eceFloor } from '../bench/eval-metrics.js';

t.test('certain confidences have no floor', async (t) => {
  t.equal(eceFloor([0, 1, 1, 0, 1]), 0);
});

t.test('100 questions at 0.5: the mean absolute deviation of a binomial mean', async (t) => {
  // one bin; E|mean - 0.5| = sqrt(0.25 / 100) * sqrt(2 / pi) = 0.0399 (normal approximation)
  const floor = eceFloor(new Array(100).fill(0.5), 4000);
  t.ok(Math.abs(floor - 0.0399) < 0.004, `floor ${floor.toFixed(4)}`);
});

t.test('the floor falls as the suite grows', async (t) => {
  const conf = (n: number) => Array.from({ length: n }, (_, i) => 0.3 + (0.6 * i) / n);
  t.ok(eceFloor(conf(1000), 300) < eceFloor(conf(100), 300) / 2);
});
