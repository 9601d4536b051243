// An in-process store on the shipped model (the real engine, one worker), for tests of what a
// search computes over a handful of documents.
import { defaultModelUri } from '../../src/config.js';
import { readModelFolder } from '../../src/engine/model-folder.js';
import type { CorpusDoc } from '../../src/train/data.js';
import { TrainingStore } from '../../src/train/harness.js';

export function openShippedStore(docs: CorpusDoc[]): Promise<TrainingStore> {
  const { manifest, files } = readModelFolder(defaultModelUri());
  return TrainingStore.open(docs, { name: manifest.name, version: manifest.version, params: manifest.params, files }, 1);
}
