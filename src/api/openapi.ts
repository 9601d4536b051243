// The OpenAPI 3.1 document served at /v1/openapi.json. OPERATIONS is the single list of endpoints:
// the router mounts exactly these (see router.ts), Ajv compiles their parameters and bodies from
// this document, and their error responses are generated from the error table.
import { ERRORS, type ErrorType } from '../errors.js';
import { LIMITS, schemas } from './schemas.js';

export interface Operation {
  id: string;
  method: 'get' | 'post' | 'delete' | 'patch';
  path: string; // OpenAPI form, relative to /v1: /stores/{store}
  summary: string;
  auth: boolean;
  params?: string[]; // names in components.parameters
  body?: keyof typeof schemas;
  /** `lines`: the body is JSON lines (application/x-ndjson), one `schema` per line, streamed. */
  success: { status: number; description: string; schema?: keyof typeof schemas; lines?: boolean };
  errors: ErrorType[];
  /** A non-error response besides `success` (health answers 503 with its own body while not ready). */
  also?: { status: number; description: string; schema: keyof typeof schemas };
  /** Rate-limit tokens the request takes once its body is validated (default 1, taken before). */
  cost?: (body: unknown) => number;
}

// Every operation with auth can also answer invalid_request: a malformed X-Svc-Project header (with
// --no-auth) or a path that is not valid percent-encoding; each lists it in its own errors.
// A path spelled slightly off (a trailing slash, an empty store name or id) is route_not_found.
// A node of a cluster (docs/cluster.md) may also answer any operation with cluster_unavailable.
const COMMON: ErrorType[] = [
  'unauthorized',
  'route_not_found',
  'headers_too_large',
  'rate_limited',
  'internal',
  'service_unavailable',
  'cluster_unavailable',
];
/** Operations that write to the data dir can meet a full or unwritable file system. */
const WRITES: ErrorType[] = ['storage_full', 'storage_unavailable'];
/** Operations on a store open it when it is closed (SVC_STORE_IDLE_S), and its index may not fit the engine's memory. */
const STORE: ErrorType[] = ['store_not_found', 'engine_memory_full'];

