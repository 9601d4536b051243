// `npm run bench -- memory [--threads 1,2,4]`: where a server's memory goes with the wiki-pool
// loaded. For each worker-thread count, a server in a child process (node --expose-gc) ingests
// hotpotqa-dev's corpus over HTTP, settles, collects garbage, and reports its RSS split into
// anonymous memory, the malloc heap and mapped files (LMDB's data.mdb among them, from
// /proc/self/smaps), beside the main thread's JavaScript heap, external memory, the shared
// WebAssembly memory and the index's segments. Linux only (smaps).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, machineLine, REPO_DIR, suiteCorpus, table } from './bench-util.js';
import { SvcSystem } from './peer-svc.js';

const MiB = (x: number) => `${(x / 2 ** 20).toFixed(0)}`;

/** RSS by kind of mapping, from /proc/self/smaps. */
function rssByMapping(): { anon: number; heap: number; lmdb: number; files: number } {
  const out = { anon: 0, heap: 0, lmdb: 0, files: 0 };
  let kind: keyof typeof out = 'anon';
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1];
      kind =
        name === '' || name.startsWith('[anon') || name.startsWith('[stack')
          ? 'anon'
          : name === '[heap]'
            ? 'heap'
            : name.endsWith('data.mdb')
              ? 'lmdb'
              : 'files';
      continue;
    }
    const m = /^Rss:\s+(\d+) kB/.exec(line);
    if (m) out[kind] += Number(m[1]) * 1024;
  }
  return out;
}

if (process.argv[2] === '--child') {
  const threads = Number(process.argv[3]);
  const svc = await SvcSystem.start({ threads });
  const services = (
    svc as unknown as {
      server: { services: { engine: { pending: number }; registry: { allStores(): Array<{ index: { memoryBytes: number } }> } } };
    }
  ).server.services;
  const sample = () => {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    const index = services.registry.allStores().reduce((n, s) => n + s.index.memoryBytes, 0);
    return { rss: m.rss, jsHeap: m.heapTotal, external: m.external, index, ...rssByMapping() };
  };
  const empty = sample();
  await svc.ingest(suiteCorpus('hotpotqa-dev'));
  await svc.settle();
  await new Promise((r) => setTimeout(r, 3000));
  process.stdout.write(`${JSON.stringify({ threads, empty, loaded: sample(), passages: svc.stats().passages })}\n`);
  await svc.close();
  process.exit(0);
}

const { values: opt } = parseArgs({ args: process.argv.slice(2), options: { threads: { type: 'string', default: '1,2,4' } } });
const started = new Date();
const rows: string[][] = [];
for (const threads of opt.threads.split(',').map(Number)) {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(BENCH_DIR, 'memory.ts'), '--child', String(threads)], {
    cwd: REPO_DIR,
    encoding: 'utf8',
  });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !line.startsWith('{')) throw new Error(`memory child (${threads} threads) failed: ${r.stderr.slice(-2000)}`);
  const { empty, loaded } = JSON.parse(line);
  rows.push([
    String(threads),
    MiB(empty.rss),
    MiB(loaded.rss),
    MiB(loaded.anon),
    MiB(loaded.heap),
    MiB(loaded.lmdb),
    MiB(loaded.files),
    MiB(loaded.jsHeap),
    MiB(loaded.external),
    MiB(loaded.index),
  ]);
}
process.stdout.write(
  `\nCommand: \`npm run bench -- memory --threads ${opt.threads}\` at ${started.toISOString()}, the wiki-pool over HTTP.\n${machineLine()}\n\n`,
);
process.stdout.write(
  table(
    [
      'worker threads',
      'RSS empty MiB',
      'RSS loaded MiB',
      'anonymous',
      'malloc heap',
      'LMDB data.mdb',
      'other files',
      'main JS heap',
      'main external',
      'index segments',
    ],
    rows,
  ),
);
