// What the downloader needs from an object store: read one object as a stream, list the folders
// under a prefix (only to suggest a version folder when the manifest is missing), and classify the
// client's errors. The S3 and GCS clients are imported on first use only, so a server with a local
// model never loads them.
import type { Readable } from 'node:stream';
import type { RemoteModel } from './model-uri.js';
import type { Failure } from './source-error.js';

export interface ObjectSource {
  /** Where requests go, for messages: the endpoint URL, or the name of the cloud service. */
  readonly endpoint: string;
  /** The object's bytes. A failure may reject here or surface later as an error of the stream. */
  read(key: string): Promise<Readable>;
  /** Names (ending in '/') of the folders directly under `prefix`. */
  listFolders(prefix: string): Promise<string[]>;
  classify(err: unknown): Failure;
  close(): void;
}

export async function openSource(remote: RemoteModel): Promise<ObjectSource> {
  if (remote.scheme === 's3') return (await import('./s3.js')).openS3(remote);
  return (await import('./gcs.js')).openGcs(remote);
}
