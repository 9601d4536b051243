// scratch probe (not committed): all-gold@10 of the shipped model's loop on titled vs untitled wiki-pool, in-process
import { defaultModelUri } from '../src/config.js';
import { InProcessStore, type LoopParams, loadModelFolder } from '../src/engine/index.js';
import { DataFolder } from '../src/train/data.js';
import { untitledCorpus } from '../src/train/generalisation.js';
import { ece } from '../src/train/learners.js';

const data = new DataFolder('/work/shared');
const { manifest, files } = loadModelFolder(defaultModelUri());
const model = { name: manifest.name, version: manifest.version, params: manifest.params, files };
const corpus = data.corpus();
const queries = data.multihopQueries();
const mode = process.argv[2] ?? 'untitled';
const store = await InProcessStore.open(mode === 'untitled' ? untitledCorpus(corpus) : corpus, model);
const params = manifest.params.search as LoopParams;
for (const suite of ['hotpotqa-dev', '2wiki-dev', 'musique-dev']) {
  const qs = queries.filter((q) => q.suite === suite);
  const conf: number[] = [];
  const ys: number[] = [];
  for (const q of qs) {
    const out = store.search(q.text, params, { maxResults: 10 });
    const docs = new Set(out.hits.map((h) => store.docIdOf(h.row)));
    ys.push(q.gold.every((g) => docs.has(g)) ? 1 : 0);
    conf.push(out.confidence);
  }
  console.log(mode, suite, (ys.reduce((a, b) => a + b, 0) / ys.length).toFixed(3), 'ECE', ece(conf, ys).toFixed(3));
}
await store.close();
