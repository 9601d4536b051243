// Google Cloud Storage through the official client, configured the standard way: application
// default credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's ADC file, or the attached service
// account); STORAGE_EMULATOR_HOST points it at an emulator. Without credentials the client sends
// anonymous requests (a public bucket works); a 401 then reads as missing credentials.
import { errorDetail, isNetworkError } from './source-error.js';
import type { Failure, ObjectSource, RemoteModel } from './types.js';

export async function openGcs(remote: RemoteModel): Promise<ObjectSource> {
  const { Storage } = await import('@google-cloud/storage');
  const bucket = new Storage().bucket(remote.bucket);
  return {
    endpoint: process.env.STORAGE_EMULATOR_HOST || 'Google Cloud Storage',
    async read(key) {
      return bucket.file(key).createReadStream();
    },
    async listFolders(prefix) {
      const [, , response] = await bucket.getFiles({ prefix, delimiter: '/', autoPaginate: false, maxResults: 100 });
      const prefixes = (response as { prefixes?: string[] } | undefined)?.prefixes ?? [];
      return prefixes.map((p) => p.slice(prefix.length)).filter(Boolean);
    },
    classify,
    close() {},
  };
}

/** The client replaces a failed download's message with the response body (GCS's JSON error). */
function gcsMessage(err: unknown): string {
  const detail = errorDetail(err);
  try {
    const body = JSON.parse((err as Error).message) as { error?: { message?: string } };
    return body.error?.message ?? detail;
  } catch {
    return detail;
  }
}

function classify(err: unknown): Failure {
  const e = err as { code?: unknown; message?: string };
  const detail = gcsMessage(err);
  if (/could not load the default credentials/i.test(e?.message ?? '')) return { kind: 'credentials', detail };
  if (e?.code === 404) return { kind: /bucket does not exist/i.test(detail) ? 'no_bucket' : 'no_object', detail };
  if (e?.code === 401) return { kind: 'credentials', detail };
  if (e?.code === 403) return { kind: 'denied', detail };
  if (isNetworkError(err)) return { kind: 'network', detail };
  return { kind: 'other', detail };
}
