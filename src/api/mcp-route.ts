// POST /v1/mcp: svc's MCP tools (src/mcp) over the streamable HTTP transport, stateless (one JSON
// reply per request, no session). Behind the same bearer key and project scoping as the REST API,
// every request counted against the project's rate limit. The tools run the REST operations
// in-process (router.ts createInvoker) as the caller's project, so they answer exactly what its REST
// calls would, errors included. The writing tools are offered only with SVC_MCP_WRITES=1. GET and
// DELETE (the transport's event stream and session end) are 405: there are no sessions to resume.
import express, { type NextFunction, type Request, type Response } from 'express';
import type { OperationId, OperationTypes } from '../api-types.js';
import { ApiError } from '../errors.js';
import { handleMcpHttp, type McpBackend } from '../mcp/index.js';
import { type AuthOptions, resolveProject } from './auth.js';
import { BodyTooLargeError, readJsonBody } from './body.js';
import type { Invoke, Services } from './context.js';
import type { RateLimiter } from './rate-limit.js';
import { assertReady } from './router.js';
import { LIMITS } from './schemas.js';

/** Query values as a URL carries them: objects (a filter) as JSON, the rest as strings; undefined dropped. */
function asQuery(q: Record<string, unknown> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) if (v !== undefined) out[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return out;
}

/** The tools' backend for one request: the REST operations run in-process as `project`. */
function backendFor(invoke: Invoke, project: string, requestId: string): McpBackend {
  const call = async <Op extends OperationId>(op: Op, params: Record<string, string>, query?: Record<string, unknown>, body?: unknown) =>
    (await invoke(op, { project, params, query: asQuery(query), body, requestId })).body as OperationTypes[Op]['response'];
  return {
    search: (store, request) => call('search', { store }, undefined, request),
    getDocument: (store, id) => call('getDocument', { store, id }, { include_text: true }),
    listStores: (page) => call('listStores', {}, page),
    listDocuments: (store, page) => call('listDocuments', { store }, page),
    ingest: (store, documents) => call('ingestDocuments', { store }, undefined, { documents }),
    deleteDocument: async (store, id) => {
      await call('deleteDocument', { store, id });
    },
  };
}

export interface McpRouteOptions {
  services: Services;
  auth: AuthOptions;
  limiter: RateLimiter;
  /** The REST operations run in-process (router.ts createInvoker). */
  invoke: Invoke;
  /** Offer the writing tools (SVC_MCP_WRITES=1). */
  allowWrites: boolean;
}

export function mcpRouter({ services, auth, limiter, invoke, allowWrites }: McpRouteOptions): express.Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.post('/mcp', async (req: Request, res: Response, next: NextFunction) => {
    res.locals.route = '/v1/mcp';
    try {
      assertReady(services);
      const project = await resolveProject(req.headers, auth);
      res.locals.project = project;
      limiter.take(project);
      let body: unknown;
      try {
        body = await readJsonBody(req, LIMITS.requestBytes);
      } catch (err) {
        if (!(err instanceof BodyTooLargeError)) throw err;
        res.setHeader('Connection', 'close');
        throw new ApiError('invalid_request', `the MCP request is over ${LIMITS.requestBytes / 1024 / 1024} MB`, {
          fix: 'Send fewer documents per ingest_documents call.',
        });
      }
      await handleMcpHttp(req, res, body, backendFor(invoke, project, res.locals.requestId), { version: services.version, allowWrites });
    } catch (err) {
      next(err);
    }
  });
  router.all('/mcp', (req: Request, _res: Response, next: NextFunction) => {
    next(
      new ApiError('method_not_allowed', `${req.method} is not allowed on /v1/mcp`, {
        fix: 'Send MCP requests with POST; the server keeps no sessions, so there is no event stream to GET or session to DELETE.',
        headers: { Allow: 'POST' },
      }),
    );
  });
  return router;
}
