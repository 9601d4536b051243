// Downloads a remote model version folder into a local folder: manifest.json first, then every
// file it lists, each streamed to disk, checked against the manifest's size (stopped as soon as it
// runs over) and SHA-256, and fsynced. Invariants: nothing but the listed files and the manifest is
// fetched; a listed path that could leave the folder is refused before anything is written; a
// stream that delivers nothing for `idleTimeoutMs` fails as a network error instead of hanging.
// The caller owns `dest` (a temp folder) and deletes it when this throws.
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type ManifestFile, sha256Hex } from '../engine/index.js';
import { fsyncFile } from '../fsync.js';
import { failureError, ModelSourceError } from './source-error.js';
import type { FailureContext, ObjectSource, RemoteModel } from './types.js';

export interface ModelLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface DownloadOptions {
  log: ModelLog;
  idleTimeoutMs: number;
}

const MANIFEST_MAX = 16 * 1024 * 1024;
const REUPLOAD =
  'The bucket copy does not match its manifest (a partial or mixed upload): upload the complete version folder again, manifest.json last.';

class TooLarge extends Error {}

/** Counts bytes, fails past `max`, and fails when no chunk arrives for `idleMs`. */
function guard(max: number, idleMs: number, onBytes: (n: number) => void): Transform {
  let seen = 0;
  let timer: NodeJS.Timeout | undefined;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      seen += chunk.length;
      if (seen > max) return cb(new TooLarge());
      arm();
      onBytes(chunk.length);
      cb(null, chunk);
    },
    flush(cb) {
      clearTimeout(timer);
      cb();
    },
  });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => t.destroy(stalled(idleMs)), idleMs);
  };
  t.on('close', () => clearTimeout(timer));
  arm();
  return t;
}

function stalled(idleMs: number): Error {
  return Object.assign(new Error(`no data received for ${idleMs / 1000} s`), { code: 'SVC_STALLED' });
}

