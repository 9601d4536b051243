// The messages of the cluster: what the log carries (one WriteOp per write request), what nodes
// ask each other over request-reply, and the KV records of nodes and stores. All travel as JSON.
import type { OperationId } from '../api-types.js';

/** A validated request as it travels between nodes, to be run by the in-process invoker. */
export interface RequestOp {
  op: OperationId;
  project: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
  /** Declared headers the operation reads (Idempotency-Key). */
  headers: Record<string, string>;
  requestId: string;
}

/** One write as appended to its store's subject: the validated request, never its encodings. */
export interface WriteOp extends RequestOp {
  /** The node that took the request. */
  origin: string;
  /** createStore: the id and creation time every replica gives the store. */
  fixed?: { id: string; created_at: string };
}

/** A reply as it crosses nodes: an error reply carries the error table's body. */
export interface WireReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  lines?: unknown[];
}

/** A read forwarded to a node holding the store. */
export interface ForwardRequest extends RequestOp {
  key: string;
  /** Whether a replica still catching up waits until it has (else it declines at once, and the next is asked). */
  waitReady: boolean;
}

/** Asks a replica to answer once it applied `seq` of `key`'s subject. */
export interface AwaitRequest {
  key: string;
  seq: number;
}

/** A replica's answer: the write's reply (when it still has it), or that it holds no copy of the store. */
export interface AwaitReply {
  notReplica?: boolean;
  outcome?: WireReply;
}

/** The catalog entry of a store, under `<project>.<name>` in the stores bucket. */
export interface StoreRecord {
  id: string;
  name: string;
  project: string;
  created_at: string;
}

/** A node's membership entry, renewed every heartbeat. */
export interface NodeRecord {
  id: string;
  started_at: string;
  at: string;
}
