// Typed errors of the client. Every error response of the server becomes an instance of the class
// registered for its `error.type` (all extend SvcError and carry status, type, message, fix and the
// request id from X-Request-Id); a type this client does not know yet becomes a plain SvcError, so
// additive server changes never break callers. Failures without a response (connection, deadline,
// configuration) are SvcErrors too, with status 0 and a `fix`, so one catch handles everything.
import type { ErrorType } from '../api-types.js';

export interface SvcErrorInit {
  message: string;
  fix: string;
  status?: number;
  requestId?: string;
  /** Milliseconds from the Retry-After header, when the response carried one. */
  retryAfterMs?: number;
  cause?: unknown;
}

export class SvcError extends Error {
  readonly type: string;
  readonly status: number;
  readonly fix: string;
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(type: string, init: SvcErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.type = type;
    this.status = init.status ?? 0;
    this.fix = init.fix;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The class of one error type; `type` and `status` are on the class as well as on instances. */
function errorClass<T extends string>(type: T, status: number) {
  return class extends SvcError {
    declare readonly type: T;
    static readonly type: T = type;
    static readonly status: number = status;
    constructor(init: SvcErrorInit) {
      super(type, { status, ...init });
    }
  };
}

export class InvalidRequestError extends errorClass('invalid_request', 400) {}
export class UnauthorizedError extends errorClass('unauthorized', 401) {}
export class StoreNotFoundError extends errorClass('store_not_found', 404) {}
export class DocumentNotFoundError extends errorClass('document_not_found', 404) {}
export class RouteNotFoundError extends errorClass('route_not_found', 404) {}
export class MethodNotAllowedError extends errorClass('method_not_allowed', 405) {}
export class StoreAlreadyExistsError extends errorClass('store_already_exists', 409) {}
export class DocumentTooLargeError extends errorClass('document_too_large', 413) {}
export class UnsupportedMediaTypeError extends errorClass('unsupported_media_type', 415) {}
export class IdempotencyKeyReusedError extends errorClass('idempotency_key_reused', 422) {}
export class RateLimitedError extends errorClass('rate_limited', 429) {}
export class HeadersTooLargeError extends errorClass('headers_too_large', 431) {}
export class InternalServerError extends errorClass('internal', 500) {}
export class ServiceUnavailableError extends errorClass('service_unavailable', 503) {}
/** The server's data dir is full (507) or cannot be written (503); nothing of the request was written. */
export class StorageFullError extends errorClass('storage_full', 507) {}
export class StorageUnavailableError extends errorClass('storage_unavailable', 503) {}
/** The server's engine memory (SVC_ENGINE_MEMORY_MB) cannot hold the store's index with the request's documents (nothing was written), or cannot open the store. */
export class EngineMemoryFullError extends errorClass('engine_memory_full', 507) {}
/** A cluster (docs/cluster.md) could not take the request: no JetStream quorum, or no live node holds the store. */
export class ClusterUnavailableError extends errorClass('cluster_unavailable', 503) {}
/** Enrichment: an ingest whose image or scanned page could not be transcribed (in a search, `answer.error` carries these types). */
export class AnswerUnavailableError extends errorClass('answer_unavailable', 501) {}
export class EnrichmentFailedError extends errorClass('enrichment_failed', 502) {}
export class EnrichmentTimeoutError extends errorClass('enrichment_timeout', 504) {}

/** No response: the connection failed or was dropped (after the retries the operation allows). */
export class ConnectionError extends errorClass('connection_failed', 0) {}
/** The call's overall deadline (timeoutMs, retries included) passed. */
export class DeadlineExceededError extends errorClass('deadline_exceeded', 0) {}
/** The client's configuration (base URL, options) is not usable. */
export class ConfigError extends errorClass('invalid_config', 0) {}
/** A response that is not what the OpenAPI document describes (not JSON, or an error without a type). */
export class UnexpectedResponseError extends errorClass('unexpected_response', 0) {}

/**
 * One class per error type the server can send: every type the OpenAPI document declares (checked
 * at compile time through ErrorType) plus the three it answers outside any operation, and
 * answer_unavailable (only ever the type of a search's `answer.error`).
 */
export const ERROR_CLASSES = {
  invalid_request: InvalidRequestError,
  unauthorized: UnauthorizedError,
  store_not_found: StoreNotFoundError,
  document_not_found: DocumentNotFoundError,
  route_not_found: RouteNotFoundError,
  method_not_allowed: MethodNotAllowedError,
  store_already_exists: StoreAlreadyExistsError,
  document_too_large: DocumentTooLargeError,
  unsupported_media_type: UnsupportedMediaTypeError,
  idempotency_key_reused: IdempotencyKeyReusedError,
  rate_limited: RateLimitedError,
  headers_too_large: HeadersTooLargeError,
  internal: InternalServerError,
  service_unavailable: ServiceUnavailableError,
  storage_full: StorageFullError,
  storage_unavailable: StorageUnavailableError,
  engine_memory_full: EngineMemoryFullError,
  cluster_unavailable: ClusterUnavailableError,
  answer_unavailable: AnswerUnavailableError,
  enrichment_failed: EnrichmentFailedError,
  enrichment_timeout: EnrichmentTimeoutError,
} as const satisfies Record<
  ErrorType | 'route_not_found' | 'method_not_allowed' | 'headers_too_large' | 'answer_unavailable',
  ReturnType<typeof errorClass>
>;

export type ServerErrorType = keyof typeof ERROR_CLASSES;

// A bare 501/502/504 comes from a proxy in between, not from the enrichment endpoint behind the service.
const BY_STATUS = new Map<number, ServerErrorType>();
for (const [type, cls] of Object.entries(ERROR_CLASSES))
  if (!BY_STATUS.has(cls.status) && ![404, 501, 502, 504].includes(cls.status)) BY_STATUS.set(cls.status, type as ServerErrorType);

/** Milliseconds of a Retry-After header (delta-seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The typed error of a non-2xx response whose body text is `text`. */
export function errorFromResponse(status: number, headers: Headers, text: string): SvcError {
  const requestId = headers.get('x-request-id') ?? undefined;
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
  let body: { error?: { type?: unknown; message?: unknown; fix?: unknown } } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const e = body?.error;
  if (e && typeof e.type === 'string' && typeof e.message === 'string') {
    const init = { message: e.message, fix: typeof e.fix === 'string' ? e.fix : '', status, requestId, retryAfterMs };
    const cls = (ERROR_CLASSES as Record<string, (typeof ERROR_CLASSES)[ServerErrorType]>)[e.type];
    return cls ? new cls(init) : new SvcError(e.type, init);
  }
  // Not the service's error shape (a proxy in between, or a truncated body): type it by status.
  const known = BY_STATUS.get(status);
  const message = `HTTP ${status} without a service error body${text ? `: ${text.slice(0, 200)}` : ''}`;
  const fix = 'Check that SVC_BASE_URL points at the svc API (ending in /v1) and not at a proxy error page; retry later.';
  if (known) return new ERROR_CLASSES[known]({ message, fix, status, requestId, retryAfterMs });
  return new UnexpectedResponseError({ message, fix, status, requestId, retryAfterMs });
}
