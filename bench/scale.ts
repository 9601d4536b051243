// `npm run bench -- scale [--sizes 10000,100000,1000000] [--queries 100] [--budgets 8192,32768,...]
// [--ann text:100000,lowrank:1000000,random:100000] [--no-http] [--json FILE]`: how svc grows with the corpus. For each size, in separate
// child processes: svc over HTTP on the synthetic corpus (ingest time, search latency,
// all-gold@10 on the first `queries` hotpotqa and 2wiki questions, whose gold paragraphs are in
// every corpus, index bytes, the server's peak RSS and RSS after the searches, the WebAssembly
// memory, what a store's description and a metrics scrape take); the same
// corpus in-process with profiled kernels and a CPU profile (where a search's time goes), with the exact and the approximate scan side by side (what
// the approximate one costs in recall and saves in time); and the exact int8 scan against usearch HNSW on vectors of
// that many passages. Prints markdown tables. Invariants: children run one at a time; the corpus
// of a size is a prefix of the corpus of any larger size.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { SCAN } from '../src/engine/params.js';
import { floorMs, measureBandwidth } from './bandwidth.js';
import { fmt, log, machineLine, mib, num, runChild, table } from './bench-util.js';
import { annTable } from './peer-report.js';

const { values: opt } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'scale'),
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    queries: { type: 'string', default: '100' },
    /** vector kinds with the largest size to build an HNSW index for (kind:max) */
    ann: { type: 'string', default: 'text:100000,lowrank:1000000,random:100000' },
    'no-http': { type: 'boolean', default: false },
    json: { type: 'string' },
    /** scan budgets (postings) to run the approximate scan with, besides the exact scan */
    budgets: { type: 'string', default: `8192,${SCAN.budget},131072` },
  },
});
const sizes = opt.sizes!.split(',').map(Number);
const queries = Number(opt.queries);
const budgets = opt.budgets!.split(',').map(Number);
const started = new Date();
const load0 = machineLine();
const bw = measureBandwidth();
const raw: Record<string, any> = {};

for (const size of sizes) {
  if (!opt['no-http']) {
    log(`scale ${size}: svc over HTTP`);
    raw[`http/${size}`] = (await runChild('scale-child.ts', { mode: 'http', size, queries })).report;
  }
  log(`scale ${size}: engine in-process, profiled`);
  raw[`engine/${size}`] = (await runChild('scale-child.ts', { mode: 'engine', size, queries, budgets })).report;
  for (const [kind, max] of (opt.ann ? opt.ann.split(',') : []).map((s) => s.split(':'))) {
    if (size > Number(max ?? Infinity)) continue;
    log(`scale ${size}: exact scan vs HNSW, ${kind} vectors`);
    raw[`ann-${kind}/${size}`] = (await runChild('ann-child.ts', { n: size, kind, queries: Math.min(200, 2 * queries) })).report;
  }
}

