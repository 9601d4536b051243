// Memory soak of a real `svc serve` process: a steady mixed workload (searches, upserts of a
// bounded set of ids, deletes and gets, within the rate limit) for N minutes while the server's RSS
// is sampled from /proc every 15 s. Reports the samples, the RSS after warm-up (2 minutes) and at
// the end, the least-squares slope after warm-up in MB per minute, and the replies by status.
// RSS includes the pages of the LMDB files the server has touched (file-backed, bounded by the data
// size); the store's size stays bounded because upserts reuse 2000 ids. Not part of `npm test`.
// Usage: npx tsx bench/soak.ts [minutes=10] [rate=60]. Linux only (reads /proc). Prints JSON.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startChild } from '../test/helpers/child-server.js';

const minutes = Number(process.argv[2] ?? 10);
const rate = Number(process.argv[3] ?? 60);
const IDS = 2000;
const text = (n: number, v: number) =>
  `Item ${n} version ${v}: notes on harbour ${n % 41}, railway ${n % 29} and market ${n % 13}. ${'Ships, trade and weather. '.repeat(8)}`;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 102.4) / 10 : NaN;
}

function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p[0], 0) / n;
  const my = points.reduce((a, p) => a + p[1], 0) / n;
  const num = points.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  return den ? Math.round((num / den) * 100) / 100 : 0;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-soak-'));
const server = await startChild(dataDir);
const pid = server.child.pid!;
try {
  await server.api.post('/stores', { name: 'soak' });
  for (let b = 0; b < 1000; b += 200)
    await server.api.post('/stores/soak/documents', {
      documents: Array.from({ length: 200 }, (_, i) => ({ id: `i${b + i}`, text: text(b + i, 0) })),
    });
  const statuses: Record<string, number> = {};
  let n = 0;
  const json = { 'content-type': 'application/json' };
  const search = {
    method: 'POST',
    path: '/v1/stores/soak/search',
    headers: json,
    setupRequest: (r: any) => ({
      ...r,
      body: JSON.stringify({ query: `harbour ${n++ % 41} railway market`, max_hops: 3, return_trace: n % 2 === 0 }),
    }),
  };
  const upsert = {
    method: 'POST',
    path: '/v1/stores/soak/documents',
    headers: json,
    setupRequest: (r: any) => ({
      ...r,
      body: JSON.stringify({ documents: Array.from({ length: 5 }, () => ({ id: `i${n % IDS}`, text: text(n % IDS, n++) })) }),
    }),
  };
  const remove = {
    method: 'DELETE',
    setupRequest: (r: any) => {
      n += 7;
      return { ...r, path: `/v1/stores/soak/documents/i${n % IDS}` };
    },
  };
  const get = { method: 'GET', setupRequest: (r: any) => ({ ...r, path: `/v1/stores/soak/documents/i${n++ % IDS}?include_text=true` }) };
  const samples: Array<[number, number]> = [[0, rssMb(pid)]];
  const started = Date.now();
  const timer = setInterval(() => samples.push([Math.round((Date.now() - started) / 600) / 100, rssMb(pid)]), 15_000);
  const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
  const result: any = await autocannon({
    url: server.url.replace(/\/v1$/, ''),
    connections: 8,
    overallRate: rate,
    duration: minutes * 60,
    requests: [search, upsert, search, remove, search, get, search, upsert, search, search].map((r) => ({
      ...r,
      onResponse: (status: number) => count(status),
    })),
  } as any);
  clearInterval(timer);
  samples.push([Math.round((Date.now() - started) / 600) / 100, rssMb(pid)]);
  const warm = samples.filter(([m]) => m >= Math.min(2, minutes / 5));
  const store = await server.api.get('/stores/soak');
  process.stdout.write(
    `${JSON.stringify(
      {
        minutes,
        rate,
        requests: result.requests.total,
        statuses,
        errors: result.errors,
        timeouts: result.timeouts,
        rss_mb: {
          start: samples[0][1],
          after_warmup: warm[0][1],
          end: samples[samples.length - 1][1],
          max: Math.max(...samples.map((s) => s[1])),
        },
        rss_slope_after_warmup_mb_per_min: slope(warm),
        store: { n_docs: store.n_docs, size_bytes: store.size_bytes },
        samples,
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
