// The client: one object per base URL and key, with stores, documents, search and health. Methods
// map one-to-one onto the operations of the OpenAPI document and use its generated types, so a
// change to the served contract shows up here as a compile error (see src/api-types.ts). Request and
// response fields keep their wire names (snake_case); options of the client itself are camelCase.
import type { Health, Liveness, SearchBatchResponse, SearchRequest, SearchResult } from '../api-types.js';
import { type CallOptions, resolveConfig, type SvcOptions } from './config.js';
import { Documents } from './documents.js';
import { Stores } from './stores.js';
import { Transport } from './transport.js';

export class Svc {
  /** The API root in use, ending in /v1. */
  readonly baseUrl: string;
  readonly stores: Stores;
  readonly documents: Documents;
  private readonly transport: Transport;

  constructor(options: SvcOptions = {}) {
    const config = resolveConfig(options);
    this.baseUrl = config.baseUrl;
    this.transport = new Transport(config);
    this.stores = new Stores(this.transport);
    this.documents = new Documents(this.transport);
  }

  /**
   * Multi-hop search. `request` is a query string or the full request ({query, max_hops,
   * max_results, return_trace, filter}). Search changes nothing, so it is retried like a GET.
   */
  async search(store: string, request: string | SearchRequest, opts?: CallOptions): Promise<SearchResult> {
    const body = typeof request === 'string' ? { query: request } : request;
    return (await this.transport.call('search', { path: { store }, body }, { ...opts, idempotent: true })).body;
  }

  /**
   * 1 to 32 searches of one store in one request (each counts against the rate limit). Resolves with
   * one entry per search, in order: its SearchResult, or `{error: {type, message, fix}}` when that
   * search failed (the others still ran). Retried like a GET.
   */
  async searchBatch(store: string, requests: Array<string | SearchRequest>, opts?: CallOptions): Promise<SearchBatchResponse['results']> {
    const searches = requests.map((r) => (typeof r === 'string' ? { query: r } : r));
    return (await this.transport.call('searchBatch', { path: { store }, body: { searches } }, { ...opts, idempotent: true })).body.results;
  }

  /** Health and readiness; resolves with `status: 'starting'` or `'stopping'` too (the server answers those with 503). */
  async health(opts?: CallOptions): Promise<Health> {
    return (await this.transport.call('health', {}, { maxAttempts: 1, ...opts })).body;
  }

  /** Liveness: resolves while the process serves requests, ready or not (readiness is `health`). */
  async livez(opts?: CallOptions): Promise<Liveness> {
    return (await this.transport.call('livez', {}, { maxAttempts: 1, ...opts })).body;
  }

  /** The OpenAPI 3.1 document the server serves. */
  async openapi(opts?: CallOptions): Promise<Record<string, unknown>> {
    return (await this.transport.call('openapi', {}, opts)).body;
  }
}
