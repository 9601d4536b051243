// Public entry of the client library (`import { Svc } from 'svc-search'`): the client, its option
// and result types, the typed errors, and the request/response types generated from the served
// OpenAPI document. Nothing else is exported; modules behind it may change.
export { Svc } from './svc.js';
export { DEFAULT_BASE_URL, type CallOptions, type RetryEvent, type RetryOptions, type SvcOptions } from './config.js';
export type { Stores } from './stores.js';
export type { Documents, GetDocumentOptions, IngestOptions, IngestResult } from './documents.js';
export { MAX_BATCH_DOCS, MAX_REQUEST_BYTES, type IngestProgress, type IngestStreamOptions, type IngestTotals } from './ingest-stream.js';
export type { ListOptions } from './paginate.js';
export {
  ERROR_CLASSES,
  AnswerUnavailableError,
  ConfigError,
  ConnectionError,
  DeadlineExceededError,
  DocumentNotFoundError,
  DocumentTooLargeError,
  EnrichmentFailedError,
  EnrichmentTimeoutError,
  HeadersTooLargeError,
  IdempotencyKeyReusedError,
  InternalServerError,
  InvalidRequestError,
  MethodNotAllowedError,
  RateLimitedError,
  RouteNotFoundError,
  ServiceUnavailableError,
  StorageFullError,
  StorageUnavailableError,
  StoreAlreadyExistsError,
  StoreNotFoundError,
  SvcError,
  UnauthorizedError,
  UnexpectedResponseError,
  UnsupportedMediaTypeError,
  type ServerErrorType,
  type SvcErrorInit,
} from './errors.js';
export type {
  Answer,
  AnswerError,
  DocumentContent,
  DocumentInfo,
  DocumentInput,
  DocumentList,
  DocumentSummary,
  ErrorType,
  Health,
  IngestRequest,
  IngestResponse,
  Metadata,
  MetadataValue,
  OperationId,
  OperationTypes,
  Passage,
  SearchRequest,
  SearchResult,
  Store,
  StoreCreate,
  StoreList,
  TraceStep,
} from '../api-types.js';
