// Fair admission of engine work across projects (src/api/fair-gate.ts): at most `slots` requests
// in the engine; waiting requests are served round robin across projects, so a project flooding
// the server (within its rate limit) cannot starve another; a full per-project queue is an
// immediate 503 with Retry-After. Then the same on a real server with one worker: a flood of one
// project's searches gets 503s while every search of a quiet project is served.
import t from 'tap';
import { FairGate } from '../src/api/fair-gate.js';
import { rejectsApi } from './helpers/rejects-api.js';
import { startTestServer } from './helpers/server.js';

/** A task that runs until `finish()` and records when it started. */
function task(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return {
    fn: async () => {
      log.push(name);
      return done;
    },
    finish: () => finish(),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

t.test('slots, round robin and the per-project queue bound', async (t) => {
  const gate = new FairGate(2, 3);
  const log: string[] = [];
  const a = Array.from({ length: 5 }, (_, i) => task(log, `a${i}`));
  const runs: Promise<unknown>[] = a.map((x) => gate.run('A', x.fn));
  await tick();
  t.same(log, ['a0', 'a1'], 'two slots: two running');
  t.equal(gate.waiting('A'), 3);
  await rejectsApi(
    t,
    gate.run('A', async () => undefined),
    { type: 'service_unavailable', status: 503, headers: { 'Retry-After': '1' } },
    'A has 3 waiting: refused at once',
  );
  const b = [task(log, 'b0'), task(log, 'b1')];
  runs.push(...b.map((x) => gate.run('B', x.fn)));
  a[0].finish();
  await tick();
  a[1].finish();
  await tick();
  t.same(log.slice(2), ['a2', 'b0'], 'freed slots alternate between projects in turn');
  a[2].finish();
  b[0].finish();
  await tick();
  await tick();
  t.same(log.slice(4), ['a3', 'b1'], 'still alternating');
  for (const x of [...a, ...b]) x.finish();
  await Promise.all(runs);
  t.same(log.sort(), ['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'b1'], 'every admitted task ran');
  t.equal(gate.waiting('A') + gate.waiting('B'), 0);
});

t.test('a failing task frees its slot', async (t) => {
  const gate = new FairGate(1, 4);
  await t.rejects(
    gate.run('A', async () => Promise.reject(new Error('boom'))),
    /boom/,
  );
  t.equal(await gate.run('A', async () => 'next'), 'next');
});

t.test('on a server with one worker: a flood from one project does not starve another', async (t) => {
  const { api } = await startTestServer(t, { threads: 1, rateLimit: 1e6 });
  const loud = api.with({ 'X-Svc-Project': 'loud' });
  const quiet = api.with({ 'X-Svc-Project': 'quiet' });
  const docs = Array.from({ length: 300 }, (_, i) => ({
    id: `d${i}`,
    text: `Article ${i} about harbour ${i % 17} and railways. ${'Ships and trade. '.repeat(8)}`,
  }));
  for (const p of [loud, quiet]) {
    await p.post('/stores', { name: 'kb' });
    await p.post('/stores/kb/documents', { documents: docs });
  }
  // 40 loud clients each send searches back to back until the quiet client's six searches are done.
  let calmDone = false;
  const flooded: Array<{ status: number; body: any; headers: Headers }> = [];
  const flooder = async (i: number) => {
    while (!calmDone) flooded.push(await loud.raw('POST', '/stores/kb/search', { query: `harbour ${i % 17}`, max_hops: 4 }));
  };
  const flood = Promise.all(Array.from({ length: 40 }, (_, i) => flooder(i)));
  await new Promise((r) => setTimeout(r, 200));
  const calm: number[] = [];
  for (let i = 0; i < 6; i++) calm.push((await quiet.raw('POST', '/stores/kb/search', { query: `railways ${i}` })).status);
  calmDone = true;
  await flood;
  t.same(calm, [200, 200, 200, 200, 200, 200], 'every search of the quiet project served during the flood');
  const refused = flooded.filter((r) => r.status === 503);
  t.ok(refused.length > 0, `${refused.length} of ${flooded.length} flooding searches refused with 503`);
  t.same([...new Set(flooded.map((r) => r.status))].sort(), [200, 503], 'the flood gets only 200 and 503');
  t.ok(
    refused.every((r) => r.body.error.type === 'service_unavailable' && Number(r.headers.get('retry-after')) >= 1),
    'each 503 is service_unavailable with Retry-After',
  );
});
