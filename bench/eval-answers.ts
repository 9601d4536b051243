// `npx tsx bench/eval-answers.ts [--suite ../shared/bench/squad-articles-dev] [--model DIR] [--limit N] [--url BASE] [--json]`
// Measures the answers of search answer=true over HTTP: starts a server (port 0, temp data dir, the
// given or shipped model) unless --url names a running one, ingests the suite's corpus, searches
// every query with answer=true and scores `answer.text` against the query's answers with the
// SQuAD v1.1 evaluation (exact match and F1 after lowercasing and removing punctuation and
// articles, best over the gold answers). Also reports how often a returned passage holds an answer
// (the ceiling of an extractive reader), answer errors, and the native reader's own time per
// question, re-measured here on the returned passages (with --model, or the shipped model).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadReader } from '../src/answer/answerer.js';
import { normalizeAnswer, scoreAnswer } from '../src/answer/text-units.js';
import { startServer } from '../src/api/server.js';
import { defaultModelUri, loadConfig } from '../src/config.js';

const { values: args } = parseArgs({
  options: {
    suite: { type: 'string', default: path.resolve('..', 'shared', 'bench', 'squad-articles-dev') },
    limit: { type: 'string' },
    url: { type: 'string' },
    model: { type: 'string' },
    'max-results': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '4' },
    json: { type: 'boolean', default: false },
  },
});

const suiteDir = path.resolve(args.suite!);
const suite = JSON.parse(fs.readFileSync(path.join(suiteDir, 'SUITE.json'), 'utf8')) as { name: string; corpus: string };
const readJsonl = (p: string) => fs.readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const corpus = readJsonl(path.resolve(suiteDir, suite.corpus));
let queries = readJsonl(path.join(suiteDir, 'queries.jsonl')).filter((q: any) => q.answerable !== false);
if (args.limit) queries = queries.slice(0, Number(args.limit));

let base = args.url;
let stop = async () => {};
if (!base) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-eval-answers-'));
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

const store = `answers-${suite.name}`.replace(/[^a-z0-9_-]/g, '-');
await call('DELETE', `/stores/${store}`).catch(() => undefined);
await call('POST', '/stores', { name: store });
for (let i = 0; i < corpus.length; i += 200) {
  await call('POST', `/stores/${store}/documents`, { documents: corpus.slice(i, i + 200).map((d: any) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} })) });
}

const { reader } = loadReader(args.model ?? defaultModelUri());
const rows: Array<{ em: number; f1: number; reachable: boolean; error?: string; source?: string; readMs?: number; roundTripMs: number }> = [];
let next = 0;
async function worker() {
  while (next < queries.length) {
    const q = queries[next++];
    const started = performance.now();
    const r = await call('POST', `/stores/${store}/search`, { query: q.query, max_results: Number(args['max-results']), answer: true });
    const roundTripMs = performance.now() - started;
    const golds = q.answers.map((a: string) => ` ${normalizeAnswer(a)} `);
    const reachable = r.passages.slice(0, 10).some((p: any) => golds.some((g: string) => ` ${normalizeAnswer(p.text)} `.includes(g)));
    const { em, f1 } = scoreAnswer(r.answer?.text ?? '', q.answers);
    let readMs: number | undefined;
    if (reader) {
      const t0 = performance.now();
      reader.read(q.query, r.passages.slice(0, 10).map((p: any) => p.text));
      readMs = performance.now() - t0;
    }
    rows.push({ em, f1, reachable, error: r.answer?.error?.type, source: r.answer?.source, readMs, roundTripMs });
  }
}
await Promise.all(Array.from({ length: Number(args.concurrency) }, worker));
await stop();

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};
const read = rows.map((r) => r.readMs).filter((x): x is number => x !== undefined);
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const metrics = {
  suite: suite.name,
  queries: rows.length,
  source: [...new Set(rows.map((r) => r.source))].join(', '),
  exact_match: r3(mean(rows.map((r) => r.em))),
  f1: r3(mean(rows.map((r) => r.f1))),
  answer_in_passages: r3(mean(rows.map((r) => (r.reachable ? 1 : 0)))),
  exact_match_when_in_passages: r3(mean(rows.filter((r) => r.reachable).map((r) => r.em))),
  answer_errors: rows.filter((r) => r.error).length,
  reader_ms_p50: r3(pct(read, 0.5)),
  reader_ms_p99: r3(pct(read, 0.99)),
  round_trip_ms_p50: r3(pct(rows.map((r) => r.roundTripMs), 0.5)),
};
if (args.json) process.stdout.write(`${JSON.stringify(metrics, null, 2)}\n`);
else for (const [k, v] of Object.entries(metrics)) process.stdout.write(`  ${k.padEnd(30)} ${v}\n`);
