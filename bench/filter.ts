// `npm run bench -- filter [--size 1000000] [--queries 100]`: what a metadata filter costs a search,
// over HTTP on the synthetic corpus of scale.ts (`size` documents, about 7% more passages). Each
// document gets `bucket` (0-99) and `year` (1900-2023) from a hash of its id, except the gold
// documents of the questions asked: those of question i get bucket i mod 50, so that every filter
// below keeps the documents that answer the question it is asked with (as a user's filter would).
// Every question is asked once per filter, the filters in a rotating order so that drift on a
// shared machine falls on all of them alike; the first 16 searches are untimed. Prints the
// engine's latency (p50, p99) per filter, its ratio to the unfiltered search of the same run, the
// mean hops used and all-gold@10.
import { parseArgs } from 'node:util';
import { fmt, log, machineLine, num, percentile, suiteCorpus, suiteQueries, table } from './bench-util.js';
import { SvcSystem } from './peer-svc.js';
import { allGold } from './peer-text.js';
import { hashString, SynthCorpus } from './synth-corpus.js';

const { values: opt } = parseArgs({
  args: process.argv.slice(2),
  options: { size: { type: 'string', default: '1000000' }, queries: { type: 'string', default: '100' } },
});
const size = Number(opt.size);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const WARMUP = 16;

/** The filters, given the bucket of the question's gold documents. */
const FILTERS: Array<{ name: string; keeps: string; filter: (b: number) => unknown }> = [
  { name: 'none', keeps: '100%', filter: () => undefined },
  { name: '`{"bucket": b}`', keeps: '1%', filter: (b) => ({ bucket: b }) },
  { name: '`{"bucket": {"$lt": 50}}`', keeps: '50%', filter: () => ({ bucket: { $lt: 50 } }) },
  { name: '`{"bucket": {"$in": [0..49]}}`', keeps: '50%', filter: () => ({ bucket: { $in: Array.from({ length: 50 }, (_, i) => i) } }) },
  { name: '`{"$not": {"bucket": {"$ne": b}}}`', keeps: '1%', filter: (b) => ({ $not: { bucket: { $ne: b } } }) },
  {
    name: '`{"$or": [{"year": {"$lt": 1901}}, {"bucket": b}]}`',
    keeps: 'about 2%',
    filter: (b) => ({ $or: [{ year: { $lt: 1901 } }, { bucket: b }] }),
  },
];

const queries = ['hotpotqa-dev', '2wiki-dev'].flatMap((s) => suiteQueries(s, Number(opt.queries)));
const goldBucket = new Map<string, number>();
queries.forEach((q, i) => {
  for (const id of q.gold_doc_ids) if (!goldBucket.has(id)) goldBucket.set(id, i % 50);
});
const bucketOf = (qi: number) => goldBucket.get(queries[qi].gold_doc_ids[0]) ?? qi % 50;
const started = new Date();
const load0 = machineLine();
const svc = await SvcSystem.start();
const synth = new SynthCorpus(
  suiteCorpus('hotpotqa-dev'),
  queries.flatMap((q) => q.gold_doc_ids),
);
let done = 0;
const t0 = performance.now();
for (const batch of synth.batches(size)) {
  const docs = batch.map((d) => {
    const h = hashString(d.id);
    return { ...d, metadata: { ...d.metadata, bucket: goldBucket.get(d.id) ?? h % 100, year: 1900 + ((h >>> 8) % 124) } };
  });
  await svc.ingest(docs);
  done += docs.length;
  if (done % Math.max(size / 10, 1000) < docs.length)
    log(`filter bench: ${done} documents, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
await svc.settle();
const passages = svc.stats().passages;
for (let i = 0; i < WARMUP; i++) await svc.search(queries[i % queries.length].query, 10, undefined, FILTERS[i % FILTERS.length].filter(0));
const ms: number[][] = FILTERS.map(() => []);
const hops: number[][] = FILTERS.map(() => []);
const gold: number[][] = FILTERS.map(() => []);
const trip: number[][] = FILTERS.map(() => []);
for (let qi = 0; qi < queries.length; qi++) {
  for (let j = 0; j < FILTERS.length; j++) {
    const f = (qi + j) % FILTERS.length;
    const t = performance.now();
    const a = await svc.search(queries[qi].query, 10, undefined, FILTERS[f].filter(bucketOf(qi)));
    trip[f].push(performance.now() - t);
    ms[f].push(a.engineMs);
    hops[f].push(a.extra?.hops ?? 0);
    gold[f].push(+allGold(queries[qi], a.hits, 10));
  }
}
await svc.close();

const base50 = percentile(ms[0], 50);
const base99 = percentile(ms[0], 99);
const rows = FILTERS.map((f, i) => [
  f.name,
  f.keeps,
  fmt(percentile(ms[i], 50), 1),
  fmt(percentile(ms[i], 99), 1),
  `${fmt(percentile(ms[i], 50) / base50, 2)}x`,
  `${fmt(percentile(ms[i], 99) / base99, 2)}x`,
  fmt(percentile(trip[i], 50), 1),
  fmt(mean(hops[i]), 2),
  fmt(mean(gold[i]), 3),
]);
process.stdout.write(
  `\nCommand: \`npm run bench -- filter --size ${size} --queries ${opt.queries}\` at ${started.toISOString()}, ${num(passages)} passages, ${queries.length} questions per filter.\n${load0}\n\n`,
);
process.stdout.write(
  table(['filter', 'keeps', 'engine p50 ms', 'p99 ms', 'p50 / none', 'p99 / none', 'round trip p50 ms', 'mean hops', 'all-gold@10'], rows),
);
