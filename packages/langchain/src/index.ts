// SvcRetriever: svc's multi-hop search as a LangChain.js retriever. Each passage the search returns
// becomes a Document whose pageContent is the passage and whose metadata carries the document id,
// the hop that found it, its score and offsets, the document's own metadata and the search's
// confidence and hops used (the same on every Document of one search), so a chain can weigh the
// evidence or ask again. Talks to svc only through svc-client (SVC_BASE_URL and SVC_API_KEY, or
// the options); @langchain/core is a peer dependency.
import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { type Filter, type Metadata, Svc, type SvcOptions } from 'svc-client';

export interface SvcRetrieverInput extends BaseRetrieverInput {
  /** The store to search (name or id). */
  store: string;
  /** A client to use; otherwise one is made from `client` options (default: SVC_BASE_URL, SVC_API_KEY). */
  svc?: Svc;
  client?: SvcOptions;
  /** At most this many passages, 1 to 100 (server default 10). */
  maxResults?: number;
  /** At most this many hops, 1 to 8 (server default 4). */
  maxHops?: number;
  /** Only documents whose metadata matches (svc's filter language). */
  filter?: Filter;
}

/** What each Document's metadata holds. */
export interface SvcDocumentMetadata {
  doc_id: string;
  hop: number;
  score: number;
  start: number;
  end: number;
  /** The metadata of the document the passage is from. */
  metadata: Metadata;
  /** The search's calibrated probability that the passages hold all the evidence the question needs. */
  confidence: number;
  /** Hops the search used. */
  hops_used: number;
}

export class SvcRetriever extends BaseRetriever<SvcDocumentMetadata> {
  static override lc_name(): string {
    return 'SvcRetriever';
  }

  lc_namespace = ['svc', 'retrievers'];

  readonly store: string;
  readonly svc: Svc;
  maxResults?: number;
  maxHops?: number;
  filter?: Filter;

  constructor(fields: SvcRetrieverInput) {
    super(fields);
    this.store = fields.store;
    this.svc = fields.svc ?? new Svc(fields.client);
    this.maxResults = fields.maxResults;
    this.maxHops = fields.maxHops;
    this.filter = fields.filter;
  }

  override async _getRelevantDocuments(query: string, _run?: CallbackManagerForRetrieverRun): Promise<Document<SvcDocumentMetadata>[]> {
    const r = await this.svc.search(this.store, { query, max_results: this.maxResults, max_hops: this.maxHops, filter: this.filter });
    return r.passages.map(
      (p) =>
        new Document<SvcDocumentMetadata>({
          pageContent: p.text,
          id: `${p.doc_id}:${p.start}-${p.end}`,
          metadata: {
            doc_id: p.doc_id,
            hop: p.hop,
            score: p.score,
            start: p.start,
            end: p.end,
            metadata: p.metadata,
            confidence: r.confidence,
            hops_used: r.hops_used,
          },
        }),
    );
  }
}
