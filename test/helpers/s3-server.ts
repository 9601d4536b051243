// A real S3-compatible server for tests: s3rver (an S3 implementation on the local file system),
// started on a free port with the given buckets, plus an official @aws-sdk/client-s3 client for
// uploading fixtures. `requests` counts every HTTP request the server received.
import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  requests: number;
  put(bucket: string, key: string, body: Uint8Array | string): Promise<void>;
  remove(bucket: string, key: string): Promise<void>;
  /** Uploads every file of a local folder under `prefix` (which ends in '/'), manifest.json last. */
  putFolder(bucket: string, prefix: string, dir: string): Promise<void>;
  stop(): Promise<void>;
}

/** The AWS_* variables the tests run under: s3rver's fixed keys, a region, no IMDS, no ~/.aws files. */
export function s3Env(endpoint: string): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: path.join(os.tmpdir(), 'svc-test-no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(os.tmpdir(), 'svc-test-no-aws-credentials'),
  };
}

export async function startS3(buckets: string[]): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-s3rver-'));
  const s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const { port } = (await s3rver.run()) as { port: number };
  const http = (s3rver as unknown as { httpServer: Server }).httpServer;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  let stopped = false;
  const s: TestS3 = {
    endpoint,
    requests: 0,
    async put(bucket, key, body) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
    async remove(bucket, key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async putFolder(bucket, prefix, dir) {
      const names = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile());
      names.sort((a, b) => Number(a === 'manifest.json') - Number(b === 'manifest.json'));
      for (const name of names) await s.put(bucket, prefix + name.split(path.sep).join('/'), fs.readFileSync(path.join(dir, name)));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      client.destroy();
      http.closeAllConnections();
      await s3rver.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
  http.on('request', () => s.requests++);
  return s;
}
