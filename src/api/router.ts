// Mounts exactly the operations of the OpenAPI document. Per request, in order: readiness (503
// until loaded), auth (project), rate limit (per project), declared headers, query (coerced,
// defaults applied), JSON body (size-capped, validated), the lease of the store the operation works
// on (opening it; released once the response is written), then the handler; in a cluster
// (services.cluster) the cluster's `route` comes before the lease and may answer instead (a write
// goes through the replicated log, a read to a node holding the store). A known path with
// another method is 405 with Allow; anything else under /v1 (a trailing slash included) is 404
// `route_not_found`, which every operation documents.
import type { IncomingHttpHeaders } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { OperationId } from '../api-types.js';
import { ApiError } from '../errors.js';
import { type AuthOptions, resolveProject } from './auth.js';
import { BodyTooLargeError, readJsonBody } from './body.js';
import type { Ctx, Handler, Invoke, InvokeRequest, Reply, Services } from './context.js';
import * as documents from './handlers-documents.js';
import * as edits from './handlers-edits.js';
import * as searchHandlers from './handlers-search.js';
import * as stores from './handlers-stores.js';
import { OPERATIONS, type Operation } from './openapi.js';
import type { RateLimiter } from './rate-limit.js';
import { LIMITS } from './schemas.js';
import type { Lease } from './store-registry.js';
import type { OperationValidator } from './validate.js';

/** Validators by operation id. */
type Validators = ReadonlyMap<string, OperationValidator>;

/** One handler per operation of the document, each typed by its operation's generated types. */
const HANDLERS: { [Op in OperationId]: Handler<Op> } = {
  createStore: stores.createStore,
  listStores: stores.listStores,
  getStore: stores.getStore,
  deleteStore: stores.deleteStore,
  compactStore: stores.compactStore,
  ingestDocuments: documents.ingestDocuments,
  listDocuments: documents.listDocuments,
  getDocument: documents.getDocument,
  exportDocuments: documents.exportDocuments,
  deleteDocument: documents.deleteDocument,
  patchDocument: edits.patchDocument,
  deleteDocuments: edits.deleteDocuments,
  search: searchHandlers.search,
  searchBatch: searchHandlers.searchBatch,
  health: searchHandlers.health,
  livez: searchHandlers.livez,
  openapi: searchHandlers.openapi,
};

const isOperationId = (id: string): id is OperationId => Object.hasOwn(HANDLERS, id);

/** A request as the router has it, before it is seen as its operation's types. */
interface RouteRequest {
  project: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: IncomingHttpHeaders;
  requestId: string;
  services: Services;
}

/**
 * The handler of `op` as the router calls it. Every part of the request has been validated against
 * the operation's schemas in the OpenAPI document that src/api-types.ts is generated from (and
 * test/client-types.test.ts keeps the two equal): this assertion is where that check becomes the
 * handler's types, the one place a request's type is not inferred.
 */
function handlerOf<Op extends OperationId>(op: Op): (req: RouteRequest) => Promise<Reply<Op>> | Reply<Op> {
  const handler: Handler<Op> = HANDLERS[op];
  return (req) => handler(req as unknown as Ctx<Op>);
}

/** Throws 503 `service_unavailable` (retry in a second) unless the server has loaded and is not shutting down. */
export function assertReady(services: Services): void {
  if (services.state === 'ok') return;
  throw new ApiError(
    'service_unavailable',
    services.state === 'starting' ? 'the server is still loading its stores' : 'the server is shutting down',
    {
      headers: { 'Retry-After': '1' },
    },
  );
}

/**
 * The operations of the document run in-process, as the router runs them after auth: the query and
 * body validated against the same schemas (defaults filled in), an operation's extra rate-limit
 * cost taken (a batch's searches beyond the first), then its handler (or, in a cluster, the
 * cluster's route); errors are thrown as ApiError. `local` (the cluster's own apply and forwarded
 * requests) never routes, and reads a JSON-lines reply into an array while it holds the store.
 */
export function createInvoker(services: Services, limiter: RateLimiter, validators: Validators, { local = false } = {}): Invoke {
  const ops = new Map(OPERATIONS.map((op) => [op.id, op]));
  return async <Op extends OperationId>(id: Op, req: InvokeRequest) => {
    const op = ops.get(id)!;
    const v = validators.get(id)!;
    const query = v.query(req.query ?? {});
    if (op.body) admitBody(op, v, limiter, req.project, req.body);
    const headers = req.headers ?? {};
    if (!local && services.cluster) {
      const routed = await services.cluster.route(id, { ...req, rawQuery: req.query ?? {}, headers });
      if (routed) return routed as Reply<Op>;
    }
    const lease = await leaseFor(op, services, req.project, req.params);
    try {
      const reply = (await handlerOf(id)({ ...req, body: req.body, query, headers, services })) as Reply<Op>;
      // lines are read after the handler returns, while the store may close: read them now, or refuse
      if (reply.lines && local) return { ...reply, lines: [...reply.lines] };
      if (reply.lines) throw new Error(`operation ${id} answers with lines, which the in-process invoker does not carry`);
      return reply;
    } finally {
      lease?.release();
    }
  };
}

/** Operations on a store that read only its catalog entry, and so open nothing. */
const CATALOG_ONLY = new Set<string>(['getStore', 'deleteStore']);

/** The lease of the store an operation works on (opening it), or undefined for operations on none. */
async function leaseFor(op: Operation, services: Services, project: string, params: Record<string, string>): Promise<Lease | undefined> {
  if (!op.path.includes('{store}') || CATALOG_ONLY.has(op.id)) return undefined;
  return services.registry.acquire(project, params.store);
}

