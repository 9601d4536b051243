// `npm run eval -- --suite ../shared/bench/<suite> [--limit N] [--warmup N] [--url BASE] [--model DIR] [--max-results 10] [--keywords] [--untitled] [--headings generic|topic] [--hide-gold | --hide-paragraph | --ask ../shared/bench/<suite>]`
// Runs a benchmark suite against a real server over HTTP: starts one (port 0, temp data dir, the
// given or shipped model) unless --url names a running one, ingests the suite's corpus in batches
// of 1000, waits until the store has settled (its idle merge done), searches every query and prints the metrics of ../shared/bench/README.md: all-gold@k
// (multi-hop) or answer-passage hit@k (long documents), ECE of `confidence`, mean hops, latency
// percentiles (engine `latency_ms` and round trip) and ingest documents/s. --json prints JSON. The first
// --warmup (32) searches warm a fresh server up and are not timed.
// --hide-gold leaves every gold document of the queries out of the store and reports the
// confidence the queries get when their answer is in no document (it should be low). --ask
// ../shared/bench/<other suite> asks that suite's queries of this suite's corpus instead, with the
// same no-answer report: for a corpus on other subjects (the multi-hop suites' questions against
// squad-articles-dev's 48 articles; not squad-articles-dev's against the wiki-pool, which holds
// those articles' paragraphs). --hide-paragraph (a long-document suite) asks each question of its
// article with the paragraph it was written on removed (bench/hide-paragraph.ts), with the same
// report. --dump FILE also asks for the trace and writes every response, less its `latency_ms` and
// its trace's times, one JSON line per query in the suite's order, from a store reopened after the
// ingest: two builds are compared byte for byte with `cmp` (a refactor
// must leave them identical). --keywords asks every query as a user who types keywords would
// ("Who directed The Prairie King?" as "directed The Prairie King": src/train/keyword-queries.ts).
// --untitled ingests every document without its title (its first line when that is the title, and
// metadata.title), as a user's documents often come. --headings generic|topic gives each document of
// a long-document suite a title line and a heading over every fourth paragraph (bench/headed.ts):
// headings that name nothing, or their paragraph's subtopic; the store should search as without them.
// `npm run eval -- --generalisation [--out FILE]` runs the generalisation table instead
// (bench/generalisation.ts: leave-one-suite-out, titles removed, no answer; about an hour).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { AnswerText } from '../src/train/answer-presence.js';
import { keywordForm } from '../src/train/keyword-queries.js';
import type { Query } from './bench-util.js';
import { noAnswerMetrics, type QueryOutcome, suiteMetrics } from './eval-metrics.js';
import { evalServer, ingestCorpus, readSuite, untitledDocs } from './eval-server.js';
import { HEADINGS, type HeadingKind, headedCorpus } from './headed.js';
import { askWithoutParagraphs } from './hide-paragraph.js';

const { values: args } = parseArgs({
  options: {
    suite: { type: 'string' },
    limit: { type: 'string' },
    url: { type: 'string' },
    model: { type: 'string' },
    'max-results': { type: 'string', default: '10' },
    'max-hops': { type: 'string' },
    concurrency: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '32' },
    'hide-gold': { type: 'boolean', default: false },
    'hide-paragraph': { type: 'boolean', default: false },
    keywords: { type: 'boolean', default: false },
    untitled: { type: 'boolean', default: false },
    headings: { type: 'string' },
    ask: { type: 'string' },
    json: { type: 'boolean', default: false },
    dump: { type: 'string' },
    generalisation: { type: 'boolean', default: false },
    out: { type: 'string' },
    runs: { type: 'string' },
    sample: { type: 'string' },
    'squad-queries': { type: 'string' },
    'held-out': { type: 'string' },
    threads: { type: 'string' },
  },
});
if (args.generalisation) {
  const { runGeneralisation } = await import('./generalisation.js');
  await runGeneralisation(args);
  process.exit(0);
}
if (!args.suite) {
  process.stderr.write(
    'usage: npm run eval -- --suite ../shared/bench/<suite> [--limit N] [--warmup N] [--url BASE] [--model DIR] [--keywords] [--untitled] [--headings generic|topic] [--hide-gold | --hide-paragraph | --ask ../shared/bench/<suite>] [--json]\n       npm run eval -- --generalisation [--out FILE] [--sample N] [--squad-queries N] [--held-out S,...]\n',
  );
  process.exit(2);
}