export const OPERATIONS: Operation[] = [
  {
    id: 'createStore',
    method: 'post',
    path: '/stores',
    summary: 'Create a store',
    auth: true,
    body: 'StoreCreate',
    success: { status: 201, description: 'The new store', schema: 'Store' },
    errors: ['invalid_request', 'unsupported_media_type', 'store_already_exists', ...WRITES, ...COMMON],
  },
  {
    id: 'listStores',
    method: 'get',
    path: '/stores',
    summary: 'List stores, newest first',
    auth: true,
    params: ['limit', 'cursor'],
    success: { status: 200, description: 'A page of stores', schema: 'StoreList' },
    errors: ['invalid_request', ...COMMON],
  },
  {
    id: 'getStore',
    method: 'get',
    path: '/stores/{store}',
    summary: 'Get a store with live stats',
    auth: true,
    params: ['store'],
    success: { status: 200, description: 'The store', schema: 'Store' },
    errors: ['invalid_request', ...STORE, ...COMMON],
  },
  {
    id: 'deleteStore',
    method: 'delete',
    path: '/stores/{store}',
    summary: 'Delete a store and all its documents (cannot be undone)',
    auth: true,
    params: ['store'],
    success: { status: 204, description: 'Deleted' },
    errors: ['invalid_request', ...STORE, ...WRITES, ...COMMON],
  },
  {
    id: 'compactStore',
    method: 'post',
    path: '/stores/{store}/compact',
    summary:
      "Rewrite the store's data file without the free pages deleted and replaced documents left (the server also does it by itself once they pass half the file); writes to the store wait meanwhile, searches and reads go on",
    auth: true,
    params: ['store'],
    success: { status: 200, description: 'The store, and its data file before and after', schema: 'StoreCompaction' },
    errors: ['invalid_request', ...STORE, ...WRITES, ...COMMON],
  },
  {
    id: 'ingestDocuments',
    method: 'post',
    path: '/stores/{store}/documents',
    summary: 'Ingest (upsert) documents; searchable when the call returns',
    auth: true,
    params: ['store', 'idempotencyKey'],
    body: 'IngestRequest',
    success: {
      status: 200,
      description:
        'Documents written durably (or, with header Idempotent-Replayed: true, the stored response of an earlier request with the same Idempotency-Key)',
      schema: 'IngestResponse',
    },
    errors: [
      'invalid_request',
      'unsupported_media_type',
      ...STORE,
      'document_too_large',
      'idempotency_key_reused',
      'enrichment_failed',
      'enrichment_timeout',
      ...WRITES,
      ...COMMON,
    ],
  },
  {
    id: 'listDocuments',
    method: 'get',
    path: '/stores/{store}/documents',
    summary: 'List documents, most recently ingested first; with a filter, those it matches',
    auth: true,
    params: ['store', 'limit', 'cursor', 'filter'],
    success: { status: 200, description: 'A page of documents', schema: 'DocumentList' },
    errors: ['invalid_request', ...STORE, ...COMMON],
  },
  {
    id: 'exportDocuments',
    method: 'get',
    path: '/stores/{store}/export',
    summary:
      'Every document of the store as JSON lines (id, text, metadata), in ingest order, from one consistent snapshot: writes go on meanwhile and are not in it',
    auth: true,
    params: ['store'],
    success: {
      status: 200,
      description: 'One ExportedDocument per line (a file svc import and POST documents take back)',
      schema: 'ExportedDocument',
      lines: true,
    },
    errors: ['invalid_request', ...STORE, ...COMMON],
  },
  {
    id: 'getDocument',
    method: 'get',
    path: '/stores/{store}/documents/{id}',
    summary: 'Get document info',
    auth: true,
    params: ['store', 'id', 'includeText', 'includePassages'],
    success: { status: 200, description: 'The document', schema: 'DocumentInfo' },
    errors: ['invalid_request', ...STORE, 'document_not_found', ...COMMON],
  },
  {
    id: 'deleteDocument',
    method: 'delete',
    path: '/stores/{store}/documents/{id}',
    summary: 'Delete a document and its encoding',
    auth: true,
    params: ['store', 'id'],
    success: { status: 204, description: 'Deleted' },
    errors: ['invalid_request', ...STORE, 'document_not_found', ...WRITES, ...COMMON],
  },
  {
    id: 'patchDocument',
    method: 'patch',
    path: '/stores/{store}/documents/{id}',
    summary:
      "Update a document's metadata (merged; null removes a key); a change of `title` re-encodes the document from its stored text. Filters and search see it when the call returns",
    auth: true,
    params: ['store', 'id'],
    body: 'DocumentPatch',
    success: { status: 200, description: 'The document as updated', schema: 'DocumentInfo' },
    errors: ['invalid_request', 'unsupported_media_type', ...STORE, 'document_not_found', ...WRITES, ...COMMON],
  },
  {
    id: 'deleteDocuments',
    method: 'post',
    path: '/stores/{store}/documents/delete',
    summary: 'Delete the documents a filter matches, or those of a list of ids, in one transaction',
    auth: true,
    params: ['store'],
    body: 'DeleteDocumentsRequest',
    success: { status: 200, description: 'How many documents were deleted', schema: 'DeleteDocumentsResponse' },
    errors: ['invalid_request', 'unsupported_media_type', ...STORE, ...WRITES, ...COMMON],
  },
  {
    id: 'search',
    method: 'post',
    path: '/stores/{store}/search',
    summary: 'Multi-hop search',
    auth: true,
    params: ['store'],
    body: 'SearchRequest',
    success: { status: 200, description: 'Supporting passages with a calibrated confidence', schema: 'SearchResult' },
    errors: ['invalid_request', 'unsupported_media_type', ...STORE, ...COMMON],
  },
  {
    id: 'searchBatch',
    method: 'post',
    path: '/stores/{store}/search/batch',
    summary: 'Several searches of one store in one request; each counts against the rate limit',
    auth: true,
    params: ['store'],
    body: 'SearchBatchRequest',
    success: { status: 200, description: 'One result or error per search, in order', schema: 'SearchBatchResponse' },
    errors: ['invalid_request', 'unsupported_media_type', ...STORE, ...COMMON],
    cost: (body) => (body as { searches: unknown[] }).searches.length,
  },
  {
    id: 'health',
    method: 'get',
    path: '/health',
    summary: 'Health and readiness (200 once the model and stores are loaded)',
    auth: false,
    success: { status: 200, description: 'Ready', schema: 'Health' },
    errors: [],
    also: { status: 503, description: 'Starting (loading the model or stores) or stopping', schema: 'Health' },
  },
  {
    id: 'livez',
    method: 'get',
    path: '/livez',
    summary: 'Liveness: 200 while the process serves requests, loading or not (readiness is /health)',
    auth: false,
    success: { status: 200, description: 'Alive', schema: 'Liveness' },
    errors: [],
  },
  {
    id: 'openapi',
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    auth: false,
    success: { status: 200, description: 'The OpenAPI 3.1 document' },
    errors: [],
  },
];