/** A read body checked against its schema (defaults filled in), then the operation's extra rate-limit tokens taken (its own was taken before the body was read). */
function admitBody(op: Operation, v: OperationValidator, limiter: RateLimiter, project: string, body: unknown): void {
  v.body!(body);
  if (!op.cost || !op.auth) return;
  const cost = op.cost(body);
  limiter.take(project, cost - 1, cost);
}

/** Bytes of JSON lines gathered before one write. */
const LINES_CHUNK = 64 * 1024;

/**
 * Writes `lines` as JSON lines, a chunk at a time, waiting for the socket to drain; stops (and
 * returns the iterator, releasing what it holds) when the client goes away.
 */
async function writeLines(res: Response, lines: Iterable<unknown>): Promise<void> {
  res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
  const it = lines[Symbol.iterator]();
  try {
    let chunk = '';
    for (let r = it.next(); !r.done; r = it.next()) {
      chunk += `${JSON.stringify(r.value)}\n`;
      if (chunk.length < LINES_CHUNK) continue;
      if (!res.write(chunk)) await drainedOrClosed(res);
      chunk = '';
      if (res.destroyed) return;
    }
    res.end(chunk);
  } finally {
    it.return?.();
  }
}

/** Resolves when `res` can take more, or is closed; leaves no listener behind (a long stream waits many times). */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** Body caps: ingest takes 32 MB (read up to 64 MB to name what was too large); the rest 64 KB. */
const SMALL_BODY = 64 * 1024;

function expressPath(p: string): string {
  return p.replace(/\{(\w+)\}/g, ':$1');
}

export interface RouterOptions {
  services: Services;
  auth: AuthOptions;
  limiter: RateLimiter;
  /** The document's validators (validate.ts compileValidators), compiled once for the router and the invoker. */
  validators: Validators;
}

export function buildRouter({ services, auth, limiter, validators }: RouterOptions): express.Router {
  // Strict: `/stores/` is not `/stores` (nor `/stores/{store}` with an empty name), it is 404.
  const router = express.Router({ caseSensitive: true, strict: true });
  const methodsByPath = new Map<string, string[]>();

  for (const op of OPERATIONS) {
    const path = expressPath(op.path);
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), op.method.toUpperCase()]);
    const v = validators.get(op.id)!;
    if (!isOperationId(op.id))
      throw new Error(`no handler for operation ${op.id}: regenerate src/api-types.ts (see test/client-types.test.ts)`);
    const opId = op.id;
    const handler = handlerOf(opId);
    const isIngest = op.id === 'ingestDocuments';
    router[op.method](path, async (req: Request, res: Response, next: NextFunction) => {
      res.locals.route = `/v1${op.path}`;
      let lease: Lease | undefined;
      try {
        if (op.auth) assertReady(services);
        const project = op.auth ? await resolveProject(req.headers, auth) : auth.defaultProject;
        res.locals.project = project;
        if (op.auth) limiter.take(project);
        v.headers(req.headers);
        const query = v.query(req.query as Record<string, unknown>);
        let body: unknown;
        if (op.body) {
          try {
            body = await readJsonBody(req, isIngest ? LIMITS.requestBytes : SMALL_BODY, isIngest ? 2 * LIMITS.requestBytes : SMALL_BODY);
          } catch (err) {
            if (!(err instanceof BodyTooLargeError)) throw err;
            // Past the diagnostic cap the rest of the upload is left unread, so the connection cannot
            // carry another request. A body read whole leaves it clean: closing it anyway races a
            // client that reuses it (seen as ECONNRESET on the next request under load).
            if (!err.complete) res.setHeader('Connection', 'close');
            throw isIngest
              ? documents.ingestTooLarge(err)
              : new ApiError('invalid_request', `the request body is over ${SMALL_BODY / 1024} KB`, {
                  fix: 'Send a smaller body; see the limits in /v1/openapi.json.',
                });
          }
          admitBody(op, v, limiter, project, body);
        }
        const params = req.params as Record<string, string>;
        const requestId = res.locals.requestId;
        const routed = await services.cluster?.route(opId, {
          project,
          params,
          rawQuery: req.query as Record<string, unknown>,
          body,
          headers: req.headers,
          requestId,
        });
        if (!routed) lease = await leaseFor(op, services, project, params);
        // a routed reply is the same operation's handler's, run on another node
        const reply =
          (routed as Reply<typeof opId> | undefined) ??
          (await handler({ project, params, query, body, headers: req.headers, requestId, services }));
        for (const [k, val] of Object.entries(reply.headers ?? {})) res.setHeader(k, val);
        if (reply.lines) await writeLines(res.status(reply.status), reply.lines);
        else if (reply.body === undefined) res.status(reply.status).end();
        else res.status(reply.status).json(reply.body);
      } catch (err) {
        next(err);
      } finally {
        lease?.release();
      }
    });
  }

  for (const [path, methods] of methodsByPath) {
    router.all(path, (req: Request, _res: Response, next: NextFunction) => {
      const allow = methods.join(', ');
      next(
        new ApiError('method_not_allowed', `${req.method} is not allowed on ${req.baseUrl}${req.path}`, {
          fix: `Use ${allow}; see GET /v1/openapi.json.`,
          headers: { Allow: allow },
        }),
      );
    });
  }
  router.all('/{*rest}', (req: Request, _res: Response, next: NextFunction) => {
    const slash = req.path.length > 1 && req.path.endsWith('/');
    next(
      new ApiError('route_not_found', `no endpoint ${req.method} ${req.baseUrl}${req.path}`, {
        fix: slash
          ? `Remove the trailing slash (${req.baseUrl}${req.path.replace(/\/+$/, '')}); a path segment (a store name, a document id) is never empty.`
          : undefined,
      }),
    );
  });
  return router;
}
