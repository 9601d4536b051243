// An in-process store on the shipped model (the real engine, one worker), for tests of what a
// search computes over a handful of documents.
import { defaultModelUri } from '../../src/config.js';
import { type InProcessDoc, InProcessStore, loadModelFolder } from '../../src/engine/index.js';

/** A film, its director (whose daughter it names) and an unrelated passage: a 2-hop question's store. */
export const DEVOTION: InProcessDoc[] = [
  { id: 'film', text: 'Devotion (1929 film)\nDevotion is a 1929 Italian silent drama film directed by Guido Brignone.', metadata: {} },
  {
    id: 'director',
    text: 'Guido Brignone\nGuido Brignone was an Italian film director, father of the actress Lilla Brignone.',
    metadata: {},
  },
  { id: 'other', text: 'Silent film\nA silent film is a film with no synchronized recorded sound.', metadata: {} },
];

export function openShippedStore(docs: InProcessDoc[]): Promise<InProcessStore> {
  const { manifest, files } = loadModelFolder(defaultModelUri());
  return InProcessStore.open(docs, { name: manifest.name, version: manifest.version, params: manifest.params, files }, 1);
}
