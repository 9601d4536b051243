// `npm run bench -- deleted-store [--runs 2] [--env K=V]`: whether a deleted store's memory goes back.
// For each run, two `svc serve` processes of this checkout in turn: one with the engine memory's
// relocation off (SVC_ENGINE_RELOCATE_MB=0: the memory as it was before relocation existed) and one
// as shipped. Each ingests the wiki-pool into store `a` over HTTP and settles, answers 50
// hotpotqa-dev questions, ingests a second store `b` (the pool's first 5,000 documents), then
// deletes `a`; after each step, once no engine task has run for a while, it reports the server's RSS
// and the engine memory's size, what of it was written and what is allocated (/metrics), and after
// the first (a relocation's aftermath, where there was one) the same 50 questions' engine latency. Needs
// `npm run build` (the servers run dist/). Prints a table, medians of the runs. Linux only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, machineLine, median, mib, percentile, REPO_DIR, suiteCorpus, suiteQueries, table } from './bench-util.js';
import { call, rssMiB, scrape, serve, stop, waitQuiet } from './child-server.js';

const { values: opt } = parseArgs({
  options: { runs: { type: 'string', default: '2' }, env: { type: 'string', multiple: true, default: [] } },
});
const extra = Object.fromEntries(opt.env.map((kv) => kv.split(/=(.*)/s).slice(0, 2)));
const SETTINGS: Array<[string, Record<string, string>]> = [
  ['relocation off (SVC_ENGINE_RELOCATE_MB=0)', { ...extra, SVC_ENGINE_RELOCATE_MB: '0' }],
  ['as shipped', extra],
];
const STEPS = ['a ingested', 'b ingested', 'a deleted'] as const;
type Figures = Record<'rss' | 'reserved' | 'written' | 'allocated' | 'relocations' | 'p50' | 'p90', number>;

const docs = suiteCorpus('hotpotqa-dev').map((d) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} }));
const questions = suiteQueries('hotpotqa-dev', 50);

async function ingest(base: string, store: string, n: number): Promise<void> {
  await call(base, 'POST', '/stores', { name: store });
  for (let i = 0; i < n; i += 1000)
    await call(base, 'POST', `/stores/${store}/documents`, { documents: docs.slice(i, Math.min(n, i + 1000)) });
}

/** The figures once no engine task has run for a while (the idle merge and a relocation included). */
async function figures(base: string, pid: number): Promise<Figures> {
  await waitQuiet(base, 5000);
  const m = await scrape(base);
  const memory = (kind: string) => m.get(`svc_engine_memory_bytes{kind="${kind}"}`) ?? Number.NaN;
  return {
    rss: rssMiB(pid) * 2 ** 20,
    reserved: memory('reserved'),
    written: memory('written'),
    allocated: memory('allocated'),
    relocations: m.get('svc_engine_memory_relocations_total') ?? Number.NaN,
    p50: Number.NaN,
    p90: Number.NaN,
  };
}

/** The 50 questions asked of store a: their engine latencies (ms). */
async function ask(base: string): Promise<number[]> {
  const ms: number[] = [];
  for (const q of questions) {
    const r = (await call(base, 'POST', '/stores/a/search', { query: q.query, max_results: 10 })) as { latency_ms: number };
    ms.push(r.latency_ms);
  }
  return ms;
}

async function once(env: Record<string, string>): Promise<Figures[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-deleted-store-'));
  const server = await serve(REPO_DIR, dataDir, env);
  const pid = server.child.pid ?? 0;
  try {
    const out: Figures[] = [];
    await ingest(server.base, 'a', docs.length);
    await ask(server.base);
    const first = await figures(server.base, pid);
    const ms = await ask(server.base);
    out.push({ ...first, p50: percentile(ms, 50), p90: percentile(ms, 90) });
    await ingest(server.base, 'b', 5000);
    out.push(await figures(server.base, pid));
    await call(server.base, 'DELETE', '/stores/a');
    out.push(await figures(server.base, pid));
    return out;
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const started = new Date();
const results = new Map<string, Figures[][]>(SETTINGS.map(([name]) => [name, []]));
for (let run = 0; run < Number(opt.runs); run++) {
  for (const [name, env] of SETTINGS) {
    process.stderr.write(`run ${run + 1}: ${name}\n`);
    results.get(name)?.push(await once(env));
  }
}
const rows: string[][] = [];
for (const [name, runs] of results) {
  STEPS.forEach((step, i) => {
    const mid = (k: keyof Figures) => median(runs.map((r) => r[i][k]));
    const rss = runs.map((r) => r[i].rss);
    rows.push([
      name,
      step,
      `${mib(mid('rss'))} (${mib(Math.min(...rss))}–${mib(Math.max(...rss))})`,
      mib(mid('reserved')),
      mib(mid('written')),
      mib(mid('allocated')),
      String(mid('relocations')),
      i === 0 ? `${mid('p50').toFixed(1)} / ${mid('p90').toFixed(1)}` : '',
    ]);
  });
}
process.stdout.write(
  `deleted-store bench, ${started.toISOString()}, ${machineLine()}, ${opt.runs} runs (${path.relative(REPO_DIR, BENCH_DIR)}/deleted-store.ts), MiB\n\n`,
);
process.stdout.write(
  table(
    ['server', 'after', 'RSS (range)', 'engine memory', 'of it written', 'allocated', 'relocations', 'then 50 searches: p50 / p90 ms'],
    rows,
  ),
);
