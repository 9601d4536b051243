// `npx tsx bench/eval-answers.ts [--suite ../shared/bench/squad-articles-dev] [--model DIR] [--limit N] [--url BASE] [--json] [--dump F] [--untitled]`
// Measures the answers of search answer=true over HTTP: starts a server (port 0, temp data dir, the
// given or shipped model) unless --url names a running one, ingests the suite's corpus, searches
// every query with answer=true and scores `answer.text` against the query's answers with the
// SQuAD v1.1 evaluation (exact match and F1 after lowercasing and removing punctuation and
// articles, best over the gold answers). Also reports how often a returned passage holds an answer
// (the ceiling of an extractive reader), answer errors, and the native reader's own time per
// question, re-measured here on the returned passages (with --model, or the shipped model). --dump
// writes a JSON line per question: the question, its answers and type, the answer, and the passages'
// documents and hops. --untitled ingests every document without its title (as `npm run eval --
// --untitled`: its first line when that is the title, and metadata.title).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadReader } from '../src/answer/answerer.js';
import { normalizeAnswer, scoreAnswer } from '../src/answer/text-units.js';
import { defaultModelUri } from '../src/config.js';
import { readModelFolder } from '../src/engine/model/index.js';
import type { Query } from './bench-util.js';
import { evalServer, ingestCorpus, readSuite, untitledDocs } from './eval-server.js';

const { values: args } = parseArgs({
  options: {
    suite: { type: 'string', default: path.resolve('..', 'shared', 'bench', 'squad-articles-dev') },
    limit: { type: 'string' },
    url: { type: 'string' },
    model: { type: 'string' },
    'max-results': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '4' },
    json: { type: 'boolean', default: false },
    dump: { type: 'string' },
    untitled: { type: 'boolean', default: false },
  },
});

const suite = readSuite(args.suite!);
const corpus = args.untitled ? untitledDocs(suite.corpus) : suite.corpus;
// (every answerable query of the suites has its answers)
let queries = suite.queries.filter((q): q is Query & { answers: string[] } => q.answerable !== false && q.answers !== undefined);
if (args.limit) queries = queries.slice(0, Number(args.limit));

const { call, stop } = await evalServer({ url: args.url, model: args.model });
const store = `answers-${suite.name}`.replace(/[^a-z0-9_-]/g, '-');
await ingestCorpus(call, store, corpus, 200);

const { reader } = loadReader(readModelFolder(args.model ?? defaultModelUri()));
const dumped: string[] = [];
const rows: Array<{ em: number; f1: number; reachable: boolean; error?: string; source?: string; readMs?: number; roundTripMs: number }> =
  [];
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
      reader.read(
        q.query,
        r.passages.slice(0, 10).map((p: any) => p.text),
      );
      readMs = performance.now() - t0;
    }
    if (args.dump)
      dumped.push(
        JSON.stringify({
          id: q.id,
          query: q.query,
          type: q.type,
          answers: q.answers,
          answer: r.answer?.text ?? null,
          em,
          f1,
          reachable,
          hops_used: r.hops_used,
          passages: r.passages.slice(0, 10).map((p: any) => ({ doc_id: p.doc_id, hop: p.hop })),
        }),
      );
    rows.push({ em, f1, reachable, error: r.answer?.error?.type, source: r.answer?.source, readMs, roundTripMs });
  }
}
await Promise.all(Array.from({ length: Number(args.concurrency) }, worker));
await stop();
if (args.dump) fs.writeFileSync(args.dump, dumped.map((l) => `${l}\n`).join(''));

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
  round_trip_ms_p50: r3(
    pct(
      rows.map((r) => r.roundTripMs),
      0.5,
    ),
  ),
};
if (args.json) process.stdout.write(`${JSON.stringify(metrics, null, 2)}\n`);
else for (const [k, v] of Object.entries(metrics)) process.stdout.write(`  ${k.padEnd(30)} ${v}\n`);