const suite = readSuite(args.suite);
const asked = args.ask ? readSuite(args.ask) : suite;
let queries = asked.queries;
if (args.limit) queries = queries.slice(0, Number(args.limit));
if (args.keywords) queries = queries.map((q) => ({ ...q, query: keywordForm(q.query) }));
// --hide-gold: every gold document of the queries is left out, so no query has its answer in the store.
const noAnswer = args['hide-gold'] || args['hide-paragraph'] || args.ask !== undefined;
if (args['hide-paragraph'] && (args['hide-gold'] || args.ask || queries.some((q) => q.gold_paragraph === undefined))) {
  process.stderr.write('--hide-paragraph needs a long-document suite (queries with gold_paragraph), without --hide-gold or --ask\n');
  process.exit(2);
}
const hidden = new Set<string>(args['hide-gold'] || args.ask ? queries.flatMap((q) => q.gold_doc_ids) : []);
const kept = suite.corpus.filter((d) => !hidden.has(d.id));
// --untitled: every document without its title (its first line when that is the title, and metadata.title)
const untitledOrNot = args.untitled ? untitledDocs(kept) : kept;
if (args.headings && !HEADINGS.includes(args.headings as HeadingKind)) {
  process.stderr.write(`--headings is one of ${HEADINGS.join(', ')}\n`);
  process.exit(2);
}
// --headings: a title line and a heading over every fourth paragraph
const corpus = args.headings ? headedCorpus(untitledOrNot, args.headings as HeadingKind) : untitledOrNot;
const maxResults = Number(args['max-results']);

const { call, stop, settle, restart } = await evalServer({ url: args.url, model: args.model });
const store = `eval-${suite.name}`.replace(/[^a-z0-9_-]/g, '-');
const ingestSeconds = await ingestCorpus(call, store, corpus, 1000);
// --dump: the store is reopened, so the dump is what a restarted server answers (the same as before
// it: equal scores are ordered by document id, whatever the segments' layout).
if (args.dump) await restart();
// Searches are timed on the settled store: after a bulk load the idle merge compacts it first.
const settleSeconds = await settle(store);
process.stderr.write(`store settled ${settleSeconds.toFixed(1)} s after the ingest\n`);
// A fresh server's workers compile the search code as they first run it (tens of ms per search for the
// first few): --warmup searches (the suite's first queries, untimed) come first, so the figures are
// those of a server in service. The engine keeps no state between searches for them to warm.
for (let i = 0; i < Number(args.warmup) && queries.length; i++) {
  await call('POST', `/stores/${store}/search`, { query: queries[i % queries.length].query, max_results: maxResults });
}

const outcomes: Array<QueryOutcome & { query: Query }> = new Array(queries.length);
/** Asks the queries at `indices`, --concurrency at a time. */
async function ask(indices: number[]) {
  let next = 0;
  const worker = async () => {
    while (next < indices.length) await askOne(indices[next++]);
  };
  await Promise.all(Array.from({ length: Number(args.concurrency) }, worker));
}
async function askOne(i: number) {
  const q = queries[i];
  const started = performance.now();
  const r = await call('POST', `/stores/${store}/search`, {
    query: q.query,
    max_results: maxResults,
    ...(args['max-hops'] ? { max_hops: Number(args['max-hops']) } : {}),
    ...(args.dump ? { return_trace: true } : {}),
  });
  outcomes[i] = { query: q, result: r, roundTripMs: performance.now() - started };
}
const absentWithoutParagraph = args['hide-paragraph'] ? await askWithoutParagraphs(call, store, corpus, queries, ask) : undefined;
if (!absentWithoutParagraph) await ask(queries.map((_, i) => i));
await stop();
if (args.dump) {
  // less the times, the trace's included, so that two builds' dumps compare byte for byte
  const untimed = (trace?: Array<{ ms?: number }>) => trace?.map(({ ms: _, ...step }) => step);
  const lines = outcomes.map(({ query, result: { latency_ms: _, trace, ...rest } }) =>
    JSON.stringify({ id: query.id, ...rest, ...(trace ? { trace: untimed(trace) } : {}) }),
  );
  fs.writeFileSync(args.dump, `${lines.join('\n')}\n`);
}

// the questions whose answer no document of the store holds (the gold ones are already left out)
const absentFromStore = (text: AnswerText) => outcomes.map((o) => text.absent(o.query.answers, []));
const metrics = noAnswer
  ? noAnswerMetrics(outcomes, absentWithoutParagraph ?? absentFromStore(new AnswerText(corpus)))
  : suiteMetrics(outcomes, { ingestDocs: corpus.length, ingestSeconds, maxResults });
if (args.json) process.stdout.write(`${JSON.stringify({ suite: suite.name, queries: queries.length, ...metrics }, null, 2)}\n`);
else {
  process.stdout.write(
    `suite ${suite.name}: ${queries.length} queries${asked === suite ? '' : ` of ${asked.name}`}${args.keywords ? ' as keywords' : ''}${args.untitled ? ', documents untitled' : ''}${absentWithoutParagraph ? ', each asked without its paragraph' : ''}, corpus ${corpus.length} documents${corpus.length < suite.corpus.length ? ` (${suite.corpus.length - corpus.length} gold documents hidden)` : ''}, max_results ${maxResults}\n`,
  );
  for (const [k, v] of Object.entries(metrics))
    process.stdout.write(`  ${k.padEnd(24)} ${typeof v === 'number' ? (Number.isInteger(v) ? v : v.toFixed(3)) : v}\n`);
}
