// What a request handler receives and returns. Handlers are plain functions of a validated request
// (project resolved by auth, defaults applied by validation); the router adapts them to Express.
//
// Typed by operation: a `Handler<'search'>` gets a `Ctx<'search'>` whose params, query, body and
// declared headers are the types generated from the OpenAPI document (src/api-types.ts, whose
// OperationTypes names each operation's parts) and returns a `Reply<'search'>` whose body must be
// the operation's response type. The router validates every part against the same document before
// the handler runs (validate.ts), which is what makes these types true. Validation also fills in
// every field whose schema has a `default` (Ajv useDefaults): the generator lists those fields per
// operation (`defaults`, the query parameters and the body's top-level properties), and
// `WithDefaults` makes exactly them required. That mapped type over the generated names was chosen
// over a second, server-side copy of every generated type: it adds two lines to the generated
// module instead of a variant of each schema, and it is sound, since it claims presence only for
// fields that validation always fills in (a default nested deeper would stay optional).
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import type { NativeReader } from '../answer/index.js';
import type { OperationId, OperationTypes } from '../api-types.js';
import type { Engine, RerankParams } from '../engine/index.js';
import type { KeyRing } from '../store/index.js';
import type { ClusterHooks } from './cluster-hooks.js';
import type { Enrichment } from './enrichment.js';
import type { FairGate } from './fair-gate.js';
import type { ServerMetrics } from './metrics.js';
import type { StoreRegistry } from './store-registry.js';

export interface Rerank {
  reader: NativeReader;
  params: RerankParams;
}

export interface Services {
  version: string;
  engine: Engine;
  registry: StoreRegistry;
  keys: KeyRing;
  /** `starting` until the model and stores are loaded, `stopping` once shutdown began. */
  state: 'starting' | 'ok' | 'stopping';
  openapi: Record<string, unknown>;
  /** Answers (search answer=true) and content ingest (images, PDFs). */
  enrichment: Enrichment;
  /** The reader's re-ranking of one-hop results (answer/rerank.ts); absent: the engine's order. */
  rerank?: Rerank;
  /** Fair admission of engine work across projects (fair-gate.ts); absent: none. */
  gate?: FairGate;
  /** The Prometheus metrics searches and ingests report to (metrics.ts); absent: none kept. */
  metrics?: ServerMetrics;
  /** The cluster this node belongs to (`svc serve --cluster`); absent: a single node. */
  cluster?: ClusterHooks;
}

/** `T` with the properties `K` present: validation filled them in from their schema's `default`. */
export type WithDefaults<T, K extends PropertyKey> = T & Required<Pick<T, K & keyof T>>;

type Parts<Op extends OperationId> = OperationTypes[Op];

/** The declared headers of an operation under the lower-case names Node gives them. */
type DeclaredHeaders<H> = string extends keyof H ? unknown : { [K in keyof H as Lowercase<K & string>]: H[K] };

/** The request of operation `Op` once the router has authenticated and validated it. */
export interface Ctx<Op extends OperationId> {
  project: string;
  params: Parts<Op>['path'];
  query: WithDefaults<Parts<Op>['query'], Parts<Op>['defaults']['query']>;
  /** The JSON body; undefined for an operation that takes none. */
  body: [Parts<Op>['body']] extends [never] ? undefined : WithDefaults<Parts<Op>['body'], Parts<Op>['defaults']['body']>;
  headers: IncomingHttpHeaders & DeclaredHeaders<Parts<Op>['headers']>;
  requestId: string;
  services: Services;
}

export interface Reply<Op extends OperationId> {
  status: number;
  /** Serialized as JSON; absent: an empty reply (204). */
  body?: Parts<Op>['response'];
  /** Instead of `body`, for a JSON-lines operation: its lines, written one JSON value per line as they come (returned early if the client goes away). */
  lines?: Iterable<Parts<Op>['response']>;
  headers?: Record<string, string>;
}

export type Handler<Op extends OperationId> = (ctx: Ctx<Op>) => Promise<Reply<Op>> | Reply<Op>;

/** A request for `invoke`: the parts a URL and a body would carry (query values as strings, as in a URL). */
export interface InvokeRequest {
  project: string;
  params: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Declared headers the operation reads (Idempotency-Key), lower-case. */
  headers?: Record<string, string>;
  requestId: string;
}

/** Runs an operation for a caller already authenticated and admitted by its own route (the MCP tools, a cluster's apply). */
export type Invoke = <Op extends OperationId>(op: Op, req: InvokeRequest) => Promise<Reply<Op>>;

/** What a cluster implementation is given to join: the server's services and an invoker that runs operations here. */
export interface ClusterContext {
  services: Services;
  /** Runs an operation on this node only (never routed), collecting JSON-lines replies. */
  invokeLocal: Invoke;
  logger: Logger;
  dataDir: string;
}

/** Joins a server to its cluster (src/cluster, wired in by `svc serve --cluster`). */
export type ClusterStarter = (ctx: ClusterContext) => Promise<ClusterHooks>;
