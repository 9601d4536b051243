// A minimal Google Cloud Storage JSON-API server for tests, reached by @google-cloud/storage through
// STORAGE_EMULATOR_HOST. No emulator is installable from npm (Google ships none; fake-gcs-server is a
// Go binary), so this implements only the routes the client uses to read a model folder:
//   GET [/storage/v1|/download/storage/v1]/b/<bucket>/o?prefix=&delimiter=   list objects
//   GET [/storage/v1|/download/storage/v1]/b/<bucket>/o/<object>[?alt=media]  metadata or bytes
// with GCS's error bodies (404 "No such object" / "The specified bucket does not exist.") and its
// x-goog-hash header (crc32c, md5), so the client's own download validation runs as against GCS.
// `cut` makes the next download of an object stop after some bytes (a network failure mid-file);
// a bucket in `private` answers anonymous requests 401, as GCS does without credentials.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CRC32C } from '@google-cloud/storage';

export class GcsEmulator {
  readonly buckets = new Map<string, Map<string, Buffer>>();
  /** Every request path seen, in order. */
  readonly requests: string[] = [];
  /** Object names whose next download is cut after `bytes` bytes (one shot each). */
  readonly cut = new Map<string, number>();
  /** Buckets that refuse requests without an Authorization header. */
  readonly private = new Set<string>();
  private server?: http.Server;
  private sockets = new Set<import('node:net').Socket>();
  port = 0;

  get host(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  put(bucket: string, name: string, data: Uint8Array | string): void {
    let b = this.buckets.get(bucket);
    if (!b) {
      b = new Map();
      this.buckets.set(bucket, b);
    }
    b.set(name, Buffer.from(data));
  }

  /** Stores every file of a local folder under `prefix` (which ends in '/'). */
  putFolder(bucket: string, prefix: string, dir: string): void {
    for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) {
      const full = path.join(dir, f);
      if (fs.statSync(full).isFile()) this.put(bucket, prefix + f.split(path.sep).join('/'), fs.readFileSync(full));
    }
  }

  async start(port = 0): Promise<this> {
    const server = http.createServer((req, res) => this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    this.requests.push(url.pathname + url.search);
    const m = /^(?:\/download)?(?:\/storage\/v1)?\/b\/([^/]+)\/o(?:\/(.+))?$/.exec(url.pathname);
    if (req.method !== 'GET' || !m) {
      this.error(res, 404, 'Not Found');
      return;
    }
    const bucket = this.buckets.get(decodeURIComponent(m[1]));
    if (!bucket) {
      this.error(res, 404, 'The specified bucket does not exist.');
      return;
    }
    if (this.private.has(decodeURIComponent(m[1])) && !req.headers.authorization) {
      this.error(res, 401, 'Anonymous caller does not have storage.objects.get access to the Google Cloud Storage object.');
      return;
    }
    if (m[2] === undefined) {
      this.list(res, m[1], bucket, url.searchParams);
      return;
    }
    const name = decodeURIComponent(m[2]);
    const data = bucket.get(name);
    if (!data) {
      this.error(res, 404, `No such object: ${m[1]}/${name}`);
      return;
    }
    if (url.searchParams.get('alt') !== 'media') {
      this.json(res, 200, this.meta(m[1], name, data));
      return;
    }
    const crc = new CRC32C();
    crc.update(data);
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': data.length,
      'x-goog-hash': `crc32c=${crc.toString()},md5=${createHash('md5').update(data).digest('base64')}`,
      'x-goog-stored-content-encoding': 'identity',
      'x-goog-generation': '1',
    });
    const cutAt = this.cut.get(name);
    if (cutAt === undefined) return void res.end(data);
    this.cut.delete(name);
    res.write(data.subarray(0, cutAt), () => res.socket?.destroy());
  }

  private list(res: http.ServerResponse, bucketName: string, bucket: Map<string, Buffer>, q: URLSearchParams): void {
    const prefix = q.get('prefix') ?? '';
    const delimiter = q.get('delimiter') ?? '';
    const items: unknown[] = [];
    const prefixes = new Set<string>();
    for (const [name, data] of [...bucket].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!name.startsWith(prefix)) continue;
      const cut = delimiter ? name.indexOf(delimiter, prefix.length) : -1;
      if (cut >= 0) prefixes.add(name.slice(0, cut + delimiter.length));
      else items.push(this.meta(bucketName, name, data));
    }
    this.json(res, 200, { kind: 'storage#objects', items, prefixes: [...prefixes] });
  }

  private meta(bucket: string, name: string, data: Buffer): Record<string, unknown> {
    return {
      kind: 'storage#object',
      bucket,
      name,
      size: String(data.length),
      generation: '1',
      md5Hash: createHash('md5').update(data).digest('base64'),
    };
  }

  private json(res: http.ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  private error(res: http.ServerResponse, status: number, message: string): void {
    this.json(res, status, {
      error: {
        code: status,
        message,
        errors: [{ message, domain: 'global', reason: status === 404 ? 'notFound' : status === 401 ? 'required' : 'invalid' }],
      },
    });
  }
}
