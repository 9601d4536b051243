// A model is a versioned folder: `manifest.json` plus the weight files it lists, each with its
// size and SHA-256. Loading validates the manifest against its JSON schema (manifest.ts), then reads
// every listed file and verifies both; a missing or invalid manifest, a file that is missing, of the
// wrong size or hash, or a manifest for another engine is refused with a ModelError naming the
// folder and the file. Nothing unlisted is read. Whether the weights fit this engine's features is
// checked where the engine starts (ranking's modelFitProblem), not here: reading a folder needs
// none of the ranking code.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { manifestProblem } from './manifest.js';
import type { LoadedModelFolder, Manifest, ManifestFile } from './types.js';

export const ENGINE_FORMAT = 'svc-engine/1';

export class ModelError extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export function sha256Hex(buf: Uint8Array): string {
  return createHash('sha256').update(buf).digest('hex');
}

const REFETCH = 'Restore the model folder from its source (or re-run `npm run train`), or point SVC_MODEL_URI at a complete model folder.';

export function readModelFolder(dir: string): LoadedModelFolder {
  const manifestPath = path.join(dir, 'manifest.json');
  if (!fs.existsSync(dir))
    throw new ModelError(`model folder ${dir} does not exist`, 'Point SVC_MODEL_URI at a model folder (one holding manifest.json).');
  if (!fs.existsSync(manifestPath))
    throw new ModelError(
      `model folder ${dir} has no manifest.json`,
      'Point SVC_MODEL_URI at a version folder that holds manifest.json, not at its parent.',
    );
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  } catch (err) {
    throw new ModelError(`model manifest ${manifestPath} is not valid JSON: ${(err as Error).message}`, REFETCH);
  }
  const engine = (json as { engine?: unknown } | null)?.engine;
  if (typeof engine === 'string' && engine !== ENGINE_FORMAT) {
    const { name, version } = json as { name?: unknown; version?: unknown };
    throw new ModelError(
      `model ${String(name)}@${String(version)} needs engine ${engine}; this server runs ${ENGINE_FORMAT}`,
      'Use a model trained for this version of svc, or upgrade svc.',
    );
  }
  const problem = manifestProblem(json);
  if (problem) throw new ModelError(`model manifest ${manifestPath} is not an svc-model/1 manifest: ${problem}`, REFETCH);
  const manifest = json as Manifest;
  const files = new Map<string, Buffer>();
  for (const f of manifest.files) {
    if (path.isAbsolute(f.path) || f.path.split(/[\\/]/).includes('..'))
      throw new ModelError(`model manifest ${manifestPath} lists a file outside the folder: ${f.path}`, REFETCH);
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
