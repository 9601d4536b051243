// scratch probe (not committed): per multi-hop question, the confidence and reader signals of a search with its evidence and with its documents hidden
import fs from 'node:fs';
import { NativeReader, READER_FILE } from '../src/answer/index.js';
import { defaultModelUri } from '../src/config.js';
import { InProcessStore, type LoopParams, loadModelFolder } from '../src/engine/index.js';
import { DataFolder } from '../src/train/data.js';

const data = new DataFolder('/work/shared');
const { manifest, files } = loadModelFolder(defaultModelUri());
const reader = NativeReader.parse(files.get(READER_FILE)!);
const model = { name: manifest.name, version: manifest.version, params: manifest.params, files };
const store = await InProcessStore.open(data.corpus(), model);
const params = manifest.params.search as LoopParams;
const out: unknown[] = [];
function signals(q: string, rows: number[]) {
  const texts = rows.map((r) => store.passageText(r));
  const sent = texts.slice(0, 3).map((t) => reader.bestSentence(q, t));
  const a = reader.read(q, texts.slice(0, 3));
  const a10 = reader.read(q, texts);
  return { sent1: sent[0] ?? -10, sent3: Math.max(-10, ...sent), spanP3: a?.p ?? 0, spanP10: a10?.p ?? 0 };
}
for (const q of data.multihopQueries()) {
  const f = store.search(q.text, params, { maxResults: 10 });
  const rows = f.hits.map((h) => h.row);
  const docs = new Set(rows.map((r) => store.docIdOf(r)));
  const found = q.gold.every((g) => docs.has(g));
  const h = store.search(q.text, params, { maxResults: 10, hidden: q.gold });
  out.push({
    suite: q.suite,
    found,
    conf: f.confidence,
    stage: f.stage,
    hops: f.hopsUsed,
    ...signals(q.text, rows),
    hConf: h.confidence,
    hStage: h.stage,
    h: signals(
      q.text,
      h.hits.map((x) => x.row),
    ),
  });
}
fs.writeFileSync('/work/scratch/answer-probe.json', JSON.stringify(out));
await store.close();
console.log('done', out.length);
