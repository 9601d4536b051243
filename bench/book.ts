// `npm run bench -- book [--suites hotpotqa-dev,2wiki-dev,musique-dev] [--layouts separate,book,book-untitled] [--queries N]`:
// retrieval and confidence when a corpus is ONE document (a book, a manual: the spec's documents are
// whole and unchunked). The wiki-pool is indexed in-process with the shipped model (the engine
// harness) in each layout: `separate` (its documents as they are), `book` (their texts joined by
// blank lines into one document: each paragraph's title line becomes a heading line inside it) and
// `book-untitled` (the same without the title lines). The suites' questions are asked of each at
// the server's defaults (10 results, max_hops 4). In a book a question counts as found when every
// gold document's text range is overlapped by a returned passage. Prints all-gold@10, the mean
// confidence, ECE@10 beside its floor (learners.ts, as `npm run eval -- --generalisation` computes
// them) and the mean hops of each suite in each layout.

import { parseArgs } from 'node:util';
import { ece, eceFloor } from '../src/train/learners.js';
import { type Doc, fmt, machineLine, type Query, suiteCorpus, suiteQueries, table } from './bench-util.js';
import { EngineHarness } from './engine-harness.js';

const { values: opt } = parseArgs({
  args: process.argv.slice(2),
  options: {
    suites: { type: 'string', default: 'hotpotqa-dev,2wiki-dev,musique-dev' },
    layouts: { type: 'string', default: 'separate,book,book-untitled' },
    queries: { type: 'string' },
  },
});
const suites = opt.suites.split(',');
const layouts = opt.layouts.split(',');
const unknown = layouts.filter((l) => !['separate', 'book', 'book-untitled'].includes(l));
if (unknown.length) throw new Error(`unknown layout ${unknown.join(', ')}: the layouts are separate, book, book-untitled`);
const corpus = suiteCorpus(suites[0]);
const questions = new Map<string, Query[]>(suites.map((s) => [s, suiteQueries(s, opt.queries ? Number(opt.queries) : undefined)]));

/** A document's text without its title line (the first line, when more follow). */
const untitled = (text: string) => (text.includes('\n') ? text.slice(text.indexOf('\n') + 1) : text);

/** The corpus joined into one text, and each document's [start, end) in it. */
function joined(docs: Doc[], strip: boolean): { text: string; ranges: Map<string, [number, number]> } {
  const parts: string[] = [];
  const ranges = new Map<string, [number, number]>();
  let at = 0;
  for (const d of docs) {
    const t = strip ? untitled(d.text) : d.text;
    ranges.set(d.id, [at, at + t.length]);
    parts.push(t);
    at += t.length + 2;
  }
  return { text: parts.join('\n\n'), ranges };
}

interface Row {
  found: number[];
  conf: number[];
  hops: number[];
}

async function run(layout: string): Promise<Map<string, Row>> {
  const h = await EngineHarness.open();
  h.profileKernels = false;
  const book = layout === 'separate' ? undefined : joined(corpus, layout === 'book-untitled');
  if (book) await h.add([{ id: 'book', text: book.text }]);
  else for (let i = 0; i < corpus.length; i += 500) await h.add(corpus.slice(i, i + 500));
  await h.settle();
  const out = new Map<string, Row>();
  for (const [suite, qs] of questions) {
    const row: Row = { found: [], conf: [], hops: [] };
    for (const q of qs) {
      const r = h.search(q.query);
      const found = book
        ? (q.gold_doc_ids ?? []).every((id) => {
            const [a, b] = book.ranges.get(id) ?? [0, 0];
            return r.spans.some(([s, e]) => s < b && e > a);
          })
        : (q.gold_doc_ids ?? []).every((id) => r.docIds.includes(id));
      row.found.push(found ? 1 : 0);
      row.conf.push(r.confidence);
      row.hops.push(r.hops);
    }
    out.set(suite, row);
    process.stderr.write(`${layout}: ${suite} done\n`);
  }
  await h.close();
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const started = new Date();
const rows: string[][] = [];
for (const layout of layouts) {
  for (const [suite, r] of await run(layout)) {
    const e = ece(r.conf, r.found);
    const floor = eceFloor(r.conf).p90;
    rows.push([
      layout,
      suite,
      String(r.found.length),
      fmt(mean(r.found), 3),
      fmt(mean(r.conf), 3),
      fmt(e, 3),
      fmt(floor, 3),
      e <= Math.max(0.05, floor) ? 'yes' : 'no',
      fmt(mean(r.hops), 2),
    ]);
  }
}
process.stdout.write(
  `\nCommand: \`npm run bench -- book --suites ${opt.suites} --layouts ${opt.layouts}${opt.queries ? ` --queries ${opt.queries}` : ''}\` at ${started.toISOString()}, ${corpus.length} documents.\n${machineLine()}\n\n`,
);
process.stdout.write(
  table(['layout', 'suite', 'queries', 'all-gold@10', 'mean confidence', 'ECE@10', 'floor', 'passes', 'mean hops'], rows),
);
process.exit(0);
