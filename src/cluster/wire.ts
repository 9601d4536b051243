// JSON on the wire, and replies turned into wire form and back. Invariant: an error crosses nodes as
// the error table's body and is thrown again as the same ApiError (type, message, fix, headers), so
// a client cannot tell which node answered.

import type { Reply } from '../api/index.js';
import type { OperationId } from '../api-types.js';
import { ApiError, type ErrorType } from '../errors.js';
import type { WireReply } from './types.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

export const encode = (v: unknown): Uint8Array => enc.encode(JSON.stringify(v));
export const decode = <T>(data: Uint8Array): T => JSON.parse(dec.decode(data)) as T;

/** The wire form of a reply. */
export function toWire(reply: Reply<OperationId>): WireReply {
  return { status: reply.status, body: reply.body, headers: reply.headers, lines: reply.lines ? [...reply.lines] : undefined };
}

/** The wire form of a failure: an ApiError as its body; anything else as `internal` (logged by the caller). */
export function errorWire(err: unknown, requestId: string): WireReply {
  const e = err instanceof ApiError ? err : new ApiError('internal', `unexpected server error on another node (request id ${requestId})`);
  return { status: e.status, body: e.body(), headers: e.headers };
}

/** The reply a wire reply stands for; an error reply is thrown as its ApiError. */
export function fromWire(w: WireReply): Reply<OperationId> {
  const err = (w.body as { error?: { type: ErrorType; message: string; fix: string } } | undefined)?.error;
  if (w.status >= 400 && err) throw new ApiError(err.type, err.message, { fix: err.fix, headers: w.headers });
  return {
    status: w.status,
    body: w.body as Reply<OperationId>['body'],
    headers: w.headers,
    lines: w.lines as Reply<OperationId>['lines'],
  };
}
