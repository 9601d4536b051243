// Errors of fetching a remote model. Every error names the model URI (and the object when one is
// involved) and the cause, and carries a `fix` (printed by the CLI as `fix:`). Object-store clients
// report failures in their own shapes; each source classifies them into a FailureKind, and this
// module turns a kind into the message and fix, so S3 and GCS read the same.
import type { Failure, FailureContext, RemoteScheme } from './types.js';

export class ModelSourceError extends Error {
  constructor(
    message: string,
    readonly fix: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ModelSourceError';
  }
}

const CREDENTIALS_FIX: Record<RemoteScheme, string> = {
  s3: 'Provide AWS credentials the standard way: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE with ~/.aws/credentials, or an instance, task or pod role.',
  gs: 'Provide Google application default credentials: GOOGLE_APPLICATION_CREDENTIALS=<service-account key file>, `gcloud auth application-default login`, or a service account attached to the VM or pod.',
};

const DENIED_FIX: Record<RemoteScheme, string> = {
  s3: 'Grant these credentials s3:GetObject and s3:ListBucket on the model prefix (or use credentials that have them).',
  gs: 'Grant these credentials roles/storage.objectViewer on the bucket (or use credentials that have it).',
};

const ENDPOINT_VAR: Record<RemoteScheme, string> = { s3: 'AWS_ENDPOINT_URL_S3', gs: 'STORAGE_EMULATOR_HOST' };

export function failureError(f: Failure, c: FailureContext, cause?: unknown): ModelSourceError {
  const head = `cannot fetch model ${c.uri}`;
  const what = c.object ?? c.uri;
  const opts = { cause };
  switch (f.kind) {
    case 'no_bucket':
      return new ModelSourceError(
        `${head}: bucket '${c.bucket}' does not exist (${f.detail})`,
        `Check the bucket name in SVC_MODEL_URI${c.scheme === 's3' ? ', and AWS_REGION / AWS_ENDPOINT_URL_S3 if the bucket lives elsewhere' : ''}.`,
        opts,
      );
    case 'no_object':
      if (c.isManifest) {
        const seen = c.nearby?.folders.length ? `; folders under ${c.nearby.parent}: ${c.nearby.folders.slice(0, 10).join(', ')}` : '';
        return new ModelSourceError(
          `${head}: no manifest.json there (${what} does not exist)`,
          `Point SVC_MODEL_URI at a version folder that holds manifest.json${seen}.`,
          opts,
        );
      }
      return new ModelSourceError(
        `${head}: ${what} is listed in manifest.json but does not exist`,
        'Upload the complete version folder again: every file manifest.json lists, then manifest.json.',
        opts,
      );
    case 'credentials':
      return new ModelSourceError(
        `${head}: no usable ${c.scheme === 's3' ? 'AWS' : 'Google Cloud'} credentials (${f.detail})`,
        CREDENTIALS_FIX[c.scheme],
        opts,
      );
    case 'region':
      return new ModelSourceError(
        `${head}: no AWS region is configured (${f.detail})`,
        'Set AWS_REGION (or `region` in ~/.aws/config for the profile in use).',
        opts,
      );
    case 'denied':
      return new ModelSourceError(`${head}: access to ${what} was denied (${f.detail})`, DENIED_FIX[c.scheme], opts);
    case 'network':
      return new ModelSourceError(
        `${head}: the connection to ${c.endpoint} failed (${f.detail})`,
        `Check network access to the object store${c.endpoint.startsWith('http') ? ` and ${ENDPOINT_VAR[c.scheme]}` : ''}. For an air-gapped install, copy the model folder to local disk and set SVC_MODEL_URI to its path.`,
        opts,
      );
    default:
      return new ModelSourceError(
        `${head}: reading ${what} failed (${f.detail})`,
        'Check that the version folder is complete and readable, then start again.',
        opts,
      );
  }
}

/** Network-level error codes of Node and the HTTP clients (checked on the error and its causes). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'SVC_STALLED',
]);

export function isNetworkError(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown; name?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
    if (e.name === 'TimeoutError') return true;
  }
  return false;
}

export function errorDetail(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown };
  const msg = typeof e?.message === 'string' ? e.message : String(err);
  const short = msg.split('\n')[0].slice(0, 300);
  return typeof e?.code === 'string' && !e.code.startsWith('SVC_') && !short.includes(e.code) ? `${e.code}: ${short}` : short;
}
