// Starts and stops a whole server: data-dir lock, key ring, engine (model), stores, HTTP. The HTTP
// port is open from the start so probes can see `starting`; /v1 endpoints other than health and
// openapi.json answer 503 until every store is loaded and the engine warmed up on them (warm-up.ts).
// With `cluster` (svc serve --cluster) the node joins its cluster after loading its stores and
// before warming up, so it answers only once it has caught up with the stores placed on it.
// `close()` stops accepting, waits for requests in flight, leaves the cluster, closes every store
// durably and releases the lock.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { type Logger, pino } from 'pino';
import { loadReader, rerankParams } from '../answer/index.js';
import { type Config, VERSION } from '../config.js';
import type { Engine } from '../engine/index.js';
import { loadEngine, loadModelFolder } from '../engine/index.js';
import { ApiError } from '../errors.js';
import { resolveModel } from '../model-source/index.js';
import { KeyRing, lockDataDir } from '../store/index.js';
import { createApp } from './app.js';
import type { ClusterStarter, Services } from './context.js';
import { createEnrichment } from './enrichment.js';
import { FairGate } from './fair-gate.js';
import { pruneIdempotency } from './handlers-documents.js';
import { ServerMetrics } from './metrics.js';
import { buildOpenApi, OPERATIONS } from './openapi.js';
import { RateLimiter } from './rate-limit.js';
import { createInvoker } from './router.js';
import { StoreRegistry } from './store-registry.js';
import { compileValidators } from './validate.js';
import { warmUp } from './warm-up.js';

export interface ServerOptions {
  config: Config;
  port: number;
  host?: string;
  noAuth: boolean;
  logger?: Logger;
  /** Worker threads of the engine (default: SVC_THREADS, else available cores). */
  threads?: number;
  /** Engine tasks that may wait for a worker before requests get 503 (default: the pool's, 16 per thread). */
  maxQueue?: number;
  rateLimit?: number;
  /** Joins a cluster once the stores are loaded (src/cluster via `svc serve --cluster`); absent: a single node. */
  cluster?: ClusterStarter;
}

export interface RunningServer {
  url: string;
  port: number;
  services: Services;
  close(): Promise<void>;
}

