// Test helpers: a real server on port 0 over a temp data dir, and a small HTTP client whose errors
// carry `status` and `type` so tests can write `t.rejects(api.get(...), {status: 404, type: ...})`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Logger, pino } from 'pino';
import { type RunningServer, startServer } from '../../src/api/server.js';
import { loadConfig, PACKAGE_ROOT } from '../../src/config.js';

export const REPO = PACKAGE_ROOT;
export const SHARED = path.resolve(REPO, '..', 'shared');

/** The first `limit` records of a JSON-lines file of a shared bench suite (../shared/bench/<suite>/<file>). */
export function benchRecords<T>(suite: string, file: 'corpus.jsonl' | 'queries.jsonl', limit = Number.POSITIVE_INFINITY): T[] {
  return fs
    .readFileSync(path.join(SHARED, 'bench', suite, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, limit)
    .map((l) => JSON.parse(l) as T);
}

export function tempDir(t: { teardown(fn: () => void): void }, prefix = 'svc-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string | undefined,
    readonly body: any,
    readonly headers: Headers,
  ) {
    super(`HTTP ${status} ${type ?? ''}: ${body?.error?.message ?? ''}`);
  }
}

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

export class Api {
  constructor(
    readonly base: string,
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  with(headers: Record<string, string>): Api {
    return new Api(this.base, { ...this.defaultHeaders, ...headers });
  }

  /** Any status; never throws on HTTP errors. */
  async raw(method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const init: RequestInit = { method, headers: { ...this.defaultHeaders, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.base + p, init);
    const text = await res.text();
    let parsed: unknown;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  /** Resolves with the body on 2xx; rejects with HttpError otherwise. */
  async call(method: string, p: string, body?: unknown, headers?: Record<string, string>): Promise<any> {
    const r = await this.raw(method, p, body, headers);
    if (r.status >= 400) throw new HttpError(r.status, r.body?.error?.type, r.body, r.headers);
    return r.body;
  }

  get = (p: string, headers?: Record<string, string>) => this.call('GET', p, undefined, headers);
  post = (p: string, body: unknown, headers?: Record<string, string>) => this.call('POST', p, body, headers);
  delete = (p: string, headers?: Record<string, string>) => this.call('DELETE', p, undefined, headers);
  patch = (p: string, body: unknown, headers?: Record<string, string>) => this.call('PATCH', p, body, headers);
}

export interface TestServer {
  server: RunningServer;
  api: Api;
  /** Stops the server now (teardown then does nothing). */
  close(): Promise<void>;
  dataDir: string;
  restart(): Promise<TestServer>;
}

export interface TestServerOptions {
  dataDir?: string;
  noAuth?: boolean;
  env?: Record<string, string>;
  threads?: number;
  rateLimit?: number;
  maxQueue?: number;
  /** Where the server logs (default: nowhere). */
  logger?: Logger;
}

/** A logger that keeps every line it is given (level info and up), parsed. */
export function logCapture(): { logger: Logger; lines: Array<Record<string, any>> } {
  const lines: Array<Record<string, any>> = [];
  return { lines, logger: pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) }) };
}

/** Starts a real server on port 0; stopped at teardown. */
export async function startTestServer(t: { teardown(fn: () => unknown): void }, opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir(t);
  const config = loadConfig({ SVC_DATA_DIR: dataDir, SVC_LOG: 'silent', ...opts.env });
  const server = await startServer({
    config,
    port: 0,
    host: '127.0.0.1',
    noAuth: opts.noAuth ?? true,
    threads: opts.threads ?? 2,
    rateLimit: opts.rateLimit,
    maxQueue: opts.maxQueue,
    logger: opts.logger ?? pino({ level: 'silent' }),
  });
  let closed = false;
  const close = async () => {
    if (!closed) {
      closed = true;
      await server.close();
    }
  };
  t.teardown(close);
  return {
    server,
    api: new Api(server.url),
    dataDir,
    close,
    async restart() {
      await close();
      return startTestServer(t, { ...opts, dataDir });
    },
  };
}
