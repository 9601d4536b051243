// `npm run bench -- large-doc [--mb 10] [--queries 60] [--http]`: what one very large document costs
// a search. The wiki-pool's paragraphs, `mb` megabytes of them, are indexed twice: as separate
// documents, and joined into ONE document (a book or a manual as the spec's whole, unchunked
// documents make it); the first hotpotqa-dev questions are asked of each (10 untimed first). By
// default in-process (the engine harness: the engine alone); with `--http`, through a `svc serve`
// process over HTTP, timing the round trip (the engine, and the passages' text read from the store).
// Prints the search p50 and p99 of each and their ratio.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fmt, machineLine, percentile, REPO_DIR, suiteCorpus, suiteQueries, table } from './bench-util.js';
import { call, serve, stop, waitQuiet } from './child-server.js';
import { EngineHarness } from './engine-harness.js';

const { values: opt } = parseArgs({
  args: process.argv.slice(2),
  options: { mb: { type: 'string', default: '10' }, queries: { type: 'string', default: '60' }, http: { type: 'boolean', default: false } },
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

/** The same over HTTP: one store per layout in one server, round trips; `rows` counts documents. */
async function measureHttp(layouts: Array<Array<{ id: string; text: string }>>): Promise<Array<{ rows: number; ms: number[] }>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-large-doc-'));
  const server = await serve(REPO_DIR, dataDir);
  try {
    const out: Array<{ rows: number; ms: number[] }> = [];
    for (const [i, docs] of layouts.entries()) {
      const store = `/stores/s${i}`;
      await call(server.base, 'POST', '/stores', { name: `s${i}` });
      for (let j = 0; j < docs.length; j += 500)
        await call(server.base, 'POST', `${store}/documents`, { documents: docs.slice(j, j + 500) });
      await waitQuiet(server.base);
      const ask = (q: string) => call(server.base, 'POST', `${store}/search`, { query: q });
      for (let j = 0; j < 10; j++) await ask(queries[j % queries.length].query);
      const ms: number[] = [];
      for (const q of queries) {
        const t = performance.now();
        await ask(q.query);
        ms.push(performance.now() - t);
      }
      out.push({ rows: docs.length, ms });
    }
    return out;
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const started = new Date();
const layouts = [parts.map((text, i) => ({ id: `p${i}`, text })), [{ id: 'book', text: parts.join('\n\n') }]];
const [separate, one] = opt.http ? await measureHttp(layouts) : [await measure(layouts[0]), await measure(layouts[1])];
process.stdout.write(
  `\nCommand: \`npm run bench -- large-doc --mb ${opt.mb} --queries ${opt.queries}${opt.http ? ' --http' : ''}\` at ${started.toISOString()}, ${parts.length} paragraphs (${(size / 1e6).toFixed(1)} MB).\n${machineLine()}\n\n`,
);
const p50 = percentile(separate.ms, 50);
process.stdout.write(
  table(
    ['indexed as', opt.http ? 'documents' : 'passages', opt.http ? 'round trip p50 ms' : 'search p50 ms', 'p99 ms', 'p50 / separate'],
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