const out: string[] = [
  `Command: \`npm run bench -- scale ${process.argv
    .slice(2)
    .filter((a) => a !== 'scale')
    .join(' ')}\` at ${started.toISOString()}, ${((Date.now() - started.getTime()) / 60000).toFixed(0)} minutes.`,
  `Machine at start: ${load0}`,
  `Machine at end: ${machineLine()}`,
  `Sequential read bandwidth: ${bw.bestGBs.toFixed(1)} GB/s (best of 9).`,
  '',
  `### svc on synthetic corpora (first ${queries} hotpotqa-dev + ${queries} 2wiki-dev questions)`,
  '',
];
const rows = sizes.map((size) => {
  const h = raw[`http/${size}`] ?? {};
  const e = raw[`engine/${size}`] ?? {};
  return [
    num(size),
    num(e.totalRows ?? h.passages ?? 0),
    h.ingestSeconds ? `${num(h.ingestSeconds)} (${num(size / h.ingestSeconds)}/s)` : '–',
    e.encodeSeconds ? num(e.encodeSeconds) : '–',
    `${fmt(h.engineP50, 1)} / ${fmt(h.engineP99, 0)}`,
    fmt(h.firstSearchMs, 0),
    fmt(e.searchP50, 1),
    fmt(h.allGold10 ?? e.allGold10, 3),
    mib(e.indexBytes ?? h.indexBytes ?? 0),
    h.maxRssBytes ? `${mib(h.maxRssBytes)} (${h.maxRssIngestBytes ? mib(h.maxRssIngestBytes) : '–'})` : '–',
    h.rssBytes ? `${mib(h.rssBytes)} (${num(h.rssBytes / (e.totalRows ?? h.passages) / 1024)})` : '–',
    h.wasmBytes ? `${mib(h.wasmBytes)} (${mib(h.wasmUsedBytes)})` : '–',
    h.dataDirBytes ? mib(h.dataDirBytes) : '–',
    h.storeGetMs ? `${fmt(h.storeGetMs, 1)} / ${fmt(h.metricsMs, 1)}` : '–',
  ];
});
out.push(
  table(
    [
      'documents',
      'passages',
      'HTTP ingest s (docs/s)',
      'engine-only ingest s',
      'HTTP search p50 / p99 ms',
      'first search ms',
      'in-process p50 ms',
      'all-gold@10',
      'index MiB',
      'server peak RSS MiB (when the ingest returned)',
      'server RSS MiB after the searches (KiB per passage)',
      'WebAssembly memory MiB (allocated)',
      'data dir MiB',
      'GET store / GET /metrics ms',
    ],
    rows,
  ),
);
out.push('', '### Where a search spends its time (in-process, per search, mean)', '');
const krows = sizes.map((size) => {
  const e = raw[`engine/${size}`] ?? {};
  if (!e.kernels) return [num(size), '–', '–', '–', '–', '–'];
  const top = (e.kernels as Array<{ name: string; ms: number; calls: number }>)
    .slice(0, 4)
    .map((k) => `${k.name} ${k.ms.toFixed(1)} ms/${num(k.calls)} calls`)
    .join(', ');
  const js = (e.selfTimes as Array<{ fn: string; ms: number }>)
    .slice(0, 4)
    .map((t) => `${t.fn} ${t.ms.toFixed(1)}`)
    .join(', ');
  return [
    num(size),
    fmt(e.searchMean, 1),
    `${fmt(e.kernelMsPerSearch, 1)} (${(e.kernelBytesPerSearch / 2 ** 20).toFixed(0)} MiB, floor ${floorMs(e.kernelBytesPerSearch, bw.bestGBs).toFixed(1)} ms)`,
    (e.kernelBytesPerSearch / (4 * e.totalRows)).toFixed(0),
    top,
    js,
  ];
});
out.push(
  table(
    [
      'documents',
      'search ms',
      'kernels ms (bytes streamed, floor)',
      'passes over rows',
      'heaviest kernels',
      'top self time (ms, CPU profile)',
    ],
    krows,
  ),
);
out.push('', '### Exact vs approximate scan (in-process, the same store and questions)', '');
const arows = sizes.flatMap((size) => {
  const e = raw[`engine/${size}`] ?? {};
  const x = e.exact ?? {};
  return Object.keys(e)
    .filter((k) => k.startsWith('approximate/'))
    .map((k) => {
      const a = e[k];
      return [
        num(size),
        num(a.budget),
        `${fmt(x.searchP50, 1)} / ${fmt(a.searchP50, 1)}`,
        x.searchMean && a.searchMean ? `${(x.searchMean / a.searchMean).toFixed(1)}x` : '–',
        `${fmt(x.allGold10, 3)} / ${fmt(a.allGold10, 3)}`,
        fmt(a.top10OverlapWithExact, 3),
        `${fmt(x.kernelMsPerSearch, 1)} / ${fmt(a.kernelMsPerSearch, 1)}`,
        (e.totalRows ?? 0) > SCAN.approximateRows && a.budget === SCAN.budget ? 'yes' : '',
      ];
    });
});
out.push(
  table(
    [
      'documents',
      'scan budget (postings)',
      'p50 ms exact / approximate',
      'speed-up (mean)',
      'all-gold@10 exact / approximate',
      'exact top 10 kept',
      'kernel ms exact / approximate',
      'server default',
    ],
    arows,
  ),
);
const ann = Object.keys(raw)
  .filter((k) => k.startsWith('ann-'))
  .map((k) => raw[k]);
if (ann.length) out.push('', '### Exact int8 scan (one core) vs usearch HNSW, 256 dims', '', annTable(ann));
process.stdout.write(`${out.join('\n')}\n`);
if (opt.json) fs.writeFileSync(opt.json, JSON.stringify({ started, bw, raw }, null, 1));
