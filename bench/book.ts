// `npm run bench -- book [--suites hotpotqa-dev,2wiki-dev,musique-dev] [--layouts separate,book,book-untitled,chapters,chapters-untitled] [--chapter 100] [--queries N]`:
// retrieval and confidence when a corpus is ONE document (a book, a manual: the spec's documents are
// whole and unchunked), or a few long ones. The wiki-pool is indexed in-process with the shipped
// model (the engine harness) in each layout: `separate` (its documents as they are), `book` (their
// texts joined by blank lines into one document: each paragraph's title line becomes a heading
// line inside it), `book-untitled` (the same without the title lines), `chapters` (joined as
// in `book`, `--chapter` paragraphs to a document) and `chapters-untitled` (the same without the title lines). The suites' questions are asked of each at the
// server's defaults (10 results, max_hops 4). In a joined layout a question counts as found when
// every gold document's text range is overlapped by a returned passage of the document holding it. Prints all-gold@10, the mean
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
    chapter: { type: 'string', default: '100' },
    queries: { type: 'string' },
  },
});
const suites = opt.suites.split(',');
const layouts = opt.layouts.split(',');
const LAYOUTS = ['separate', 'book', 'book-untitled', 'chapters', 'chapters-untitled'];
const unknown = layouts.filter((l) => !LAYOUTS.includes(l));
if (unknown.length) throw new Error(`unknown layout ${unknown.join(', ')}: the layouts are ${LAYOUTS.join(', ')}`);
const corpus = suiteCorpus(suites[0]);
const questions = new Map<string, Query[]>(suites.map((s) => [s, suiteQueries(s, opt.queries ? Number(opt.queries) : undefined)]));

/** A document's text without its title line (the first line, when more follow). */
const untitled = (text: string) => (text.includes('\n') ? text.slice(text.indexOf('\n') + 1) : text);

/** The corpus joined, `per` documents to a text, and where each document's text lies: which joined document, and its [start, end) in it. */
function joined(docs: Doc[], strip: boolean, per: number): { docs: Doc[]; where: Map<string, { doc: string; range: [number, number] }> } {
  const out: Doc[] = [];
  const where = new Map<string, { doc: string; range: [number, number] }>();
  for (let i = 0; i < docs.length; i += per) {
    const id = `joined-${out.length}`;
    const parts: string[] = [];
    let at = 0;
    for (const d of docs.slice(i, i + per)) {
      const t = strip ? untitled(d.text) : d.text;
      where.set(d.id, { doc: id, range: [at, at + t.length] });
      parts.push(t);
      at += t.length + 2;
    }
    out.push({ id, text: parts.join('\n\n') });
  }
  return { docs: out, where };
}

interface Row {
  found: number[];
  conf: number[];
  hops: number[];
}

async function run(layout: string): Promise<Map<string, Row>> {
  const h = await EngineHarness.open();
  h.profileKernels = false;
  const per = layout.startsWith('chapters') ? Number(opt.chapter) : Number.POSITIVE_INFINITY;
  const book = layout === 'separate' ? undefined : joined(corpus, layout.endsWith('-untitled'), per);
  const docs = book?.docs ?? corpus;
  for (let i = 0; i < docs.length; i += 500) await h.add(docs.slice(i, i + 500));
  await h.settle();
  const out = new Map<string, Row>();
  for (const [suite, qs] of questions) {
    const row: Row = { found: [], conf: [], hops: [] };
    for (const q of qs) {
      const r = h.search(q.query);
      const found = (q.gold_doc_ids ?? []).every((id) => {
        const w = book?.where.get(id);
        if (!w) return r.docIds.includes(id);
        const [a, b] = w.range;
        return r.spans.some(([s, e], i) => r.docIds[i] === w.doc && s < b && e > a);
      });
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
  `\nCommand: \`npm run bench -- book --suites ${opt.suites} --layouts ${opt.layouts}${layouts.some((l) => l.startsWith('chapters')) ? ` --chapter ${opt.chapter}` : ''}${opt.queries ? ` --queries ${opt.queries}` : ''}\` at ${started.toISOString()}, ${corpus.length} documents.\n${machineLine()}\n\n`,
);
process.stdout.write(
  table(['layout', 'suite', 'queries', 'all-gold@10', 'mean confidence', 'ECE@10', 'floor', 'passes', 'mean hops'], rows),
);
process.exit(0);
