// What the MCP tools need of svc: the REST operations they call, through whichever way reaches them
// (the client over HTTP for `svc mcp`, the server's own handlers for /v1/mcp), and the operator's
// choices. Errors thrown by a backend carry the API's `type`, `message` and `fix`.
import type {
  DocumentInfo,
  DocumentInput,
  DocumentList,
  Filter,
  IngestResponse,
  SearchRequest,
  SearchResult,
  StoreList,
} from '../api-types.js';

/** The operations the tools call, with the API's request and response types. */
export interface McpBackend {
  search(store: string, request: SearchRequest): Promise<SearchResult>;
  getDocument(store: string, id: string): Promise<DocumentInfo>;
  listStores(page: { limit?: number; cursor?: string }): Promise<StoreList>;
  listDocuments(store: string, page: { limit?: number; cursor?: string; filter?: Filter }): Promise<DocumentList>;
  ingest(store: string, documents: DocumentInput[]): Promise<IngestResponse>;
  deleteDocument(store: string, id: string): Promise<void>;
}

export interface McpOptions {
  /** svc's version, which the server reports to MCP clients. */
  version: string;
  /** Whether the writing tools (ingest_documents, delete_document) are listed and run: off unless the operator allows them. */
  allowWrites: boolean;
}
