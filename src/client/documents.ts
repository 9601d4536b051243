// Document operations. ingest() sends an Idempotency-Key unless told not to (a fresh random one by
// default), which makes the call safe to retry: a repeat is answered from the server's record
// instead of being applied again. Document ids are path-encoded by the transport, so any id works.
import type {
  DocumentInfo,
  DocumentInput,
  DocumentList,
  DocumentSummary,
  ExportedDocument,
  Filter,
  IngestResponse,
  MetadataValue,
} from '../api-types.js';
import type { CallOptions } from './config.js';
import { type IngestStreamOptions, type IngestTotals, ingestStream } from './ingest-stream.js';
import { type ListOptions, paginate } from './paginate.js';
import type { Transport } from './transport.js';
import { randomId } from './web.js';

export interface IngestOptions extends CallOptions {
  /**
   * The request's Idempotency-Key (1 to 255 printable ASCII characters). Default: a fresh random
   * key, so retries never apply the batch twice. `false` sends none; the call is then not retried.
   */
  idempotencyKey?: string | false;
}

export interface IngestResult extends IngestResponse {
  /** True when the server answered from an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

export interface ListDocumentsOptions extends ListOptions {
  /** Only the documents this filter matches (a page may then hold fewer than `limit`). */
  filter?: Filter;
}

export interface GetDocumentOptions extends CallOptions {
  /** Include the full text (default false). */
  include_text?: boolean;
  /** Include the offsets of the passages the document was cut into (default false). */
  include_passages?: boolean;
}

export class Documents {
  constructor(private readonly transport: Transport) {}

  /** Upserts 1 to 1000 documents (at most 32 MB in all); they are searchable when this resolves. */
  async ingest(store: string, documents: DocumentInput[], opts: IngestOptions = {}): Promise<IngestResult> {
    const { idempotencyKey, ...call } = opts;
    const key = idempotencyKey === false ? undefined : (idempotencyKey ?? `ingest-${randomId()}`);
    const reply = await this.transport.call(
      'ingestDocuments',
      { path: { store }, headers: key === undefined ? {} : { 'Idempotency-Key': key }, body: { documents } },
      call,
    );
    return { ...reply.body, replayed: reply.headers.get('idempotent-replayed') === 'true' };
  }

  /**
   * Ingests any number of documents from an (async) iterable in batches of at most 1000 documents
   * and 32 MB, several at a time, each with its own Idempotency-Key. See ingest-stream.ts.
   */
  ingestStream(
    store: string,
    documents: AsyncIterable<DocumentInput> | Iterable<DocumentInput>,
    opts?: IngestStreamOptions,
  ): Promise<IngestTotals> {
    return ingestStream(this.transport, store, documents, opts);
  }

  /** One page of documents, most recently ingested first (with `filter`, of those it matches). */
  async list(store: string, opts: ListDocumentsOptions = {}): Promise<DocumentList> {
    const { limit, cursor, filter, ...call } = opts;
    return (await this.transport.call('listDocuments', { path: { store }, query: { limit, cursor, filter } }, call)).body;
  }

  /** Every document of the store (with `filter`, every one it matches), most recently ingested first, a page at a time. */
  iterate(store: string, opts: Omit<ListDocumentsOptions, 'cursor'> = {}): AsyncGenerator<DocumentSummary, void, undefined> {
    return paginate(async (cursor) => {
      const page = await this.list(store, { ...opts, cursor });
      return { items: page.documents, next: page.next_cursor };
    });
  }

  /**
   * Every document of the store (id, text, metadata), in ingest order, from one consistent snapshot
   * of the server's: writes that land while it is read are not in it. Streamed: documents arrive as
   * the server sends them, with no deadline; `signal` stops it. The lines are what `ingest` and
   * `ingestStream` take back.
   */
  async *export(store: string, opts: Pick<CallOptions, 'signal'> = {}): AsyncGenerator<ExportedDocument, void, undefined> {
    const res = (await this.transport.call('exportDocuments', { path: { store } }, { ...opts, raw: true })).body as unknown as Response;
    if (!res.body) return;
    const decoder = new TextDecoder();
    let rest = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      rest += decoder.decode(chunk, { stream: true });
      const lines = rest.split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line) yield JSON.parse(line) as ExportedDocument;
    }
    rest += decoder.decode();
    if (rest) yield JSON.parse(rest) as ExportedDocument;
  }

  /** A document's id, metadata, token count and ingestion time; its text with include_text, its passages' offsets with include_passages. */
  async get(store: string, id: string, opts: GetDocumentOptions = {}): Promise<DocumentInfo> {
    const { include_text, include_passages, ...call } = opts;
    return (await this.transport.call('getDocument', { path: { store, id }, query: { include_text, include_passages } }, call)).body;
  }

  /** Deletes a document and its encoding. */
  async delete(store: string, id: string, opts?: CallOptions): Promise<void> {
    await this.transport.call('deleteDocument', { path: { store, id } }, { ...opts, goneType: 'document_not_found' });
  }

  /**
   * Deletes, in one transaction, every document a filter matches (`{filter}`) or those of 1 to 1000
   * ids (`{ids}`; ids not in the store are skipped). Resolves with how many were deleted. Retried
   * like a GET: a repeat deletes nothing more (after a lost reply it reports 0).
   */
  async deleteMany(store: string, which: { filter: Filter } | { ids: string[] }, opts?: CallOptions): Promise<number> {
    return (await this.transport.call('deleteDocuments', { path: { store }, body: which }, { ...opts, idempotent: true })).body.deleted;
  }

  /** Merges keys into a document's metadata (null removes a key; a change of `title` re-encodes it from its stored text); resolves with the document. Retried: a merge applied twice is applied once. */
  async patch(store: string, id: string, metadata: Record<string, MetadataValue | null>, opts?: CallOptions): Promise<DocumentInfo> {
    return (await this.transport.call('patchDocument', { path: { store, id }, body: { metadata } }, { ...opts, idempotent: true })).body;
  }
}
