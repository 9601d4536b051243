// `npm run bench -- large-doc [--mb 10] [--queries 60]`: what one very large document costs a
// search. The wiki-pool's paragraphs, `mb` megabytes of them, are indexed twice in-process (the
// engine harness, no HTTP): as separate documents, and joined into ONE document (a book or a manual
// as the spec's whole, unchunked documents make it); the first hotpotqa-dev questions are asked of
// each (10 untimed first). Prints the search p50 and p99 of each and their ratio.
import { parseArgs } from 'node:util';
import { fmt, machineLine, percentile, suiteCorpus, suiteQueries, table } from './bench-util.js';
import { EngineHarness } from './engine-harness.js';

const { values: opt } = parseArgs({
  args: process.argv.slice(2),
  options: { mb: { type: 'string', default: '10' }, queries: { type: 'string', default: '60' } },
});
const parts: string[] = [];
let size = 0;
for (const d of suiteCorpus('hotpotqa-dev')) {
  if (size >= Number(opt.mb) * 1e6) break;
  parts.push(d.text);
  size += d.text.length + 2;
}
const queries = suiteQueries('hotpotqa-dev', Number(opt.queries));

async function measure(docs: Array<{ id: string; text: string }>): Promise<{ rows: number; ms: number[] }> {
  const h = await EngineHarness.open();
  for (let i = 0; i < docs.length; i += 500) await h.add(docs.slice(i, i + 500));
  await h.settle();
  for (let i = 0; i < 10; i++) h.search(queries[i % queries.length].query);
  const ms = queries.map((q) => h.search(q.query).ms);
  const rows = h.totalRows;
  await h.close();
  return { rows, ms };
}

const started = new Date();
const separate = await measure(parts.map((text, i) => ({ id: `p${i}`, text })));
const one = await measure([{ id: 'book', text: parts.join('\n\n') }]);
process.stdout.write(
  `\nCommand: \`npm run bench -- large-doc --mb ${opt.mb} --queries ${opt.queries}\` at ${started.toISOString()}, ${parts.length} paragraphs (${(size / 1e6).toFixed(1)} MB).\n${machineLine()}\n\n`,
);
const p50 = percentile(separate.ms, 50);
process.stdout.write(
  table(
    ['indexed as', 'passages', 'search p50 ms', 'p99 ms', 'p50 / separate'],
    [
      ['separate documents', String(separate.rows), fmt(p50, 1), fmt(percentile(separate.ms, 99), 1), '1.00x'],
      [
        'one document',
        String(one.rows),
        fmt(percentile(one.ms, 50), 1),
        fmt(percentile(one.ms, 99), 1),
        `${fmt(percentile(one.ms, 50) / p50, 2)}x`,
      ],
    ],
  ),
);
process.exit(0);
