// The one error table of the service. Every error body the API sends, and every error response
// the OpenAPI document declares, comes from ERRORS below: a type has exactly one HTTP status and a
// default `fix`; a throw site may give a sharper message and fix, never a new type or status.

export const ERRORS = {
  invalid_request: {
    status: 400,
    description: 'Malformed body or out-of-range parameter',
    fix: 'Correct the request as described in /v1/openapi.json.',
  },
  unauthorized: {
    status: 401,
    description: 'Missing or invalid API key',
    fix: "Send 'Authorization: Bearer <API_KEY>'. Create a key on the server host with 'svc keys create --project <project>'.",
  },
  store_not_found: {
    status: 404,
    description: 'No store by that name or id',
    fix: 'Create it with POST /v1/stores {"name": "<name>"} (or \'svc stores create <name>\'), or list stores with GET /v1/stores.',
  },
  document_not_found: {
    status: 404,
    description: 'No document by that id in the store',
    fix: 'List documents with GET /v1/stores/{store}/documents, or ingest it with POST /v1/stores/{store}/documents.',
  },
  route_not_found: {
    status: 404,
    description: 'No endpoint at that method and path',
    fix: 'Every endpoint is under /v1 and listed in GET /v1/openapi.json.',
  },
  method_not_allowed: {
    status: 405,
    description: 'The path exists but not with that method',
    fix: 'Use one of the methods named in the Allow header; see GET /v1/openapi.json.',
  },
  store_already_exists: {
    status: 409,
    description: 'Creating a store whose name is taken in the project',
    fix: 'Use the existing store by its name, or create one with another name.',
  },
  idempotency_key_reused: {
    status: 422,
    description: 'An Idempotency-Key was replayed with a different request body',
    fix: 'Send a new Idempotency-Key for a different request, or resend the original body unchanged.',
  },
  document_too_large: {
    status: 413,
    description: 'A document or batch exceeds the size limits',
    fix: 'Split the batch into requests of at most 32 MB (and 1000 documents), or use the client library streaming ingest (documents.ingestStream).',
  },
  unsupported_media_type: {
    status: 415,
    description: 'The request body is not JSON',
    fix: "Send the body as JSON with 'Content-Type: application/json'.",
  },
  headers_too_large: {
    status: 431,
    description: 'The request headers are too large or too many',
    fix: 'Send fewer and shorter headers (at most 16 KB in all).',
  },
  rate_limited: {
    status: 429,
    description: 'Project request rate exceeded',
    fix: 'Retry after the number of seconds in the Retry-After header; the limit is 100 requests per second per project.',
  },
  internal: {
    status: 500,
    description: 'Unexpected server error',
    fix: 'Retry the request; if it keeps failing, contact support with the request id from the X-Request-Id header.',
  },
  service_unavailable: {
    status: 503,
    description: 'The server is starting, shutting down or its search workers are saturated',
    fix: 'Retry after the number of seconds in the Retry-After header.',
  },
  // A cluster (svc serve --cluster): the write could not be made durable on a quorum of NATS
  // servers, or no node holding the store answered in time.
  cluster_unavailable: {
    status: 503,
    description: 'The cluster cannot take the request: no JetStream quorum, or no live node holds the store',
    fix: 'Retry after the number of seconds in the Retry-After header; if it persists, check that a majority of the NATS servers (SVC_NATS_URL) run and that svc nodes are up (GET /v1/health on each).',
  },
  // Storage faults of the data dir (a write the file system refused; nothing of the request was
  // written). The server log names the folder.
  storage_full: {
    status: 507,
    description: 'The file system holding the data dir (SVC_DATA_DIR) is full',
    fix: "Free space on the volume holding the server's SVC_DATA_DIR, or move SVC_DATA_DIR to a larger one (stop the server, copy the folder, start on the copy), then retry; reads keep working meanwhile.",
  },
  engine_memory_full: {
    status: 507,
    description:
      "The engine's memory (SVC_ENGINE_MEMORY_MB) cannot hold the open stores' indexes with this request's documents, or the index of the closed store it names",
    fix: 'Delete documents or stores that are no longer needed, raise SVC_ENGINE_MEMORY_MB on a server with the memory, or put stores on another server; nothing of this request was written.',
  },
  storage_unavailable: {
    status: 503,
    description: 'The data dir (SVC_DATA_DIR) cannot be written (read-only, permissions or a disk error)',
    fix: "Make the server's SVC_DATA_DIR writable by the user running svc (a read-only mount, file permissions or a failing disk; see the server log for the folder), then retry.",
  },
  // Enrichment (answers, image and scanned-PDF transcription). In a search these never fail the
  // request: they are the `answer.error` of a 200 response; an ingest that needs a transcription
  // answers with their status.
  answer_unavailable: {
    status: 501,
    description: 'No answer source: the model has no reader and no answer model is configured',
    fix: 'Serve a model folder that holds reader.json (written by svc train), or set SVC_ENRICH_MODEL (with SVC_ENRICH_URL and SVC_ENRICH_API_KEY as the endpoint needs) on the server.',
  },
  enrichment_failed: {
    status: 502,
    description: 'The enrichment endpoint (SVC_ENRICH_URL) failed or answered unusably',
    fix: 'Retry later; if it persists, check SVC_ENRICH_URL, SVC_ENRICH_MODEL / SVC_VISION_MODEL and SVC_ENRICH_API_KEY on the server.',
  },
  enrichment_timeout: {
    status: 504,
    description: 'The enrichment endpoint did not answer within SVC_ENRICH_TIMEOUT',
    fix: "Retry later; if it persists, check the endpoint's load, or raise SVC_ENRICH_TIMEOUT (seconds, default 30) on the server.",
  },
} as const satisfies Record<string, { status: number; description: string; fix: string }>;

export type ErrorType = keyof typeof ERRORS;

export interface ErrorBody {
  error: { type: ErrorType; message: string; fix: string };
}

/** An error with a place in the table. Thrown anywhere below the HTTP layer; rendered by it. */
export class ApiError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly fix: string;
  /** Extra response headers (e.g. Retry-After for 429/503, Allow for 405). */
  readonly headers: Record<string, string>;

  constructor(type: ErrorType, message: string, opts: { fix?: string; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.type = type;
    this.status = ERRORS[type].status;
    this.fix = opts.fix ?? ERRORS[type].fix;
    this.headers = opts.headers ?? {};
  }

  body(): ErrorBody {
    return { error: { type: this.type, message: this.message, fix: this.fix } };
  }
}

export function errorStatus(type: ErrorType): number {
  return ERRORS[type].status;
}
