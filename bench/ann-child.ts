// Exact int8 scan (svc's WASM SIMD scan op, one core) against a usearch HNSW index over the same
// int8 vectors, in one process. Vectors: text-vectors.ts projections of the synthetic corpus's
// first `n` passages and of the suite questions ('text'), or uniform random unit vectors
// ('random'), or low-rank vectors ('lowrank', intrinsic dimension 32). Both sides rank by the cosine of the same int8 codes (usearch's: trunc(127·unit
// vector); svc scans them with per-row scale 1/|code|; usearch: metric 'cos', quantization 'i8'),
// so recall@10 against the scan measures only what the graph misses (build time excludes making
// the vectors). usearch: connectivity 16 and expansion_add 128 (its defaults), built with every
// core, then re-loaded with each expansion_search to trace recall against latency.
// Prints one JSON report line. Args: { n, dim?, kind: 'text'|'random'|'lowrank', queries?, efs? }.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createEngineRuntime, scanRange, scanScratchBytes } from '../src/engine/runtime/index.js';
import { log, median, selfMaxRss, suiteCorpus, suiteQueries } from './bench-util.js';
import { SynthCorpus } from './synth-corpus.js';
import { LowRankVectors, randomVector, rng, TextProjector } from './text-vectors.js';

// The ESM entry of usearch does not find its prebuilt binary under Node 20; the CommonJS one does.
const usearch = createRequire(import.meta.url)('usearch') as typeof import('usearch');

interface Args {
  n: number;
  dim?: number;
  kind: 'text' | 'random' | 'lowrank';
  queries?: number;
  efs?: number[];
}
const args = JSON.parse(process.argv[2]) as Args;
const dim = args.dim ?? 256;
const n = args.n;
const nq = args.queries ?? 200;
const efs = args.efs ?? [16, 32, 64, 128, 256, 512];

const rt = await createEngineRuntime({ initialBytes: n * dim + n * 4 + nq * dim + (8 << 20) });
const heap = rt.heap;
const mRows = heap.alloc(n * dim),
  mScales = heap.alloc(n * 4),
  mQ = heap.alloc(nq * dim),
  mScratch = heap.alloc(scanScratchBytes(10));
const rows = heap.views.i8At(mRows, n * dim),
  scales = heap.views.f32At(mScales, n),
  qs = heap.views.i8At(mQ, nq * dim);

/**
 * Streams the unit vectors (row i, then the queries) to `row`/`query`; deterministic, so the svc
 * codes and the floats handed to usearch come from two passes instead of a float copy in memory.
 */
async function vectors(row: (i: number, v: Float32Array) => void, query?: (j: number, v: Float32Array) => void): Promise<void> {
  if (args.kind === 'text') {
    const pool = suiteCorpus('hotpotqa-dev');
    const questions = [...suiteQueries('hotpotqa-dev'), ...suiteQueries('2wiki-dev')].slice(0, nq);
    const proj = new TextProjector(
      dim,
      pool.filter((_, i) => i % 4 === 0).map((d) => d.text),
    );
    let i = 0;
    for (const batch of new SynthCorpus(
      pool,
      questions.flatMap((q) => q.gold_doc_ids),
    ).batches(n, 10000))
      for (const d of batch) row(i++, proj.vector(d.text));
    if (query)
      questions.forEach((q, j) => {
        query(j, proj.vector(q.query));
      });
  } else if (args.kind === 'lowrank') {
    const gen = new LowRankVectors(dim, 32);
    const next = rng(12345);
    for (let i = 0; i < n; i++) row(i, gen.vector(next));
    if (query) for (let j = 0; j < nq; j++) query(j, gen.vector(next));
  } else {
    const next = rng(12345);
    for (let i = 0; i < n; i++) row(i, randomVector(dim, next));
    if (query) for (let j = 0; j < nq; j++) query(j, randomVector(dim, next));
  }
}

/** usearch's i8 codes of a unit vector (it truncates v·127); svc keeps them with scale 1/|code|. */
function put(target: Int8Array, i: number, v: Float32Array): number {
  let s = 0;
  for (let j = 0; j < dim; j++) {
    const code = Math.trunc(v[j] * 127);
    target[i * dim + j] = code;
    s += code ** 2;
  }
  return s > 0 ? 1 / Math.sqrt(s) : 0;
}

const t0 = performance.now();
await vectors(
  (i, v) => (scales[i] = put(rows, i, v)),
  (j, v) => put(qs, j, v),
);
const report: Record<string, unknown> = { n, dim, kind: args.kind, queries: nq, vectorSeconds: (performance.now() - t0) / 1000 };
log(`ann ${args.kind} ${n}: vectors ready`);

// Exact scan: ground truth and time per query (one core).
const truth: Set<bigint>[] = [];
const exactMs: number[] = [];
for (let j = 0; j < nq; j++) {
  const t = performance.now();
  const r = scanRange(rt.kernels, { rows: mRows, dim, rowStart: 0, rowEnd: n, scales: mScales, q: mQ + j * dim, k: 10, scratch: mScratch });
  exactMs.push(performance.now() - t);
  truth.push(new Set(Array.from(r.ids, (id) => BigInt(id))));
}
report.exactP50 = median(exactMs);
report.scanBytes = n * dim + 4 * n;

// HNSW build.
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ann-bench-')), 'index.usearch');
const config = {
  dimensions: dim,
  metric: usearch.MetricKind.Cos,
  quantization: usearch.ScalarKind.I8,
  connectivity: 16,
  expansion_add: 128,
  multi: false,
};
const tb = performance.now();
const built = new usearch.Index({ ...config, expansion_search: 64 });
const CHUNK = 20000;
const chunk = new Float32Array(CHUNK * dim);
let filled = 0;
let added = 0;
let addSeconds = 0;
const flush = () => {
  const t = performance.now();
  built.add(
    BigUint64Array.from({ length: filled }, (_, i) => BigInt(added + i)),
    chunk.subarray(0, filled * dim),
    0,
  );
  addSeconds += (performance.now() - t) / 1000;
  added += filled;
  filled = 0;
  if ((added / CHUNK) % 10 === 0) log(`ann ${args.kind} ${n}: ${added} vectors in the graph, ${addSeconds.toFixed(0)} s`);
};
await vectors((_, v) => {
  chunk.set(v, filled * dim);
  if (++filled === CHUNK) flush();
});
if (filled) flush();
report.buildSeconds = addSeconds;
report.buildWallSeconds = (performance.now() - tb) / 1000;
built.save(file);
report.indexFileBytes = fs.statSync(file).size;

const curve: Array<{ ef: number; recall: number; p50: number }> = [];
const qf = new Float32Array(dim);
for (const ef of efs) {
  const idx = new usearch.Index({ ...config, expansion_search: ef });
  idx.load(file);
  const ms: number[] = [];
  let hit = 0;
  for (let j = 0; j < nq; j++) {
    for (let i = 0; i < dim; i++) qf[i] = qs[j * dim + i] / 127;
    const t = performance.now();
    const r = idx.search(qf, 10, 1);
    ms.push(performance.now() - t);
    for (const key of r.keys) hit += +truth[j].has(key);
  }
  curve.push({ ef, recall: hit / (10 * nq), p50: median(ms) });
}
report.curve = curve;
fs.rmSync(path.dirname(file), { recursive: true, force: true });
report.maxRssBytes = selfMaxRss();
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
