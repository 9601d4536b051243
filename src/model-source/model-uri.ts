// SVC_MODEL_URI: a local folder, or a version folder in a bucket (`s3://bucket/prefix/<version>/`,
// `gs://bucket/prefix/<version>/`). Invariants: a remote URI maps to exactly one cache folder,
// `<cache>/<scheme>/<bucket>/<prefix segments>`, and only URIs whose every segment is a plain name
// (not empty, `.` or `..`, no backslash or NUL) are accepted, so the cache path never leaves the cache.
import path from 'node:path';
import { ModelSourceError } from './source-error.js';
import type { RemoteModel, RemoteScheme } from './types.js';

const REMOTE_RE = /^(s3|gs):\/\/([^/]*)\/?(.*)$/;

export function isRemoteUri(uri: string): boolean {
  return /^(s3|gs):\/\//.test(uri);
}

/** Parses an `s3://` or `gs://` URI; throws ModelSourceError naming the URI when it is malformed. */
export function parseRemoteUri(uri: string): RemoteModel {
  const m = REMOTE_RE.exec(uri);
  if (!m)
    throw new ModelSourceError(
      `SVC_MODEL_URI=${uri} is not an s3:// or gs:// URI`,
      'Use s3://<bucket>/<prefix>/<version>/, gs://<bucket>/<prefix>/<version>/ or a local folder.',
    );
  const scheme = m[1] as RemoteScheme;
  const bucket = m[2];
  const fix = `Use ${scheme}://<bucket>/<prefix>/<version>/ naming the version folder that holds manifest.json.`;
  if (!/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/.test(bucket)) {
    throw new ModelSourceError(`SVC_MODEL_URI=${uri} does not name a valid bucket ('${bucket}')`, fix);
  }
  const rest = m[3].replace(/\/+$/, '');
  const segments = rest === '' ? [] : rest.split('/');
  for (const s of segments) {
    if (s === '' || s === '.' || s === '..' || /[\\\0]/.test(s) || Buffer.byteLength(s) > 255) {
      throw new ModelSourceError(`SVC_MODEL_URI=${uri} has an unusable path segment '${s}'`, fix);
    }
  }
  const prefix = segments.length ? `${segments.join('/')}/` : '';
  return { scheme, bucket, prefix, uri: `${scheme}://${bucket}/${prefix}` };
}

/** The folder of the cache that holds this remote model once downloaded and verified. */
export function cacheFolderFor(cacheDir: string, remote: RemoteModel): string {
  return path.join(cacheDir, remote.scheme, remote.bucket, ...remote.prefix.split('/').filter(Boolean));
}
