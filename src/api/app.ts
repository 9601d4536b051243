// The Express application: request ids, structured request logs (pino), the /v1 router and the one
// error handler that turns every failure into `{error: {type, message, fix}}` from the error table.
// /v1/mcp (MCP tools over streamable HTTP) is mounted beside the router, and GET /metrics (Prometheus,
// behind SVC_METRICS_KEY when set) beside /v1, both outside the OpenAPI document, and the web console's
// files at /console/ (console-route.ts: open, since the page asks for the key); every answered
// request is counted by method, route (res.locals.route: the API path template) and status.
// An error that is not an ApiError is logged with its stack and answered as 500 `internal` naming
// the request id; its details never reach the client. A storage fault (StorageError: the data dir
// is full or cannot be written) is logged with its folder and answered as 507 `storage_full` or 503
// `storage_unavailable`, whose fix names SVC_DATA_DIR; the request wrote nothing.
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { isOutOfEngineMemory } from '../engine/index.js';
import { ApiError } from '../errors.js';
import { StorageError } from '../store/index.js';
import { type AuthOptions, assertMetricsKey } from './auth.js';
import { consoleRouter } from './console-route.js';
import type { Services } from './context.js';
import { mcpRouter } from './mcp-route.js';
import { OPERATIONS } from './openapi.js';
import { RateLimiter } from './rate-limit.js';
import { buildRouter, createInvoker } from './router.js';
import { compileValidators } from './validate.js';

export interface AppOptions {
  services: Services;
  auth: AuthOptions;
  logger: Logger;
  /** Requests per second per project (default 100, the spec's limit). */
  rateLimit?: number;
  /** Whether /v1/mcp offers the writing tools (SVC_MCP_WRITES=1). */
  mcpWrites?: boolean;
  /** The bearer token GET /metrics requires (SVC_METRICS_KEY); unset: open. */
  metricsKey?: string;
}

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

/** Maps errors thrown by the engine, Express or Node to the table; undefined when unexpected. */
function classify(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  const e = err as { name?: string; status?: number; message?: string };
  if (err instanceof StorageError) {
    const what =
      err.fault === 'full'
        ? `the file system holding the data dir (SVC_DATA_DIR) is full (${err.code})`
        : `the data dir (SVC_DATA_DIR) cannot be written (${err.code})`;
    return new ApiError(err.fault === 'full' ? 'storage_full' : 'storage_unavailable', `${what}; nothing of this request was written`);
  }
  if (isOutOfEngineMemory(err)) {
    return new ApiError('engine_memory_full', "the engine's memory cannot hold the store's index with this request's documents");
  }
  if (e?.name === 'PoolBusyError') {
    return new ApiError('service_unavailable', 'the search workers are saturated', { headers: { 'Retry-After': '1' } });
  }
  if (e instanceof URIError || (e?.status === 400 && typeof e.message === 'string' && /decode/i.test(e.message))) {
    return new ApiError('invalid_request', 'the request path is not valid percent-encoding', {
      fix: 'Percent-encode path segments as UTF-8 (encodeURIComponent).',
    });
  }
  return undefined;
}

export function createApp(opts: AppOptions): express.Express {
  const { logger } = opts;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');

  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID_RE.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    const started = performance.now();
    res.on('finish', () => {
      const labels = { method: req.method, route: res.locals.route ?? 'unmatched', status: String(res.statusCode) };
      opts.services.metrics?.requests.inc(labels);
      opts.services.metrics?.requestSeconds.observe(labels, (performance.now() - started) / 1000);
      logger.info(
        {
          req_id: id,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          project: res.locals.project,
        },
        'request',
      );
    });
    next();
  });

  const metrics = opts.services.metrics;
  if (metrics) {
    app.get('/metrics', async (req: Request, res: Response, next: NextFunction) => {
      res.locals.route = '/metrics';
      try {
        if (opts.metricsKey) assertMetricsKey(req.headers, opts.metricsKey);
        res.setHeader('Content-Type', metrics.registry.contentType);
        res.end(await metrics.registry.metrics());
      } catch (err) {
        next(err);
      }
    });
  }

  const limiter = new RateLimiter(opts.rateLimit ?? 100, undefined, () => opts.services.cluster?.usage);
  const validators = compileValidators(opts.services.openapi, OPERATIONS);
  const invoke = createInvoker(opts.services, limiter, validators);
  app.use('/v1', mcpRouter({ services: opts.services, auth: opts.auth, limiter, invoke, allowWrites: opts.mcpWrites ?? false }));
  app.use('/v1', buildRouter({ services: opts.services, auth: opts.auth, limiter, validators }));
  app.use(consoleRouter());
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(
      new ApiError('route_not_found', `no endpoint ${req.method} ${req.path}`, {
        fix: 'The API is under /v1; every endpoint is listed in GET /v1/openapi.json.',
      }),
    );
  });

  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    let apiErr = classify(err);
    if (err instanceof StorageError)
      logger.error({ req_id: res.locals.requestId, dir: err.dir, code: err.code, fault: err.fault }, err.message);
    if (!apiErr) {
      logger.error({ req_id: res.locals.requestId, err }, 'unexpected error');
      apiErr = new ApiError('internal', `unexpected server error (request id ${res.locals.requestId})`);
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [k, v] of Object.entries(apiErr.headers)) res.setHeader(k, v);
    res.status(apiErr.status).json(apiErr.body());
  });
  return app;
}
