// Public entry of the client library (`import { Svc } from 'svc-search'`): the client, its option
// and result types, the typed errors, and the request/response types generated from the served
// OpenAPI document, and the reading of a JSONL line as a document (`svc ingest` and the web console
// read JSONL alike). Nothing else is exported; modules behind it may change.

export type {
  Answer,
  AnswerError,
  DeleteDocumentsRequest,
  DeleteDocumentsResponse,
  DocumentContent,
  DocumentInfo,
  DocumentInput,
  DocumentList,
  DocumentPatch,
  DocumentSummary,
  ErrorType,
  ExportedDocument,
  Filter,
  FilterCondition,
  Health,
  IngestRequest,
  IngestResponse,
  Liveness,
  Metadata,
  MetadataValue,
  OperationId,
  OperationTypes,
  Passage,
  PassageSpan,
  SearchBatchRequest,
  SearchBatchResponse,
  SearchRequest,
  SearchResult,
  Store,
  StoreCompaction,
  StoreCreate,
  StoreList,
  TraceStep,
} from '../api-types.js';
export { type CallOptions, DEFAULT_BASE_URL, type RetryEvent, type RetryOptions, type SvcOptions } from './config.js';
export type { Documents, GetDocumentOptions, IngestOptions, IngestResult, ListDocumentsOptions } from './documents.js';
export {
  AnswerUnavailableError,
  ClusterUnavailableError,
  ConfigError,
  ConnectionError,
  DeadlineExceededError,
  DocumentNotFoundError,
  DocumentTooLargeError,
  EngineMemoryFullError,
  EnrichmentFailedError,
  EnrichmentTimeoutError,
  ERROR_CLASSES,
  HeadersTooLargeError,
  IdempotencyKeyReusedError,
  InternalServerError,
  InvalidRequestError,
  MethodNotAllowedError,
  RateLimitedError,
  RouteNotFoundError,
  type ServerErrorType,
  ServiceUnavailableError,
  StorageFullError,
  StorageUnavailableError,
  StoreAlreadyExistsError,
  StoreNotFoundError,
  SvcError,
  type SvcErrorInit,
  UnauthorizedError,
  UnexpectedResponseError,
  UnsupportedMediaTypeError,
} from './errors.js';
export { type IngestProgress, type IngestStreamOptions, type IngestTotals, MAX_BATCH_DOCS, MAX_REQUEST_BYTES } from './ingest-stream.js';
export { JSONL_SHAPE, jsonlDocument, parseJsonObject } from './jsonl.js';
export type { ListOptions } from './paginate.js';
export type { Stores } from './stores.js';
export { Svc } from './svc.js';
