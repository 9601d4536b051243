// Sends one operation of the OpenAPI document (method and path from the generated OPERATIONS) and
// applies the retry policy. Invariants: a call never outlives its deadline (timeoutMs, backoff
// included); an abort of the caller's signal rejects at once with the signal's reason; a non-2xx
// response always becomes the typed error of its `error.type`; path parameters are percent-encoded
// with '.' as %2E (URL parsers resolve dot segments, even encoded ones, in some stacks).
import { OPERATIONS, type OperationId, type OperationTypes } from '../api-types.js';
import type { CallOptions, ResolvedConfig } from './config.js';
import {
  ConnectionError,
  DeadlineExceededError,
  errorFromResponse,
  InvalidRequestError,
  SvcError,
  UnexpectedResponseError,
} from './errors.js';
import { backoffMs, isRefused, isRetryable, sleep } from './retry.js';

export interface RequestParts<K extends OperationId> {
  path?: OperationTypes[K]['path'];
  query?: OperationTypes[K]['query'];
  headers?: OperationTypes[K]['headers'];
  body?: OperationTypes[K]['body'];
  /** The body already serialized as JSON (used instead of `body`). */
  rawBody?: string;
}

export interface CallPolicy extends CallOptions {
  /** Repeating the request cannot apply a change twice (default: GET, DELETE and requests carrying an Idempotency-Key). */
  idempotent?: boolean;
  /**
   * Resolve with the fetch Response itself (its body unread) once a success status arrives: for a
   * streamed body, which the caller reads with no deadline (the user's signal still aborts it).
   */
  raw?: boolean;
  /**
   * For deletes: the not-found type that means "already gone". After an attempt that may have been
   * applied without its reply arriving, a retry that finds the target gone counts as success.
   */
  goneType?: string;
}

export interface Reply<T> {
  status: number;
  headers: Headers;
  body: T;
}

export function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}

function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (typeof v !== 'string' || v === '') {
      throw new InvalidRequestError({
        message: `the ${name} is ${JSON.stringify(v) ?? 'undefined'}, not a non-empty string`,
        fix: `Pass the ${name} as a non-empty string.`,
      });
    }
    return encodeSegment(v);
  });
}

function buildQuery(query: Record<string, unknown> = {}): string {
  const q = new URLSearchParams();
  // An object (a filter) travels as JSON, as the document declares for such parameters.
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null) q.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message ?? String(err);
}

const ambiguous = (err: SvcError) => (err instanceof ConnectionError && !isRefused(err)) || [500, 502, 504].includes(err.status);

export class Transport {
  constructor(readonly config: ResolvedConfig) {}

  async call<K extends OperationId>(op: K, parts: RequestParts<K>, policy: CallPolicy = {}): Promise<Reply<OperationTypes[K]['response']>> {
    const spec = OPERATIONS[op];
    const { config } = this;
    const path = buildPath(spec.path, parts.path as Record<string, string> | undefined);
    const url = `${config.baseUrl}${path}${buildQuery(parts.query as Record<string, unknown> | undefined)}`;
    const headers: Record<string, string> = { ...config.headers, ...(parts.headers as Record<string, string> | undefined) };
    const body = parts.rawBody ?? (parts.body === undefined ? undefined : JSON.stringify(parts.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    const idempotent = policy.idempotent ?? (spec.method === 'GET' || spec.method === 'DELETE' || headers['Idempotency-Key'] !== undefined);
    const maxAttempts = policy.maxAttempts ?? config.retry.maxAttempts;
    const timeoutMs = policy.timeoutMs ?? config.timeoutMs;
    const deadline = Date.now() + timeoutMs;

    const user = policy.signal;
    user?.throwIfAborted();
    const ctl = new AbortController();
    const { signal } = ctl;
    const onUserAbort = () => ctl.abort(user!.reason);
    user?.addEventListener('abort', onUserAbort, { once: true });
    let last: SvcError | undefined;
    const fail = (): unknown =>
      user?.aborted
        ? user.reason
        : new DeadlineExceededError({
            message: `${spec.method} ${path} got no answer within ${timeoutMs} ms${last ? ` (last error: ${last.message})` : ''}`,
            fix: 'Retry later, or allow more time with the timeoutMs option; check the server load and the network.',
            cause: last,
          });
    const timeout = setTimeout(() => ctl.abort(), timeoutMs);
    let mayHaveApplied = false;
    let rawReply = false;
    try {
      for (let attempt = 1; ; attempt++) {
        let err: SvcError;
        try {
          const res = await config.fetch(url, { method: spec.method, headers, body, signal });
          if (policy.raw && (spec.ok as readonly number[]).includes(res.status)) {
            rawReply = true;
            return { status: res.status, headers: res.headers, body: res as never };
          }
          const text = await res.text();
          if ((spec.ok as readonly number[]).includes(res.status))
            return { status: res.status, headers: res.headers, body: parse(text, res, spec.method, path) };
          err = errorFromResponse(res.status, res.headers, text);
          if (policy.goneType && err.type === policy.goneType && mayHaveApplied)
            return { status: 204, headers: res.headers, body: undefined as never };
        } catch (e) {
          if (signal.aborted) throw fail();
          if (e instanceof SvcError) throw e;
          const why = describeNetworkError(e);
          err = new ConnectionError({
            message: `${spec.method} ${config.baseUrl}${path} failed: ${why}`,
            fix:
              why === 'ECONNREFUSED'
                ? `Nothing answers at ${config.baseUrl}: start the server (svc serve), or set SVC_BASE_URL to its API root (ending in /v1).`
                : why === 'bad port'
                  ? `fetch never connects to the port of ${config.baseUrl} (a port browsers block): run the server on another port (svc serve --port) and set SVC_BASE_URL to it.`
                  : 'Check that the server is running and reachable, and that SVC_BASE_URL is right (it ends in /v1).',
            cause: e,
          });
          // a blocked port fails the same way every time: nothing to retry
          if (why === 'bad port') throw err;
        }
        last = err;
        mayHaveApplied ||= ambiguous(err);
        if (!isRetryable(err, idempotent, config.retry.retryRefused) || attempt >= maxAttempts) throw err;
        const delayMs = backoffMs(attempt, config.retry, err.retryAfterMs);
        if (Date.now() + delayMs >= deadline) throw err;
        config.retry.onRetry?.({ attempt, delayMs, error: err, method: spec.method, path });
        try {
          await sleep(delayMs, signal);
        } catch {
          throw fail();
        }
      }
    } finally {
      clearTimeout(timeout);
      // a raw reply's body is still being read: the user's signal must keep aborting it
      if (!rawReply) user?.removeEventListener('abort', onUserAbort);
    }
  }
}

function parse(text: string, res: Response, method: string, path: string): never {
  if (text === '') return undefined as never;
  try {
    return JSON.parse(text) as never;
  } catch {
    throw new UnexpectedResponseError({
      message: `${method} ${path} answered ${res.status} with a body that is not JSON`,
      fix: 'Check that SVC_BASE_URL points at the svc API and not at another service or proxy page.',
      status: res.status,
      requestId: res.headers.get('x-request-id') ?? undefined,
    });
  }
}
