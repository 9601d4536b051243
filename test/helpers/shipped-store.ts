// An in-process store on the shipped model (the real engine, one worker), for tests of what a
// search computes over a handful of documents.
import { defaultModelUri } from '../../src/config.js';
import { readModelFolder } from '../../src/engine/model/folder.js';
import type { CorpusDoc } from '../../src/train/data.js';
import { TrainingStore } from '../../src/train/harness.js';

/** A film, its director (whose daughter it names) and an unrelated passage: a 2-hop question's store. */
export const DEVOTION: CorpusDoc[] = [
  { id: 'film', text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent drama film directed by Guido Brignone.', metadata: {} },
  { id: 'director', text: 'Guido Brignone\nGuido Brignone was an Italian film director, father of the actress Lilla Brignone.', metadata: {} },
  { id: 'other', text: 'Silent film\nA silent film is a film with no synchronized recorded sound.', metadata: {} },
];

export function openShippedStore(docs: CorpusDoc[]): Promise<TrainingStore> {
  const { manifest, files } = readModelFolder(defaultModelUri());
  return TrainingStore.open(docs, { name: manifest.name, version: manifest.version, params: manifest.params, files }, 1);
}
