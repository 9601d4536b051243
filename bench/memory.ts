// `npm run bench -- memory [--threads 1,2] [--runs 3] [--env K=V]`: where a server's memory goes with the
// wiki-pool loaded. For each worker-thread count, a server in a child process (node --expose-gc)
// ingests hotpotqa-dev's corpus over HTTP, settles, answers searches and reports; then a second
// child starts on the same data dir (a restart: the warm-up opens the store), settles, answers the
// same searches and reports. Each report splits the RSS into anonymous memory, the malloc heap and
// mapped files (LMDB's data.mdb apart, from /proc/self/smaps), beside the main thread's JavaScript
// heap and external memory, the shared WebAssembly memory (its size, what of it was written and what
// is allocated in it; the relocations the engine made of it) and
// the index's segments, and the latency of those searches (the first after the engine's idle
// collections); each figure is the median of `--runs` runs. `--env` sets variables for the
// children (malloc tuning, say). Linux only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { startServer } from '../src/api/server.js';
import { loadConfig } from '../src/config.js';
import { BENCH_DIR, machineLine, median, percentile, REPO_DIR, rssByMapping, suiteCorpus, suiteQueries, table } from './bench-util.js';
import { waitSettled } from './eval-server.js';

const MiB = (x: number) => `${(x / 2 ** 20).toFixed(0)}`;

const STORE = 'bench';

/** In a function of its own, so that the corpus is garbage once the ingest is done: not counted as the server's. */
async function ingestCorpus(call: (method: string, p: string, body?: unknown) => Promise<unknown>): Promise<void> {
  await call('POST', '/stores', { name: STORE });
  const docs = suiteCorpus('hotpotqa-dev');
  for (let i = 0; i < docs.length; i += 1000) {
    const documents = docs.slice(i, i + 1000).map((d) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} }));
    await call('POST', `/stores/${STORE}/documents`, { documents });
  }
}

async function child(phase: 'ingest' | 'restart', threads: number, dataDir: string): Promise<void> {
  // the child's environment, `--env` included: the server's own variables (SVC_ENGINE_RELOCATE_MB, say) as well as the process's
  const config = loadConfig({ ...process.env, SVC_DATA_DIR: dataDir, SVC_LOG: 'silent' });
  const server = await startServer({
    config,
    port: 0,
    host: '127.0.0.1',
    noAuth: true,
    rateLimit: 1e9,
    threads,
    logger: pino({ level: 'silent' }),
  });
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(server.url + p, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : res.json();
  };
  const { services } = server as unknown as {
    services: {
      engine: { ctx: { heap: { idleBytes: number; stats(): { capacity: number; bytesInUse: number } }; pool: { relocations: number } } };
      registry: { entry(p: string, s: string): { open?: { index: { memoryBytes: number; settled: boolean } } } };
    };
  };
  const open = () => services.registry.entry('default', STORE).open;
  if (phase === 'ingest') await ingestCorpus(call);
  await waitSettled(open()?.index);
  // the first searches after the engine's idle collections (MEMORY.compact): the heaps at their least
  const took: number[] = [];
  for (const q of suiteQueries('hotpotqa-dev', 100)) {
    const t0 = performance.now();
    await call('POST', `/stores/${STORE}/search`, { query: q.query, max_results: 10 });
    took.push(performance.now() - t0);
  }
  // the workers are idle for a while before the figures (long enough for the engine memory's relocation, MEMORY.relocate)
  await new Promise((r) => setTimeout(r, 4000));
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  await new Promise((r) => setTimeout(r, 500));
  gc?.();
  const m = process.memoryUsage();
  const wasm = services.engine.ctx.heap.stats();
  const report = {
    rss: m.rss,
    jsHeap: m.heapTotal,
    external: m.external,
    wasm: wasm.capacity,
    wasmWritten: services.engine.ctx.heap.idleBytes + wasm.bytesInUse,
    wasmUsed: wasm.bytesInUse,
    relocations: services.engine.ctx.pool.relocations,
    index: open()?.index.memoryBytes ?? 0,
    p50: median(took),
    p99: percentile(took, 99),
    ...rssByMapping(),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  await server.close();
  process.exit(0);
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as 'ingest' | 'restart', Number(process.argv[4]), process.argv[5]);
}

const { values: opt } = parseArgs({
  args: process.argv.slice(2),
  options: {
    threads: { type: 'string', default: '1,2' },
    runs: { type: 'string', default: '3' },
    env: { type: 'string', multiple: true, default: [] },
  },
});
const env = { ...process.env, ...Object.fromEntries(opt.env.map((kv) => kv.split(/=(.*)/s).slice(0, 2))) };
const runs = Number(opt.runs);
type Report = Record<
  | 'rss'
  | 'anon'
  | 'heap'
  | 'lmdb'
  | 'files'
  | 'jsHeap'
  | 'external'
  | 'wasm'
  | 'wasmWritten'
  | 'wasmUsed'
  | 'relocations'
  | 'index'
  | 'p50'
  | 'p99',
  number
>;

function runChild(phase: string, threads: number, dataDir: string): Report {
  const args = ['--expose-gc', '--import', 'tsx', path.join(BENCH_DIR, 'memory.ts'), '--child', phase, String(threads), dataDir];
  const r = spawnSync(process.execPath, args, { cwd: REPO_DIR, encoding: 'utf8', env });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !line.startsWith('{'))
    throw new Error(`memory child (${phase}, ${threads} threads) failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(line);
}

const started = new Date();
const rows: string[][] = [];
for (const threads of opt.threads.split(',').map(Number)) {
  const reports: Record<string, Report[]> = { ingest: [], restart: [] };
  for (let run = 0; run < runs; run++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-memory-'));
    try {
      for (const phase of ['ingest', 'restart']) reports[phase].push(runChild(phase, threads, dataDir));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  for (const [phase, rs] of Object.entries(reports)) {
    // a worker's garbage is collected when V8 decides: the RSS of one run is noisy, so each figure is the median of the runs
    const mid = (k: keyof Report) => median(rs.map((r) => r[k]));
    const rss = rs.map((r) => r.rss);
    rows.push([
      String(threads),
      phase,
      `${MiB(mid('rss'))} (${MiB(Math.min(...rss))}–${MiB(Math.max(...rss))})`,
      MiB(mid('anon')),
      MiB(mid('heap')),
      MiB(mid('lmdb')),
      MiB(mid('files')),
      MiB(mid('jsHeap')),
      MiB(mid('external')),
      `${MiB(mid('wasm'))} (${MiB(mid('wasmWritten'))} / ${MiB(mid('wasmUsed'))}; ${mid('relocations')})`,
      MiB(mid('index')),
      `${mid('p50').toFixed(1)} / ${mid('p99').toFixed(1)}`,
    ]);
  }
}
process.stdout.write(
  `\nCommand: \`npm run bench -- memory --threads ${opt.threads} --runs ${runs}${opt.env.map((e) => ` --env ${e}`).join('')}\` at ${started.toISOString()}, the wiki-pool over HTTP; medians of ${runs} runs.\n${machineLine()}\n\n`,
);
process.stdout.write(
  table(
    [
      'worker threads',
      'after',
      'RSS MiB (range)',
      'anonymous',
      'malloc heap',
      'LMDB data.mdb',
      'other files',
      'main JS heap',
      'main external',
      'WebAssembly memory (written / allocated; relocations)',
      'index segments',
      'first 100 searches p50 / p99 ms',
    ],
    rows,
  ),
);