const parameters = {
  store: {
    name: 'store',
    in: 'path',
    required: true,
    description: "Store name or id (not '.' or '..', which URL parsers resolve).",
    schema: { type: 'string', minLength: 1, maxLength: 64, not: { enum: ['.', '..'] } },
  },
  id: {
    name: 'id',
    in: 'path',
    required: true,
    description: "Document id, URL-encoded (1 to 512 bytes of UTF-8; not '.' or '..', which URL parsers resolve).",
    schema: { type: 'string', minLength: 1, not: { enum: ['.', '..'] } },
  },
  limit: {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Page size: an integer from ${LIMITS.pageLimit.min} to ${LIMITS.pageLimit.max} (default ${LIMITS.pageLimit.default}).`,
    schema: { type: 'integer', minimum: LIMITS.pageLimit.min, maximum: LIMITS.pageLimit.max, default: LIMITS.pageLimit.default },
  },
  cursor: {
    name: 'cursor',
    in: 'query',
    required: false,
    description: 'The `next_cursor` of the previous page.',
    schema: { type: 'string', minLength: 1, maxLength: 256 },
  },
  filter: {
    name: 'filter',
    in: 'query',
    required: false,
    description: 'Only the documents this filter matches: a Filter (as in a search request), as URL-encoded JSON.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Filter' } } },
  },
  includeText: {
    name: 'include_text',
    in: 'query',
    required: false,
    description: 'When true, the response includes the full `text` (default false).',
    schema: { type: 'boolean', default: false },
  },
  includePassages: {
    name: 'include_passages',
    in: 'query',
    required: false,
    description: 'When true, the response includes `passages`: the offsets of the passages the document was cut into (default false).',
    schema: { type: 'boolean', default: false },
  },
  idempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: `1 to ${LIMITS.idempotencyKeyChars} printable ASCII characters. A replay of the same key with the same body returns the original response without ingesting again (kept 24 hours, per store); the same key with another body is refused.`,
    schema: { type: 'string', minLength: 1, maxLength: LIMITS.idempotencyKeyChars, pattern: '^[\\x21-\\x7e]+$' },
  },
} as const;

const PROJECT_HEADER = {
  name: 'X-Svc-Project',
  in: 'header',
  required: false,
  description:
    "Project whose stores to use, only when the server runs with --no-auth (default: SVC_PROJECT). With auth, the project is the API key's and this header is ignored.",
  schema: { type: 'string', pattern: LIMITS.storeName.pattern },
};

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } } };

const errorExamples = (type: ErrorType) => ({ error: { type, message: ERRORS[type].description, fix: ERRORS[type].fix } });

function errorResponses(types: ErrorType[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorType[]>();
  for (const t of types) byStatus.set(ERRORS[t].status, [...(byStatus.get(ERRORS[t].status) ?? []), t]);
  const out: Record<string, unknown> = {};
  for (const [status, ts] of byStatus) {
    const retry = ts.some((t) => t === 'rate_limited' || t === 'service_unavailable');
    out[String(status)] = {
      description: ts.map((t) => `\`${t}\`: ${ERRORS[t].description}`).join('; '),
      ...(retry ? { headers: RETRY_AFTER } : {}),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: Object.fromEntries(ts.map((t) => [t, { value: errorExamples(t) }])),
        },
      },
    };
  }
  return out;
}

export function buildOpenApi(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const success: Record<string, unknown> = { description: op.success.description };
    if (op.id === 'ingestDocuments') {
      success.headers = {
        'Idempotent-Replayed': {
          description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
      };
    }
    if (op.success.schema)
      success.content = {
        [op.success.lines ? 'application/x-ndjson' : 'application/json']: { schema: { $ref: `#/components/schemas/${op.success.schema}` } },
      };
    if (op.id === 'openapi') success.content = { 'application/json': { schema: { type: 'object' } } };
    let item = paths[op.path];
    if (!item) {
      item = {};
      paths[op.path] = item;
    }
    item[op.method] = {
      operationId: op.id,
      summary: op.summary,
      security: op.auth ? [{ bearer: [] }] : [],
      parameters: [
        ...(op.params ?? []).map((p) => ({ $ref: `#/components/parameters/${p}` })),
        ...(op.auth ? [{ $ref: '#/components/parameters/project' }] : []),
      ],
      ...(op.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${op.body}` } } } } }
        : {}),
      responses: {
        [String(op.success.status)]: success,
        ...(op.also
          ? {
              [String(op.also.status)]: {
                description: op.also.description,
                headers: RETRY_AFTER,
                content: { 'application/json': { schema: { $ref: `#/components/schemas/${op.also.schema}` } } },
              },
            }
          : {}),
        ...errorResponses(op.errors),
      },
    };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'svc: document search with multi-hop retrieval',
      version,
      description:
        'Stores of whole documents, searched by a multi-hop engine. Every error body is {error: {type, message, fix}}. Rate limit: 100 requests per second per project.',
    },
    servers: [{ url: '/v1' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: "API key from 'svc keys create'." } },
      parameters: { ...parameters, project: PROJECT_HEADER },
      schemas,
      // Every error type of the table, reusable; route_not_found and method_not_allowed can answer
      // any path (an unknown one, or a known one with another method).
      responses: Object.fromEntries((Object.keys(ERRORS) as ErrorType[]).map((t) => [t, Object.values(errorResponses([t]))[0]])),
    },
  };
}
