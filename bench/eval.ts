// `npm run eval -- --suite ../shared/bench/<suite> [--limit N] [--url BASE] [--model DIR] [--max-results 10]`
// Runs a benchmark suite against a real server over HTTP: starts one (port 0, temp data dir, the
// given or shipped model) unless --url names a running one, ingests the suite's corpus in batches
// of 1000, searches every query and prints the metrics of ../shared/bench/README.md: all-gold@k
// (multi-hop) or answer-passage hit@k (long documents), ECE of `confidence`, mean hops, latency
// percentiles (engine `latency_ms` and round trip) and ingest documents/s. --json prints JSON.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { startServer } from '../src/api/server.js';
import { loadConfig } from '../src/config.js';
import { suiteMetrics, type QueryOutcome } from './eval-metrics.js';

const { values: args } = parseArgs({
  options: {
    suite: { type: 'string' },
    limit: { type: 'string' },
    url: { type: 'string' },
    model: { type: 'string' },
    'max-results': { type: 'string', default: '10' },
    'max-hops': { type: 'string' },
    concurrency: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
  },
});
if (!args.suite) {
  process.stderr.write('usage: npm run eval -- --suite ../shared/bench/<suite> [--limit N] [--url BASE] [--model DIR] [--json]\n');
  process.exit(2);
}

const suiteDir = path.resolve(args.suite);
const suite = JSON.parse(fs.readFileSync(path.join(suiteDir, 'SUITE.json'), 'utf8')) as { name: string; corpus: string };
const readJsonl = (p: string) => fs.readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const corpus = readJsonl(path.resolve(suiteDir, suite.corpus));
let queries = readJsonl(path.join(suiteDir, 'queries.jsonl'));
if (args.limit) queries = queries.slice(0, Number(args.limit));
const maxResults = Number(args['max-results']);

let base = args.url;
let stop = async () => {};
if (!base) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-eval-'));
  const env: NodeJS.ProcessEnv = { SVC_DATA_DIR: dataDir, SVC_LOG: 'silent', ...(args.model ? { SVC_MODEL_URI: args.model } : {}) };
  const server = await startServer({ config: loadConfig(env), port: 0, host: '127.0.0.1', noAuth: true, rateLimit: 1e9, logger: pino({ level: 'silent' }) });
  base = server.url;
  stop = async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

async function call(method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(base + p, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = res.status === 204 ? undefined : await res.json();
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const store = `eval-${suite.name}`.replace(/[^a-z0-9_-]/g, '-');
await call('DELETE', `/stores/${store}`).catch(() => undefined);
await call('POST', '/stores', { name: store });
const t0 = performance.now();
for (let i = 0; i < corpus.length; i += 1000) {
  await call('POST', `/stores/${store}/documents`, { documents: corpus.slice(i, i + 1000).map((d: any) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} })) });
}
const ingestSeconds = (performance.now() - t0) / 1000;

const outcomes: QueryOutcome[] = new Array(queries.length);
let next = 0;
async function worker() {
  while (next < queries.length) {
    const i = next++;
    const q = queries[i];
    const started = performance.now();
    const r = await call('POST', `/stores/${store}/search`, { query: q.query, max_results: maxResults, ...(args['max-hops'] ? { max_hops: Number(args['max-hops']) } : {}) });
    outcomes[i] = { query: q, result: r, roundTripMs: performance.now() - started };
  }
}
await Promise.all(Array.from({ length: Number(args.concurrency) }, worker));
await stop();

const metrics = suiteMetrics(outcomes, { ingestDocs: corpus.length, ingestSeconds, maxResults });
if (args.json) process.stdout.write(`${JSON.stringify({ suite: suite.name, queries: queries.length, ...metrics }, null, 2)}\n`);
else {
  process.stdout.write(`suite ${suite.name}: ${queries.length} queries, corpus ${corpus.length} documents, max_results ${maxResults}\n`);
  for (const [k, v] of Object.entries(metrics)) process.stdout.write(`  ${k.padEnd(24)} ${typeof v === 'number' ? (Number.isInteger(v) ? v : v.toFixed(3)) : v}\n`);
}
