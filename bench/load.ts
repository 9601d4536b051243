// Load against a real `svc serve` process (autocannon). Phases: a quiet project's searches alone
// (its baseline); a loud project at 150 searches/s for 60 s while the quiet one goes on as before;
// the loud project alone at the same rate on a light endpoint (GET a store), which isolates the
// rate limiter from the machine's search capacity. Reports per phase the requests sent, served and
// refused per second (the limit is 100/s per project: about 100/s admitted, the rest 429, each
// with Retry-After; searches beyond what the machine can compute get 503 with Retry-After), and
// round-trip and engine latency percentiles (for the quiet project, against its baseline). Each
// project searches its own store of `docs` documents. Not part of `npm test`.
// Usage: npx tsx bench/load.ts [seconds=60] [rate=150] [docs=300]. Needs a built dist/. Prints JSON.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type ChildServer, startChild } from '../test/helpers/child-server.js';

const seconds = Number(process.argv[2] ?? 60);
const loudRate = Number(process.argv[3] ?? 150);
const docCount = Number(process.argv[4] ?? 300);
const quietRate = 20;

interface Tally {
  status: Record<string, number>;
  retryAfterMissing: number;
  engineMs: number[];
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100 : NaN;
}

async function fill(s: ChildServer, project: string): Promise<void> {
  const api = s.api.with({ 'X-Svc-Project': project });
  await api.post('/stores', { name: 'kb' });
  for (let b = 0; b < docCount; b += 200) {
    const documents = Array.from({ length: Math.min(200, docCount - b) }, (_, i) => {
      const n = b + i;
      return {
        id: `d${n}`,
        text: `Article ${n} on topic ${n % 37}: the harbour of town ${n % 53} and its railway, opened in ${1850 + (n % 150)}. ${'It describes ships, trade and people. '.repeat(6)}`,
      };
    });
    await api.post('/stores/kb/documents', { documents });
  }
}

function run(url: string, project: string, rate: number, duration: number, tally: Tally, light = false) {
  let q = 0;
  const search = {
    method: 'POST',
    path: '/v1/stores/kb/search',
    setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ query: `harbour of town ${q++ % 53} railway`, max_hops: 3 }) }),
  };
  return autocannon({
    url,
    connections: Math.max(10, Math.ceil(rate / 3)), // enough that the offered rate holds while replies are slow
    overallRate: rate,
    duration,
    requests: [
      {
        ...(light ? { method: 'GET', path: '/v1/stores/kb' } : search),
        headers: { 'content-type': 'application/json', 'x-svc-project': project },
        onResponse: (status: number, body: string, _ctx: unknown, headers: Record<string, string>) => {
          tally.status[status] = (tally.status[status] ?? 0) + 1;
          const retryAfter = Object.entries(headers).find(([k]) => k.toLowerCase() === 'retry-after')?.[1];
          if (status === 429 && !(Number(retryAfter) >= 1)) tally.retryAfterMissing++;
          if (status === 200 && !light) tally.engineMs.push(JSON.parse(body).latency_ms);
        },
      },
    ],
  } as any);
}

const summary = (r: any, tally: Tally, duration: number) => ({
  sent_per_s: Math.round((r.requests.total / duration) * 10) / 10,
  served_per_s: Math.round(((tally.status[200] ?? 0) / duration) * 10) / 10,
  refused_429_per_s: Math.round(((tally.status[429] ?? 0) / duration) * 10) / 10,
  statuses: tally.status,
  retry_after_missing: tally.retryAfterMissing,
  round_trip_ms: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99 },
  engine_ms: { p50: pct(tally.engineMs, 50), p90: pct(tally.engineMs, 90), p99: pct(tally.engineMs, 99) },
  errors: r.errors,
  timeouts: r.timeouts,
});

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-load-'));
const server = await startChild(dataDir);
try {
  await fill(server, 'loud');
  await fill(server, 'quiet');
  const base = server.url.replace(/\/v1$/, '');
  const baseTally: Tally = { status: {}, retryAfterMissing: 0, engineMs: [] };
  const baseline = summary(await run(base, 'quiet', quietRate, 20, baseTally), baseTally, 20);
  const loudTally: Tally = { status: {}, retryAfterMissing: 0, engineMs: [] };
  const quietTally: Tally = { status: {}, retryAfterMissing: 0, engineMs: [] };
  const [loud, quiet] = await Promise.all([
    run(base, 'loud', loudRate, seconds, loudTally),
    run(base, 'quiet', quietRate, seconds, quietTally),
  ]);
  const lightTally: Tally = { status: {}, retryAfterMissing: 0, engineMs: [] };
  const light = summary(await run(base, 'loud', loudRate, seconds, lightTally, true), lightTally, seconds);
  const report = {
    machine: { cpus: os.cpus().length, load_avg_1m: os.loadavg()[0] },
    baseline_quiet_alone: baseline,
    loud_searches: summary(loud, loudTally, seconds),
    quiet_during_loud: summary(quiet, quietTally, seconds),
    loud_light_requests: light,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
