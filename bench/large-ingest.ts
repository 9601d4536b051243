// `npm run bench -- large-ingest [--mb 30] [--untitled | --articles] [--threads N] [--baseline DIR]`: one very large document
// ingested over HTTP while another store is searched. For this build (and, with --baseline, another
// checkout's, run the same way before it), a server in a child process gets a store of 2,000
// wiki-pool paragraphs, searched by one client in a loop with hotpotqa-dev's questions; after 3 s
// of that, the wiki-pool's next paragraphs, `mb` megabytes of them (the pool from its start again
// past its end; with --articles, the squad-articles-dev articles, whose paragraphs are longer, so
// that consecutive passages overlap), are sent as ONE document to another store; before that, the same document is sent
// to a third store with nothing else running. Prints both ingests' round trips and rates (MB/s of
// document text, from the request's first byte to the acknowledged write; the body is serialised
// once, beforehand), and the other store's search round trips before and during the ingest.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fmt, machineLine, percentile, suiteCorpus, suiteQueries, table } from './bench-util.js';
import { call, comparedBuilds, type Running, serve, stop } from './child-server.js';

const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '30' },
    threads: { type: 'string' },
    baseline: { type: 'string' },
    untitled: { type: 'boolean', default: false },
    articles: { type: 'boolean', default: false },
  },
});
const SIDE_DOCS = 2000;
const corpus = suiteCorpus('hotpotqa-dev');
// --articles: the SQuAD articles (about 1.6 MB), each a title line and paragraphs of several sentences
const source = args.articles ? suiteCorpus('squad-articles-dev') : corpus;
const parts: string[] = [];
let size = 0;
// the paragraphs after the side store's (the articles from their first), from the first again when they run out (the pool holds about 31 MB)
for (let i = args.articles ? 0 : SIDE_DOCS; ; i = i + 1 < source.length ? i + 1 : 0) {
  // --untitled: each paragraph without its title line, a text with no headings (read by its entries)
  const text = args.untitled ? source[i].text.slice(source[i].text.indexOf('\n') + 1) : source[i].text;
  if (size + Buffer.byteLength(text) + 2 > Number(args.mb) * 1e6) break;
  parts.push(text);
  size += Buffer.byteLength(text) + 2;
}
const book = parts.join('\n\n');
const questions = suiteQueries('hotpotqa-dev').map((q) => q.query);

/** Searches of the side store, one at a time, until `until()` holds: each search's start (ms since `t0`) and round trip. */
async function searchLoop(r: Running, t0: number, until: () => boolean): Promise<Array<{ at: number; ms: number }>> {
  const out: Array<{ at: number; ms: number }> = [];
  for (let i = 0; !until(); i++) {
    const start = performance.now();
    await call(r.base, 'POST', '/stores/side/search', { query: questions[i % questions.length] });
    out.push({ at: start - t0, ms: performance.now() - start });
  }
  return out;
}

/** The request body, serialised once: the timings are the server's (the upload included), not the client's JSON.stringify. */
const bookBody = JSON.stringify({ documents: [{ id: 'book', text: book }] });

/** The document sent to `store`: the seconds to its acknowledged write. */
async function ingestBook(r: Running, store: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${r.base}/stores/${store}/documents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: bookBody,
  });
  if (!res.ok) throw new Error(`ingest into ${store}: ${res.status} ${await res.text()}`);
  await res.json();
  return (performance.now() - t0) / 1000;
}

async function measure(label: string, build: string): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-large-ingest-'));
  const r = await serve(build, dataDir, args.threads ? { SVC_THREADS: args.threads } : {});
  try {
    for (const name of ['side', 'alone', 'book']) await call(r.base, 'POST', '/stores', { name });
    for (let i = 0; i < SIDE_DOCS; i += 500)
      await call(r.base, 'POST', '/stores/side/documents', {
        documents: corpus.slice(i, i + 500).map((d) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} })),
      });
    await new Promise((res) => setTimeout(res, 3000));
    // the document alone: nothing else asks the server for anything
    const alone = await ingestBook(r, 'alone');
    await new Promise((res) => setTimeout(res, 3000));
    // the document again, into a third store, while the side store is searched
    const t0 = performance.now();
    let ingest: { start: number; end: number } | undefined;
    const loop = searchLoop(r, t0, () => ingest !== undefined && performance.now() > ingest.end + 1000);
    await new Promise((res) => setTimeout(res, 3000));
    const start = performance.now() - t0;
    const loaded = await ingestBook(r, 'book');
    ingest = { start, end: performance.now() - t0 };
    const searches = await loop;
    const before = searches.filter((s) => s.at + s.ms < ingest!.start).map((s) => s.ms);
    const during = searches.filter((s) => s.at < ingest!.end && s.at + s.ms > ingest!.start).map((s) => s.ms);
    process.stderr.write(
      `${label}: ${(size / 1e6).toFixed(1)} MB in ${alone.toFixed(1)} s alone, ${loaded.toFixed(1)} s beside searches\n`,
    );
    return [
      label,
      (size / 1e6).toFixed(1),
      `${alone.toFixed(1)} (${(size / 1e6 / alone).toFixed(2)})`,
      `${loaded.toFixed(1)} (${(size / 1e6 / loaded).toFixed(2)})`,
      `${fmt(percentile(before, 50), 1)} / ${fmt(percentile(before, 99), 1)}`,
      String(during.length),
      `${fmt(percentile(during, 50), 1)} / ${fmt(percentile(during, 99), 1)} / ${fmt(Math.max(...during), 0)}`,
    ];
  } finally {
    await stop(r);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows: string[][] = [];
for (const [label, build] of comparedBuilds(args.baseline)) rows.push(await measure(label, build));
console.log(
  `\n\`npm run bench -- large-ingest --mb ${args.mb}${args.untitled ? ' --untitled' : ''}${args.articles ? ' --articles' : ''}${args.threads ? ` --threads ${args.threads}` : ''}\`, ${parts.length} ${args.articles ? 'articles' : 'paragraphs'} as one document.\n${machineLine()}\n`,
);
console.log(
  table(
    [
      'build',
      'MB',
      'alone: ingest s (MB/s)',
      'beside searches: ingest s (MB/s)',
      'other store before: p50 / p99 ms',
      'searches during',
      'during: p50 / p99 / max ms',
    ],
    rows,
  ),
);
