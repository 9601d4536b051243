// Opens the object store of a remote model (the ObjectSource of types.ts). The S3 and GCS clients
// are imported on first use only, so a server with a local model never loads them.
import type { ObjectSource, RemoteModel } from './types.js';

export async function openSource(remote: RemoteModel): Promise<ObjectSource> {
  if (remote.scheme === 's3') return (await import('./s3.js')).openS3(remote);
  return (await import('./gcs.js')).openGcs(remote);
}