function clientErrorBody(err: NodeJS.ErrnoException): string {
  const e =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('headers_too_large', 'the request headers exceed 16 KB')
      : new ApiError('invalid_request', `the request is not valid HTTP (${err.code ?? 'parse error'})`, {
          fix: 'Send a well-formed HTTP/1.1 request.',
        });
  const body = JSON.stringify(e.body());
  return `HTTP/1.1 ${e.status} ${http.STATUS_CODES[e.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** How long an idle keep-alive connection stays open (announced in the Keep-Alive header). */
export const KEEP_ALIVE_MS = 65_000;

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { config } = opts;
  const logger = opts.logger ?? pino({ level: config.logLevel });
  const lock = lockDataDir(config.dataDir);
  let engine: Engine | undefined;
  let server: http.Server | undefined;
  try {
    const keys = new KeyRing(config.dataDir);
    // Model distribution: a remote SVC_MODEL_URI is fetched into (or verified in) SVC_MODEL_CACHE first.
    const modelLog = {
      info: (msg: string, f?: object) => logger.info(f ?? {}, msg),
      warn: (msg: string, f?: object) => logger.warn(f ?? {}, msg),
    };
    const modelDir = await resolveModel(config.modelUri, config.modelCache, modelLog);
    // Read and verified once; the engine places its tables and the answerer takes its reader from it.
    const model = loadModelFolder(modelDir);
    const threads = opts.threads ?? config.threads ?? availableParallelism();
    engine = await loadEngine({
      model,
      threads,
      maxQueue: opts.maxQueue,
      memoryBytes: config.engineMemoryBytes,
      relocateMinBytes: config.engineRelocateBytes,
      discard: config.engineDiscard,
      hugePages: config.engineHugePages,
    });
    const { givesBack, hugePages } = engine.memory;
    logger.info({ threads, model: engine.model, encoder: engine.encoder, memory: givesBack, hugePages }, 'engine started');
    const registry = new StoreRegistry(config.dataDir, engine, (msg, fields) => logger.info(fields ?? {}, msg));
    // Answers and enrichment: the native reader from the model folder, or the SVC_ENRICH_* endpoint.
    // The native reader also re-orders the head of one-hop results when the model has params.rerank.
    const native = loadReader(model);
    const enrichment = createEnrichment(config.enrich, native);
    const rr = rerankParams(model);
    const rerank = native.reader && rr.params ? { reader: native.reader, params: rr.params } : undefined;
    const ordering = rerank
      ? `one-hop results re-ordered by the reader (first ${rerank.params.n})`
      : `no re-ordering: ${native.problem ?? rr.problem}`;
    logger.info({}, `${enrichment.answerer.describe()}; ${enrichment.extractor.describe()}; ${ordering}`);
    // Engine work is admitted fairly across projects: two requests per worker thread run at once (one
    // computes while the other's results are resolved), and each project may queue eight per thread.
    const gate = new FairGate(2 * threads, 8 * threads);
    const services: Services = {
      version: VERSION,
      engine,
      registry,
      keys,
      state: 'starting',
      openapi: buildOpenApi(VERSION),
      enrichment,
      rerank,
      gate,
      metrics: new ServerMetrics(engine, registry),
    };
    const app = createApp({
      services,
      logger,
      rateLimit: opts.rateLimit,
      mcpWrites: config.mcpWrites,
      metricsKey: config.metricsKey,
      // in a cluster the keys are the cluster's (and then this data dir's), read through services.cluster
      auth: {
        noAuth: opts.noAuth,
        defaultProject: config.project,
        keys: {
          verify: (t) => (services.cluster ?? keys).verify(t),
          lookup: async (t) => (await services.cluster?.lookup?.(t)) ?? null,
        },
      },
    });
    // requireHostHeader off: a request without Host is answered by the API (JSON from the error table), not by Node's bare 400.
    server = http.createServer({ maxHeaderSize: 16 * 1024, requestTimeout: 300_000, requireHostHeader: false }, app);
    // Idle keep-alive connections stay open 65 s (Node's default is 5 s): a client slow to send its
    // next request on a connection the server was just closing got ECONNRESET. Four copies of
    // test/api-documents.test.ts run in parallel: a reset in 5 of 8 runs at 5 s, in none of 8 at 65 s.
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
      if (socket.writable) socket.end(clientErrorBody(err));
      else socket.destroy();
    });
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
    });
    await registry.loadAll();
    if (opts.cluster) {
      const invokeLocal = createInvoker(
        services,
        new RateLimiter(Number.POSITIVE_INFINITY),
        compileValidators(services.openapi, OPERATIONS),
        {
          local: true,
        },
      );
      services.cluster = await opts.cluster({ services, invokeLocal, logger, dataDir: config.dataDir });
    }
    // A restarted server answers its first searches at steady-state latency (warm-up.ts).
    try {
      const warmed = await warmUp(services, threads);
      if (warmed.searches) logger.info(warmed, 'engine warmed up');
    } catch (err) {
      logger.warn({ err }, 'warm-up failed; the first searches may be slow');
    }
    services.state = 'ok';
    registry.maintenance.start(config.storeIdleS, config.snapshotQuietS, (err) =>
      logger.error({ err }, 'store maintenance (idle close, snapshot, compaction) failed'),
    );
    const prune = setInterval(
      () => void registry.eachOpen(pruneIdempotency).catch((err) => logger.error({ err }, 'idempotency pruning failed')),
      3600_000,
    );
    prune.unref();

    const port = (listening.address() as AddressInfo).port;
    const host = opts.host && opts.host !== '0.0.0.0' ? opts.host : '127.0.0.1';
    let closing: Promise<void> | undefined;
    const loaded = engine;
    return {
      url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1`,
      port,
      services,
      close() {
        closing ??= (async () => {
          services.state = 'stopping';
          clearInterval(prune);
          await new Promise<void>((resolve) => {
            listening.close(() => resolve());
            listening.closeIdleConnections();
          });
          await services.cluster?.close();
          await registry.closeAll();
          await loaded.close();
          lock.release();
        })();
        return closing;
      },
    };
  } catch (err) {
    server?.close();
    await engine?.close();
    lock.release();
    throw err;
  }
}
