// A model is a versioned folder: `manifest.json` plus the weight files it lists, each with its
// size and SHA-256. Loading reads every listed file and verifies both; a missing manifest, a file
// that is missing, of the wrong size or hash, a manifest for another engine, or loop weights that
// do not fit the features this engine computes (loopParamsProblem) is refused with an
// error naming the folder and the file. Nothing unlisted is read.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loopParamsProblem, type LoopParams } from '../ranking/loop.js';

export const ENGINE_FORMAT = 'svc-engine/1';

export interface ManifestFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: 'svc-model/1';
  name: string;
  version: string;
  engine: string;
  created_at?: string;
  dims: number;
  tokenizer: Record<string, unknown>;
  files: ManifestFile[];
  /** Small hyper-parameters the runtime needs (scorer weights, calibration, ...). */
  params: Record<string, unknown>;
  training?: Record<string, unknown>;
  metrics?: Record<string, unknown>;
}

export class ModelError extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export interface LoadedModelFolder {
  dir: string;
  manifest: Manifest;
  files: Map<string, Buffer>;
}

export function sha256Hex(buf: Uint8Array): string {
  return createHash('sha256').update(buf).digest('hex');
}

const REFETCH = 'Restore the model folder from its source (or re-run `npm run train`), or point SVC_MODEL_URI at a complete model folder.';

export function readModelFolder(dir: string): LoadedModelFolder {
  const manifestPath = path.join(dir, 'manifest.json');
  if (!fs.existsSync(dir)) throw new ModelError(`model folder ${dir} does not exist`, 'Point SVC_MODEL_URI at a model folder (one holding manifest.json).');
  if (!fs.existsSync(manifestPath)) throw new ModelError(`model folder ${dir} has no manifest.json`, 'Point SVC_MODEL_URI at a version folder that holds manifest.json, not at its parent.');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
  } catch (err) {
    throw new ModelError(`model manifest ${manifestPath} is not valid JSON: ${(err as Error).message}`, REFETCH);
  }
  if (manifest.format !== 'svc-model/1' || !Array.isArray(manifest.files) || !manifest.name || !manifest.version) {
    throw new ModelError(`model manifest ${manifestPath} is not an svc-model/1 manifest`, REFETCH);
  }
  if (manifest.engine !== ENGINE_FORMAT) {
    throw new ModelError(`model ${manifest.name}@${manifest.version} needs engine ${manifest.engine}; this server runs ${ENGINE_FORMAT}`, 'Use a model trained for this version of svc, or upgrade svc.');
  }
  const misfit = loopParamsProblem(manifest.params?.search as Partial<LoopParams> | undefined);
  if (misfit) {
    throw new ModelError(`model ${manifest.name}@${manifest.version} was trained for another version of svc: ${misfit}`, 'Use the model this version of svc ships (models/DEFAULT), or train one with `svc train`.');
  }
  const files = new Map<string, Buffer>();
  for (const f of manifest.files) {
    if (path.isAbsolute(f.path) || f.path.split(/[\\/]/).includes('..')) throw new ModelError(`model manifest ${manifestPath} lists a file outside the folder: ${f.path}`, REFETCH);
    const full = path.join(dir, f.path);
    if (!fs.existsSync(full)) throw new ModelError(`model file ${full} is missing (listed in manifest.json)`, REFETCH);
    const buf = fs.readFileSync(full);
    if (buf.length !== f.bytes) throw new ModelError(`model file ${full} is ${buf.length} bytes; manifest.json says ${f.bytes}`, REFETCH);
    if (sha256Hex(buf) !== f.sha256) throw new ModelError(`model file ${full} does not match its SHA-256 in manifest.json`, REFETCH);
    files.set(f.path, buf);
  }
  return { dir, manifest, files };
}

/** Writes a model folder: the files, then manifest.json listing their sizes and hashes. */
export function writeModelFolder(dir: string, manifest: Omit<Manifest, 'files'>, files: Map<string, Uint8Array>): Manifest {
  fs.mkdirSync(dir, { recursive: true });
  const listed: ManifestFile[] = [];
  for (const [name, buf] of files) {
    fs.writeFileSync(path.join(dir, name), buf);
    listed.push({ path: name, bytes: buf.byteLength, sha256: sha256Hex(buf) });
  }
  const full: Manifest = { ...manifest, files: listed };
  fs.writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}
