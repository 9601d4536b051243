// `npm run bench -- row-order [--suite hotpotqa-dev,2wiki-dev,musique-dev] [--limit N]`: whether what a
// search returns depends on where the store's rows lie. The wiki-pool is encoded once, then indexed
// in its file order, in reverse, and shuffled in batches of 1,000 (other segments, merged), each
// index built in-process on the real engine; every question of each suite is asked of each, and the
// bench counts the questions whose results (ids, scores, confidence, hops) differ from the file
// order's, and those whose list of documents differs. Since tie keys (ranking/corpus.ts tieOrder)
// it should print zeros; the build before them differed on a third to over half of the questions
// (bench/RESULTS.md).
import { parseArgs } from 'node:util';
import { defaultModelUri } from '../src/config.js';
import type { MemoryStoreIndex } from '../src/engine/index/index.js';
import { loadEngine, type StoredDocument } from '../src/engine/index.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { mulberry32 } from '../src/train/learners.js';
import { MULTI_HOP_SUITES, suiteCorpus, suiteQueries } from './bench-util.js';

const { values: args } = parseArgs({
  options: { suite: { type: 'string', default: MULTI_HOP_SUITES.join(',') }, limit: { type: 'string' } },
});
const engine = await loadEngine({ model: readModelFolder(defaultModelUri()), threads: 2 });
const docs = suiteCorpus(MULTI_HOP_SUITES[0]);
const texts = new Map(docs.map((d) => [d.id, d.text]));
const stored: StoredDocument[] = [];
for (let i = 0; i < docs.length; i += 1000)
  for (const d of (await engine.encode(docs.slice(i, i + 1000))).docs)
    stored.push({ id: d.id, metadata: d.metadata, encoding: d.encoding });

const r = mulberry32(7);
const shuffled = [...stored];
for (let i = shuffled.length - 1; i > 0; i--) {
  const j = Math.floor(r() * (i + 1));
  [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
}
const layouts: Array<[string, () => Promise<MemoryStoreIndex>]> = [
  ['file order', async () => loaded(stored)],
  ['reversed', async () => loaded([...stored].reverse())],
  [
    'shuffled, batches of 1,000',
    async () => {
      const index = engine.createIndex() as MemoryStoreIndex;
      for (let i = 0; i < shuffled.length; i += 1000) await index.load(shuffled.slice(i, i + 1000));
      for (let n = 0; n < 3000 && !index.settled; n++) await new Promise((res) => setTimeout(res, 20));
      return index;
    },
  ],
];

async function loaded(order: StoredDocument[]): Promise<MemoryStoreIndex> {
  const index = engine.createIndex() as MemoryStoreIndex;
  await index.load(order);
  return index;
}

interface Answer {
  full: string;
  ids: string;
}

async function ask(index: MemoryStoreIndex, queries: string[]): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const query of queries) {
    const got = await index.search({ query, maxHops: 4, maxResults: 10, trace: false }, (id: string) => texts.get(id));
    const ids = got.passages.map((p) => p.docId).join(' ');
    out.push({ ids, full: JSON.stringify([got.confidence, got.hopsUsed, got.passages.map((p) => [p.docId, p.score])]) });
  }
  return out;
}

const suites = args.suite!.split(',');
const queries = new Map(suites.map((s) => [s, suiteQueries(s, args.limit ? Number(args.limit) : undefined).map((q) => q.query)]));
const results = new Map<string, Map<string, Answer[]>>();
for (const [name, make] of layouts) {
  const index = await make();
  const per = new Map<string, Answer[]>();
  for (const s of suites) per.set(s, await ask(index, queries.get(s)!));
  results.set(name, per);
  index.close();
}
await engine.close();

console.log(
  '| suite | questions | layout | results differ from the file order | lists of documents differ |\n| --- | --: | --- | --: | --: |',
);
const base = results.get('file order')!;
for (const s of suites)
  for (const [name] of layouts.slice(1)) {
    const a = base.get(s)!;
    const b = results.get(name)!.get(s)!;
    const full = a.filter((x, i) => x.full !== b[i].full).length;
    const ids = a.filter((x, i) => x.ids !== b[i].ids).length;
    console.log(`| ${s} | ${a.length} | ${name} | ${full} | ${ids} |`);
  }