/** The promise, or a stall error when it does not settle within `idleMs`. */
async function beforeIdle<T>(p: Promise<T>, idleMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(stalled(idleMs)), idleMs);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function downloadModel(source: ObjectSource, remote: RemoteModel, dest: string, opts: DownloadOptions): Promise<void> {
  const started = performance.now();
  const ctx = (key: string, isManifest = false): FailureContext => ({
    scheme: remote.scheme,
    uri: remote.uri,
    bucket: remote.bucket,
    object: `${remote.uri}${key}`,
    isManifest,
    endpoint: source.endpoint,
  });

  /** Streams one object into `file`; returns its size. Client errors become ModelSourceErrors. */
  const fetchTo = async (key: string, file: string, max: number, onBytes: (n: number) => void): Promise<number> => {
    let bytes = 0;
    let out: fs.WriteStream | undefined;
    try {
      const body = await beforeIdle(source.read(remote.prefix + key), opts.idleTimeoutMs);
      out = fs.createWriteStream(file);
      await pipeline(
        body,
        guard(max, opts.idleTimeoutMs, (n) => {
          bytes += n;
          onBytes(n);
        }),
        out,
      );
      fsyncFile(file);
      return bytes;
    } catch (err) {
      if (out) await closed(out);
      if (err instanceof TooLarge) {
        const says =
          key === 'manifest.json' ? `${MANIFEST_MAX} bytes, too large for a model manifest` : `the ${max} bytes manifest.json says`;
        throw new ModelSourceError(`cannot fetch model ${remote.uri}: ${remote.uri}${key} is larger than ${says}`, REUPLOAD);
      }
      const f = source.classify(err);
      const c = ctx(key, key === 'manifest.json');
      if (f.kind === 'no_object' && c.isManifest) c.nearby = await nearbyFolders(source, remote);
      throw failureError(f, c, err);
    }
  };

  const manifestPath = path.join(dest, 'manifest.json');
  await fetchTo('manifest.json', manifestPath, MANIFEST_MAX, () => {});
  const files = listedFiles(remote, fs.readFileSync(manifestPath, 'utf8'));
  const total = files.reduce((s, f) => s + f.bytes, 0);
  opts.log.info('model download started', { uri: remote.uri, files: files.length, bytes: total });
  let done = 0;
  let nextReport = 0.1;
  const progress = (n: number) => {
    done += n;
    if (total > 0 && done / total >= nextReport && done < total) {
      opts.log.info('model download progress', { uri: remote.uri, bytes: done, of: total, pct: Math.floor((100 * done) / total) });
      while (done / total >= nextReport) nextReport += 0.1;
    }
  };
  for (const f of files) {
    const target = path.join(dest, f.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const bytes = await fetchTo(f.path, target, f.bytes, progress);
    if (bytes !== f.bytes)
      throw new ModelSourceError(
        `cannot fetch model ${remote.uri}: ${remote.uri}${f.path} is ${bytes} bytes; manifest.json says ${f.bytes}`,
        REUPLOAD,
      );
    if (sha256Hex(fs.readFileSync(target)) !== f.sha256)
      throw new ModelSourceError(
        `cannot fetch model ${remote.uri}: ${remote.uri}${f.path} does not match its SHA-256 in manifest.json`,
        REUPLOAD,
      );
  }
  opts.log.info('model downloaded', { uri: remote.uri, files: files.length, bytes: total, ms: Math.round(performance.now() - started) });
}

/**
 * Resolves once a write stream has closed its file. A failed pipeline rejects before that: a file
 * still being opened would appear in the temp folder while the caller removes it.
 */
function closed(out: fs.WriteStream): Promise<void> {
  if (out.closed) return Promise.resolve();
  out.on('error', () => {});
  out.destroy();
  return new Promise((resolve) => out.once('close', () => resolve()));
}

/** The file entries of a fetched manifest, checked enough to download them safely. */
function listedFiles(remote: RemoteModel, text: string): ManifestFile[] {
  const bad = (why: string) =>
    new ModelSourceError(
      `cannot fetch model ${remote.uri}: its manifest.json ${why}`,
      'Upload a manifest.json written by svc (writeModelFolder) with the version folder.',
    );
  let manifest: { files?: unknown };
  try {
    manifest = JSON.parse(text) as { files?: unknown };
  } catch (err) {
    throw bad(`is not valid JSON (${(err as Error).message})`);
  }
  if (!manifest || !Array.isArray(manifest.files)) throw bad('has no `files` list');
  const seen = new Set<string>();
  for (const f of manifest.files as ManifestFile[]) {
    const ok =
      f &&
      typeof f.path === 'string' &&
      f.path !== '' &&
      f.path !== 'manifest.json' &&
      !path.isAbsolute(f.path) &&
      !f.path.split(/[\\/]/).some((s) => s === '..' || s === '.' || s === '') &&
      Number.isSafeInteger(f.bytes) &&
      f.bytes >= 0 &&
      typeof f.sha256 === 'string' &&
      /^[0-9a-f]{64}$/.test(f.sha256) &&
      !seen.has(f.path);
    if (!ok) throw bad(`lists an unusable file entry: ${JSON.stringify(f)}`);
    seen.add(f.path);
  }
  return manifest.files as ManifestFile[];
}

/** Folders under the URI (or beside it), to suggest a version folder; best effort. */
async function nearbyFolders(source: ObjectSource, remote: RemoteModel): Promise<FailureContext['nearby']> {
  const parentPrefix = remote.prefix.replace(/[^/]+\/$/, '');
  for (const prefix of [remote.prefix, parentPrefix]) {
    try {
      const folders = await source.listFolders(prefix);
      if (folders.length) return { parent: `${remote.scheme}://${remote.bucket}/${prefix}`, folders };
    } catch {
      return undefined;
    }
    if (prefix === parentPrefix) break;
  }
  return undefined;
}
