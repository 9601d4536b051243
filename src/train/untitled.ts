// Untitled copies: the wiki-pool with every document's title removed (its first line when that is
// the title, and metadata.title), as users' documents often come, and a multi-hop set over it: the
// generalisation evaluation's untitled condition, and `npm run eval -- --untitled`.
import { InProcessStore } from '../engine/index.js';
import type { CorpusDoc } from './data.js';
import type { Model, TrainSet } from './train-set.js';

/** The wiki-pool with every document's title removed: its first line when that is the title, and metadata.title. */
export function untitledCorpus(docs: CorpusDoc[]): CorpusDoc[] {
  return docs.map((d) => {
    const { title, ...metadata } = d.metadata;
    const nl = d.text.indexOf('\n');
    const text = typeof title === 'string' && nl > 0 && d.text.slice(0, nl).trim() === title.trim() ? d.text.slice(nl + 1) : d.text;
    return { id: d.id, text, metadata };
  });
}

/** The set's questions over the untitled copy of its corpus. */
export async function untitledSet(set: TrainSet, corpus: CorpusDoc[], model: Model, threads?: number): Promise<TrainSet> {
  return { ...set, name: `${set.name} (untitled)`, store: await InProcessStore.open(untitledCorpus(corpus), model, threads) };
}
