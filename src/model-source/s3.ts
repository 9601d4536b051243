// Amazon S3 and S3-compatible stores through the official client, configured the standard way:
// region and credentials from the AWS_* variables and ~/.aws files (or an instance, task or pod
// role); AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL) for another S3-compatible server, which is then
// addressed path-style (bucket in the path), the one style every compatible server accepts.
import type { Readable } from 'node:stream';
import { errorDetail, isNetworkError } from './source-error.js';
import type { Failure, ObjectSource, RemoteModel } from './types.js';

const DENIED = new Set([
  'AccessDenied',
  'Forbidden',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'ExpiredToken',
  'InvalidToken',
  'AllAccessDisabled',
]);

export async function openS3(remote: RemoteModel): Promise<ObjectSource> {
  const sdk = await import('@aws-sdk/client-s3');
  const endpoint = process.env.AWS_ENDPOINT_URL_S3 || process.env.AWS_ENDPOINT_URL;
  const client = new sdk.S3Client(endpoint ? { forcePathStyle: true } : {});
  return {
    endpoint: endpoint ?? 'Amazon S3',
    async read(key) {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: remote.bucket, Key: key }));
      return out.Body as Readable;
    },
    async listFolders(prefix) {
      const out = await client.send(new sdk.ListObjectsV2Command({ Bucket: remote.bucket, Prefix: prefix, Delimiter: '/', MaxKeys: 100 }));
      return (out.CommonPrefixes ?? []).map((p) => (p.Prefix ?? '').slice(prefix.length)).filter(Boolean);
    },
    classify,
    close: () => client.destroy(),
  };
}

function classify(err: unknown): Failure {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  const detail = errorDetail(err);
  if (e?.name === 'CredentialsProviderError') return { kind: 'credentials', detail };
  if (/region is missing/i.test(e?.message ?? '')) return { kind: 'region', detail };
  if (e?.name === 'NoSuchBucket') return { kind: 'no_bucket', detail };
  if (e?.name === 'NoSuchKey' || (status === 404 && e?.name === 'NotFound')) return { kind: 'no_object', detail };
  if (DENIED.has(e?.name ?? '') || status === 403 || status === 401) return { kind: 'denied', detail };
  if (isNetworkError(err)) return { kind: 'network', detail };
  return { kind: 'other', detail };
}
