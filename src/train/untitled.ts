// Untitled copies: the wiki-pool with every document's title removed (its first line when that is
// the title, and metadata.title), as users' documents often come, and a multi-hop set's questions
// asked of it as suites of their own ("hotpotqa-dev (untitled)"): the generalisation evaluation's
// untitled condition, and `npm run eval -- --untitled`.
import { InProcessStore } from '../engine/index.js';
import type { CorpusDoc, TrainQuery } from './data.js';
import type { Model, TrainSet } from './train-set.js';

const UNTITLED = ' (untitled)';

/** The wiki-pool with every document's title removed: its first line when that is the title, and metadata.title. */
export function untitledCorpus(docs: CorpusDoc[]): CorpusDoc[] {
  return docs.map((d) => {
    const { title, ...metadata } = d.metadata;
    const nl = d.text.indexOf('\n');
    const text = typeof title === 'string' && nl > 0 && d.text.slice(0, nl).trim() === title.trim() ? d.text.slice(nl + 1) : d.text;
    return { id: d.id, text, metadata };
  });
}

/** A multi-hop set over the untitled copy of its corpus, its questions in suites of their own. */
export async function untitledSet(set: TrainSet, corpus: CorpusDoc[], model: Model, threads?: number): Promise<TrainSet> {
  const queries: TrainQuery[] = set.queries.map((q) => ({ ...q, suite: `${q.suite}${UNTITLED}` }));
  return { ...set, name: `${set.name}${UNTITLED}`, queries, store: await InProcessStore.open(untitledCorpus(corpus), model, threads) };
}
