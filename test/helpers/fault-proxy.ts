// A fault-injecting HTTP proxy in front of a real server. For each request a rule (settable per
// test, possibly async so a test can hold a request until it chooses) decides: pass it through,
// answer in the proxy's place (e.g. 429 with Retry-After, 503), drop the connection before
// forwarding, forward and then drop the connection instead of replying (the server applied it, the
// client never hears), or never answer. Every request is logged with what the server said.
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | { kind: 'pass' }
  | { kind: 'respond'; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: 'drop' }
  | { kind: 'drop-after' }
  | { kind: 'hang' };

export interface ProxiedRequest {
  /** 1-based arrival number. */
  n: number;
  method: string;
  /** Path after the /v1 prefix, with the query string. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface LogEntry {
  n: number;
  method: string;
  path: string;
  key?: string;
  fault: Fault['kind'];
  /** The upstream server's status, when the request was forwarded. */
  upstream?: number;
  /** The upstream answered from its idempotency record (Idempotent-Replayed: true). */
  replayed?: boolean;
  bodyBytes: number;
  body: Buffer;
}

export type Rule = (req: ProxiedRequest) => Fault | Promise<Fault>;

export const PASS: Fault = { kind: 'pass' };

export class FaultProxy {
  readonly log: LogEntry[] = [];
  rule: Rule = () => PASS;
  inFlight = 0;
  maxInFlight = 0;
  private n = 0;

  private constructor(
    private readonly server: http.Server,
    private readonly upstream: URL,
    readonly url: string,
  ) {}

  static async start(t: { teardown(fn: () => unknown): void }, upstreamBaseUrl: string): Promise<FaultProxy> {
    let proxy!: FaultProxy;
    const server = http.createServer((req, res) => void proxy.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    proxy = new FaultProxy(server, new URL(upstreamBaseUrl), `http://127.0.0.1:${port}/v1`);
    t.teardown(() => proxy.close());
    return proxy;
  }

  /** Log entries of one operation, e.g. entries('POST', /\/documents$/). */
  entries(method: string, path: RegExp): LogEntry[] {
    return this.log.filter((e) => e.method === method && path.test(e.path));
  }

  reset(rule: Rule = () => PASS): void {
    this.log.length = 0;
    this.rule = rule;
    this.maxInFlight = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const n = ++this.n;
    const path = (req.url ?? '/').replace(/^\/v1/, '');
    const key = req.headers['idempotency-key'] as string | undefined;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const fault = await this.rule({ n, method: req.method!, path, headers: req.headers, body });
      const entry: LogEntry = { n, method: req.method!, path, key, fault: fault.kind, bodyBytes: body.length, body };
      this.log.push(entry);
      if (fault.kind === 'hang') return;
      if (fault.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault.kind === 'respond') {
        const text = fault.body === undefined ? '' : JSON.stringify(fault.body);
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        res.end(text);
        return;
      }
      const up = await this.forward(req, body);
      entry.upstream = up.status;
      entry.replayed = up.headers['idempotent-replayed'] === 'true';
      if (fault.kind === 'drop-after') {
        req.socket.destroy();
        return;
      }
      const headers = { ...up.headers };
      delete headers['transfer-encoding'];
      delete headers.connection;
      res.writeHead(up.status, headers);
      res.end(up.body);
    } finally {
      this.inFlight--;
    }
  }

  private forward(req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const headers = { ...req.headers, host: this.upstream.host, 'content-length': String(body.length) };
    delete headers.connection;
    return new Promise((resolve, reject) => {
      const up = http.request(
        { host: this.upstream.hostname, port: this.upstream.port, method: req.method, path: req.url, headers },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve({ status: r.statusCode!, headers: r.headers, body: Buffer.concat(chunks) }));
          r.on('error', reject);
        },
      );
      up.on('error', reject);
      up.end(body);
    });
  }
}

export const json429 = (retryAfter = '1'): Fault => ({
  kind: 'respond',
  status: 429,
  headers: { 'retry-after': retryAfter },
  body: {
    error: {
      type: 'rate_limited',
      message: 'injected by the fault proxy',
      fix: 'Retry after the number of seconds in the Retry-After header.',
    },
  },
});

export const json503 = (retryAfter = '1'): Fault => ({
  kind: 'respond',
  status: 503,
  headers: { 'retry-after': retryAfter },
  body: {
    error: {
      type: 'service_unavailable',
      message: 'injected by the fault proxy',
      fix: 'Retry after the number of seconds in the Retry-After header.',
    },
  },
});
