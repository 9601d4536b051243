// A model folder with a native reader, for tests that must not depend on the shared data: the
// shipped model's manifest and files plus a `reader.json` trained (in about a second) by the real
// training code (fitReaderOn) on small templated SQuAD-shaped articles about invented people,
// places and films. Deterministic; the reader is trained once per test process.

import { READER_FILE } from '../../src/answer/reader.js';
import { defaultModelUri } from '../../src/config.js';
import type { RerankParams } from '../../src/engine/index.js';
import { readModelFolder, writeModelFolder } from '../../src/engine/model/index.js';
import type { SquadParagraph } from '../../src/train/data.js';
import { fitReaderOn } from '../../src/train/fit-reader.js';

const FIRST = ['Ada', 'Boris', 'Clara', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Luca', 'Mira', 'Nils'];
const LAST = ['Morrow', 'Castel', 'Okafor', 'Lindqvist', 'Varga', 'Petrov', 'Santos', 'Halloran', 'Ferreira', 'Novak', 'Aalto'];
const CITIES = ['Lisbon', 'Turin', 'Krakow', 'Bergen', 'Tallinn', 'Porto', 'Lyon', 'Gdansk', 'Ghent', 'Tartu', 'Split', 'Cork'];
const WORDS = ['Silent', 'River', 'Winter', 'Glass', 'Harbour', 'Orchard', 'Lantern', 'Meridian', 'Ember', 'Tide'];

/** Templated articles: birth place and year, a film directed and where it was shot, a city's churches. */
export function syntheticSquad(n = 90): SquadParagraph[] {
  const out: SquadParagraph[] = [];
  for (let k = 0; k < n; k++) {
    const person = `${FIRST[k % FIRST.length]} ${LAST[(k * 7) % LAST.length]}`;
    const city = CITIES[k % CITIES.length];
    const city2 = CITIES[(k * 5 + 3) % CITIES.length];
    const film = `The ${WORDS[k % WORDS.length]} of ${WORDS[(k * 3 + 1) % WORDS.length]}`;
    const [born, released, days, churches] = [1880 + ((k * 13) % 90), 1920 + ((k * 7) % 80), 12 + ((k * 11) % 70), 3 + ((k * 17) % 40)];
    const title = `${person.replace(' ', '_')}_${k}`;
    out.push(
      {
        title,
        para_idx: 0,
        context: `${person} was born in ${city} in ${born}. ${person} studied painting before turning to cinema.`,
        qas: [
          { question: `When was ${person} born?`, answers: [String(born)] },
          { question: `Where was ${person} born?`, answers: [city] },
        ],
      },
      {
        title,
        para_idx: 1,
        context: `The film ${film} was directed by ${person} and released in ${released}. It was shot in ${city2} over ${days} days.`,
        qas: [
          { question: `Who directed ${film}?`, answers: [person] },
          { question: `In what year was ${film} released?`, answers: [String(released)] },
          { question: `How many days was ${film} shot over?`, answers: [String(days)] },
        ],
      },
      {
        title,
        para_idx: 2,
        context: `${city} is a port city with a long history of trade. Its old town has ${churches} churches and a market.`,
        qas: [{ question: `How many churches does the old town of ${city} have?`, answers: [String(churches)] }],
      },
    );
  }
  return out;
}

let trained: Uint8Array | undefined;

/** The reader.json trained on syntheticSquad(). */
export function testReaderFile(): Uint8Array {
  trained ??= fitReaderOn(syntheticSquad(), () => {}, { questions: 2000, evalQuestions: 50, hashBits: 14 }).file;
  return trained;
}

/**
 * Writes the shipped model with the test reader (or, with `reader` null, with no reader at all) into
 * `dir`; `rerank` replaces the model's params.rerank (null: none).
 */
export function makeReaderModel(dir: string, reader: Uint8Array | null = testReaderFile(), rerank?: RerankParams | null): void {
  const { manifest, files } = readModelFolder(defaultModelUri());
  const { files: _files, ...rest } = manifest;
  if (rerank !== undefined) {
    const { rerank: _old, ...params } = rest.params;
    rest.params = rerank ? { ...params, rerank } : params;
  }
  const out = new Map<string, Uint8Array>(files);
  if (reader) out.set(READER_FILE, reader);
  else out.delete(READER_FILE);
  writeModelFolder(dir, rest, out);
}
