// What the HTTP layer knows of a cluster (issue 33): the hooks a cluster implementation (src/cluster,
// wired in by `svc serve --cluster`) gives the server once it has joined. The API never imports the
// cluster: it calls these hooks when `services.cluster` is set and behaves as a single node otherwise.
// Invariant: `route` answers every operation it takes on (undefined means "run it here, as a single
// node would"); an operation run here by the cluster's own apply path never comes back to `route`.
import type { IncomingHttpHeaders } from 'node:http';
import type { OperationId } from '../api-types.js';
import type { KeyVerifier } from './auth.js';

/** A request as the router has it after auth, rate limit and validation. */
export interface ClusterRequest {
  project: string;
  params: Record<string, string>;
  /** The query as sent (strings, before coercion), so another node validates it as this one did. */
  rawQuery: Record<string, unknown>;
  /** The validated body (defaults filled in); undefined for an operation that takes none. */
  body?: unknown;
  headers: IncomingHttpHeaders;
  requestId: string;
}

/** Requests served elsewhere in the cluster, counted per project, for the cluster-wide rate limit. */
export interface SharedUsage {
  /** Tokens the other nodes have taken for `project` since they started (a running total). */
  elsewhere(project: string): number;
  /** Records `n` tokens taken here for `project`. */
  spent(project: string, n: number): void;
}

/** A reply another node made for the same operation (the router sends it as its own handler's). */
export interface RoutedReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  lines?: Iterable<unknown>;
}

/** A joined cluster; its `verify` checks an API key against the cluster's keys first, then the data dir's key file. */
export interface ClusterHooks extends KeyVerifier {
  /** The reply of `op` run through the cluster, or undefined when this node runs it itself. */
  route(op: OperationId, req: ClusterRequest): Promise<RoutedReply | undefined>;
  usage: SharedUsage;
  /** One line for the startup message: the cluster, this node's id, the replica count. */
  describe(): string;
  /** Leaves the cluster (stops applying, forwarding and heart-beating). */
  close(): Promise<void>;
}
