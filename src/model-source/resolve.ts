// SVC_MODEL_URI to a local model folder the engine can load. A local path is returned as it is,
// without touching the network or loading any cloud client (air-gapped installs). A remote version
// folder is served from SVC_MODEL_CACHE when the cached copy verifies (no network call at all);
// otherwise it is downloaded into the cache (download.ts), verified and moved into place (cache.ts).
// Every failure is a ModelSourceError naming the URI and the cause, with a fix.
import fs from 'node:fs';
import { cachedModelVerifies, installModel, removeLeftovers } from './cache.js';
import { downloadModel, type ModelLog } from './download.js';
import { cacheFolderFor, isRemoteUri, parseRemoteUri } from './model-uri.js';
import { openSource } from './object-source.js';
import { ModelSourceError } from './source-error.js';

export type { ModelLog } from './download.js';
export { ModelSourceError } from './source-error.js';

export interface ResolveOptions {
  /** A download that receives nothing for this long fails (default 60 s). */
  idleTimeoutMs?: number;
}

export async function resolveModel(uri: string, cacheDir: string, log: ModelLog, opts: ResolveOptions = {}): Promise<string> {
  if (!isRemoteUri(uri)) return uri;
  const remote = parseRemoteUri(uri);
  const final = cacheFolderFor(cacheDir, remote);
  if (cachedModelVerifies(final, remote, log)) {
    log.info('model loaded from cache', { uri: remote.uri, dir: final });
    return final;
  }
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.accessSync(cacheDir, fs.constants.W_OK);
    removeLeftovers(cacheDir);
  } catch (err) {
    throw new ModelSourceError(
      `cannot use the model cache SVC_MODEL_CACHE=${cacheDir} for ${remote.uri}: ${(err as Error).message}`,
      'Make that folder writable by the server user, or point SVC_MODEL_CACHE at one that is.',
      { cause: err },
    );
  }
  log.info('fetching model into the cache', { uri: remote.uri, dir: final });
  const source = await openSource(remote);
  try {
    await installModel(cacheDir, final, remote, (tmp) =>
      downloadModel(source, remote, tmp, { log, idleTimeoutMs: opts.idleTimeoutMs ?? 60_000 }),
    );
  } finally {
    source.close();
  }
  return final;
}
