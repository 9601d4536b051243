// svc as a bench system: a real server started in-process (port 0, temp data dir, the shipped or a
// given model, rate limit lifted), documents ingested whole through POST /documents in batches of
// 1000, searches through POST /search with max_results k and the default (or a fixed) max_hops. Invariants:
// every byte goes through HTTP and JSON exactly as for a user; the engine's `latency_ms` and the
// round trip are both kept; the data dir is removed on close.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { type RunningServer, startServer } from '../src/api/server.js';
import { loadConfig } from '../src/config.js';
import type { Doc } from './bench-util.js';
import { waitSettled } from './eval-server.js';
import type { Hit } from './peer-text.js';

export interface SearchAnswer {
  hits: Hit[];
  /** Time the engine reports (svc) or the call itself (peers), ms. */
  engineMs: number;
  extra?: Record<string, number>;
}

export interface BenchSystem {
  ingest(docs: Doc[]): Promise<void>;
  search(query: string, k: number): Promise<SearchAnswer>;
  /** Figures only the system can tell (index bytes, a helper process's peak RSS). */
  stats(): Record<string, number>;
  close(): Promise<void>;
}

const STORE = 'bench';

export class SvcSystem implements BenchSystem {
  private constructor(
    private readonly server: RunningServer,
    private readonly dataDir: string,
    private readonly maxHops?: number,
  ) {}

  /** `maxHops` sets max_hops on every search (default: the API's default). */
  static async start(opts: { model?: string; threads?: number; maxHops?: number } = {}): Promise<SvcSystem> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
    const env: NodeJS.ProcessEnv = { SVC_DATA_DIR: dataDir, SVC_LOG: 'silent', ...(opts.model ? { SVC_MODEL_URI: opts.model } : {}) };
    const server = await startServer({
      config: loadConfig(env),
      port: 0,
      host: '127.0.0.1',
      noAuth: true,
      rateLimit: 1e9,
      threads: opts.threads,
      logger: pino({ level: 'silent' }),
    });
    const sys = new SvcSystem(server, dataDir, opts.maxHops);
    await sys.call('POST', '/stores', { name: STORE });
    return sys;
  }

  /** The server's API root (…/v1). */
  get url(): string {
    return this.server.url;
  }

  async call(method: string, p: string, body?: unknown): Promise<any> {
    const res = await fetch(this.server.url + p, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = res.status === 204 ? undefined : await res.json();
    if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  async ingest(docs: Doc[], batch = 1000, onBatch?: (done: number) => void): Promise<void> {
    for (let i = 0; i < docs.length; i += batch) {
      const documents = docs.slice(i, i + batch).map((d) => ({ id: d.id, text: d.text, metadata: d.metadata ?? {} }));
      await this.call('POST', `/stores/${STORE}/documents`, { documents });
      onBatch?.(Math.min(i + batch, docs.length));
    }
  }

  /** Waits until background segment merges (the idle merge after the last write included) have finished. */
  settle(): Promise<number> {
    return waitSettled(this.index());
  }

  private index(): { passageCount: number; memoryBytes: number; segmentCount?: number } | undefined {
    try {
      return this.server.services.registry.entry('default', STORE).open?.index;
    } catch {
      return undefined;
    }
  }

  /** `filter`: the request's metadata filter (bench/filter.ts). */
  async search(query: string, k: number, maxHops = this.maxHops, filter?: unknown): Promise<SearchAnswer> {
    const r = await this.call('POST', `/stores/${STORE}/search`, {
      query,
      max_results: k,
      ...(maxHops ? { max_hops: maxHops } : {}),
      ...(filter ? { filter } : {}),
    });
    const hits = (r.passages as Array<{ doc_id: string; text: string }>).map((p) => ({ docId: p.doc_id, text: p.text }));
    return { hits, engineMs: r.latency_ms as number, extra: { hops: r.hops_used as number, confidence: r.confidence as number } };
  }

  stats(): Record<string, number> {
    const index = this.index();
    const wasm = (
      this.server.services.engine as unknown as { ctx: { heap: { stats(): { capacity: number; bytesInUse: number } } } }
    ).ctx.heap.stats();
    return {
      passages: index?.passageCount ?? 0,
      indexBytes: index?.memoryBytes ?? 0,
      segments: index?.segmentCount ?? 0,
      dataDirBytes: duBytes(this.dataDir),
      rssBytes: process.memoryUsage().rss,
      wasmBytes: wasm.capacity,
      wasmUsedBytes: wasm.bytesInUse,
    };
  }

  async close(): Promise<void> {
    await this.server.close();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** Bytes of the files under a folder (LMDB files are preallocated sparse: count allocated blocks). */
export function duBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) n += fs.statSync(path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).blocks * 512;
  }
  return n;
}
