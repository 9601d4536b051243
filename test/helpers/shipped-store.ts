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

/**
 * 400 short documents, each titled by one of six names and a number, naming another such title and
 * four of ten common words: many rows per common term, links between titles, for tests of scans and hops.
 */
export const NAMED_ROWS: InProcessDoc[] = (() => {
  const words = ['river', 'castle', 'painter', 'harbour', 'treaty', 'opera', 'glacier', 'festival', 'railway', 'monastery'];
  const names = ['Alma Reyes', 'Borek Stein', 'Cato Lind', 'Dara Quinn', 'Elis Varga', 'Fenn Holt'];
  return Array.from({ length: 400 }, (_, i) => {
    const title = `${names[i % names.length]} ${i}`;
    const other = `${names[(i * 7 + 3) % names.length]} ${(i * 7 + 3) % 400}`;
    const body = [0, 1, 2, 3].map((j) => words[(i * (j + 3) + j) % words.length]).join(' ');
    const verb = ['painted', 'mapped', 'sang of', 'guarded', 'signed'][i % 5];
    return { id: `d${i}`, text: `${title}\n${title} ${verb} the ${body} near ${other}, in ${1800 + i}.`, metadata: {} };
  });
})();

export function openShippedStore(docs: InProcessDoc[]): Promise<InProcessStore> {
  const { manifest, files } = loadModelFolder(defaultModelUri());
  return InProcessStore.open(docs, { name: manifest.name, version: manifest.version, params: manifest.params, files }, 1);
}
