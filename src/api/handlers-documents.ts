// Document endpoints. Ingest is an upsert: the engine encodes the batch in its workers (outside the
// store's write lock), then, under the lock, the engine memory its segments take is set aside (507
// engine_memory_full, nothing written, when it is not there), the texts, records, encodings and the
// idempotency record are written in one durable transaction and the index is updated before the
// reply, so a document is searchable when the call returns. An Idempotency-Key replay returns the stored reply.
import { createHash } from 'node:crypto';
import type { DocumentInfo, DocumentInput, DocumentSummary, IngestResponse } from '../api-types.js';
import { compileFilter } from '../engine/index.js';
import { ApiError } from '../errors.js';
import type { DocRecord, PreparedDoc } from '../store/index.js';
import type { BodyTooLargeError } from './body.js';
import type { Handler, Reply, Services } from './context.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { engineTurn } from './fair-gate.js';
import { checkFilter } from './filter-check.js';
import { LIMITS } from './schemas.js';

const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** Checks what the schema cannot state: distinct ids, ids of at most 512 bytes, well-formed strings. */
function checkDocuments(docs: DocumentInput[]): void {
  const seen = new Set<string>();
  docs.forEach((d, i) => {
    const where = `body.documents[${i}]`;
    if (seen.has(d.id)) {
      throw new ApiError('invalid_request', `${where}.id '${d.id}' appears twice in the request`, {
        fix: 'Send each document id once per request; the later copy would overwrite the earlier.',
      });
    }
    seen.add(d.id);
    if (Buffer.byteLength(d.id) > LIMITS.docIdBytes) {
      throw new ApiError('invalid_request', `${where}.id is ${Buffer.byteLength(d.id)} bytes of UTF-8`, {
        fix: `Use document ids of 1 to ${LIMITS.docIdBytes} bytes.`,
      });
    }
    const strings = [
      d.id,
      d.text ?? '',
      ...Object.keys(d.metadata ?? {}),
      ...Object.values(d.metadata ?? {}).filter((v): v is string => typeof v === 'string'),
    ];
    checkWellFormed(strings, where);
  });
}

/** Refuses a lone UTF-16 surrogate in any of `strings` (it could not be stored as sent). */
export function checkWellFormed(strings: string[], where: string): void {
  if (!strings.every((s) => s.isWellFormed())) {
    throw new ApiError('invalid_request', `${where} contains a lone UTF-16 surrogate (\\ud800-\\udfff escape without its pair)`, {
      fix: 'Send well-formed Unicode text; escape characters outside the BMP as surrogate pairs.',
    });
  }
}

/** The 413 for an ingest body over 32 MB, naming the largest documents when the body could be parsed. */
export function ingestTooLarge(err: BodyTooLargeError): ApiError {
  const limit = mb(LIMITS.requestBytes);
  const docs = (err.parsed as { documents?: unknown } | undefined)?.documents;
  let detail = '';
  if (Array.isArray(docs)) {
    const sizes = docs
      .filter((d): d is { id: unknown } => typeof d === 'object' && d !== null)
      .map((d) => ({ id: String(d.id), bytes: Buffer.byteLength(JSON.stringify(d)) }))
      .sort((a, b) => b.bytes - a.bytes);
    const single = sizes.find((s) => s.bytes > LIMITS.requestBytes);
    if (single) {
      return new ApiError('document_too_large', `document '${single.id}' is ${mb(single.bytes)}, over the ${limit} per-request limit`, {
        fix: `A document must fit in one request of at most ${limit}: split '${single.id}' into several documents.`,
      });
    }
    detail = `; largest documents: ${sizes
      .slice(0, 3)
      .map((s) => `'${s.id}' (${mb(s.bytes)})`)
      .join(', ')}`;
  }
  const size = err.complete ? mb(err.bytes) : `over ${mb(err.bytes - 1)}`;
  return new ApiError('document_too_large', `the request body is ${size}, over the ${limit} per-request limit${detail}`, {
    fix: `Split the batch into requests of at most ${limit} and ${LIMITS.docsPerRequest} documents, or use the client library streaming ingest (documents.ingestStream).`,
  });
}

export const ingestDocuments: Handler<'ingestDocuments'> = async (ctx) => {
  const { registry, engine } = ctx.services;
  const store = registry.get(ctx.project, ctx.params.store);
  const docs = ctx.body.documents;
  checkDocuments(docs);
  const key = ctx.headers['idempotency-key'];
  const hash = key ? createHash('sha256').update(JSON.stringify(ctx.body)).digest('hex') : '';
  const replay = (): Reply<'ingestDocuments'> | undefined => {
    const rec = key ? store.db.getIdempotency(key) : undefined;
    if (!rec || Date.now() - rec.created_at > IDEMPOTENCY_TTL_MS) return undefined;
    if (rec.hash !== hash) {
      throw new ApiError('idempotency_key_reused', `Idempotency-Key '${key}' was used for a different request body on this store`, {
        fix: 'Use a new Idempotency-Key for a new request; resend the original body unchanged to get the original response.',
      });
    }
    // The record holds the reply this operation wrote below (the store keeps it as opaque JSON).
    return { status: rec.status, body: rec.body as IngestResponse, headers: { 'Idempotent-Replayed': 'true' } };
  };
  const early = replay();
  if (early) return early;

  // Documents sent as content (issue 7): their text is extracted (PDF) or transcribed (images) first.
  const texts = docs.some((d) => d.content) ? await ctx.services.enrichment.extractor.texts(docs) : docs.map((d) => d.text!);
  const batch = await engineTurn(ctx, () => engine.encode(docs.map((d, i) => ({ id: d.id, text: texts[i], metadata: d.metadata }))));
  const prepared: PreparedDoc[] = docs.map((d, i) => ({
    id: d.id,
    text: texts[i],
    metadata: d.metadata ?? {},
    n_tokens: batch.docs[i].nTokens,
    encoding: batch.docs[i].encoding,
  }));
  const body: IngestResponse = { ingested: docs.length, doc_ids: docs.map((d) => d.id) };
  return store.lock.run(async () => {
    if (store.closed) registry404(ctx);
    const late = replay();
    if (late) return late;
    const idem = key ? { key, record: { hash, status: 200, body, created_at: Date.now() } } : undefined;
    // the engine memory the batch takes is set aside first: a batch that cannot be indexed is not written
    store.index.reserve(batch);
    try {
      await store.db.writeDocs(prepared, idem);
    } catch (err) {
      store.index.release(batch);
      throw err;
    }
    ctx.services.metrics?.documentsIngested(prepared.length);
    store.index.apply(batch);
    return { status: 200, body };
  });
};

type DocPos = number;
const isDocPos = (p: unknown): p is DocPos => Number.isSafeInteger(p) && (p as number) > 0;

/** A document record as the API shows it (records written before updated_at existed read it as ingested_at). */
export function summary(id: string, rec: DocRecord): DocumentSummary {
  return {
    id,
    metadata: rec.metadata,
    n_tokens: rec.n_tokens,
    ingested_at: rec.ingested_at,
    updated_at: rec.updated_at ?? rec.ingested_at,
  };
}

export const listDocuments: Handler<'listDocuments'> = (ctx) => {
  const store = ctx.services.registry.get(ctx.project, ctx.params.store);
  const before = decodeCursor('docs', ctx.query.cursor, isDocPos);
  const filter = ctx.query.filter;
  checkFilter(filter, 'query.filter');
  const match = filter && Object.keys(filter).length ? compileFilter(filter) : undefined;
  const { docs, next } = store.db.listDocs(ctx.query.limit, before, match, match ? LIMITS.listScan : undefined);
  return {
    status: 200,
    body: {
      documents: docs.map((d) => summary(d.id, d)),
      next_cursor: next === undefined ? null : encodeCursor('docs', next),
    },
  };
};

export function missing(id: string, store: string): ApiError {
  return new ApiError('document_not_found', `no document with id '${id}' in store '${store}'`, {
    fix: `List documents with GET /v1/stores/${store}/documents, or ingest it with POST /v1/stores/${store}/documents.`,
  });
}

export const getDocument: Handler<'getDocument'> = async (ctx) => {
  const store = ctx.services.registry.get(ctx.project, ctx.params.store);
  const rec = store.db.getDoc(ctx.params.id);
  if (!rec) throw missing(ctx.params.id, ctx.params.store);
  const body: DocumentInfo = summary(ctx.params.id, rec);
  if (ctx.query.include_text) body.text = store.db.getText(ctx.params.id) ?? '';
  if (ctx.query.include_passages) {
    // the passages the engine cut the document into, read from its encoding: a search returns these
    const encoding = store.db.getEncoding(ctx.params.id);
    body.passages = encoding ? ctx.services.engine.passagesOf(encoding) : [];
  }
  return { status: 200, body };
};

export const deleteDocument: Handler<'deleteDocument'> = async (ctx) => {
  const store = ctx.services.registry.get(ctx.project, ctx.params.store);
  const removed = await store.lock.run(async () => {
    if (store.closed) registry404(ctx);
    const ok = await store.db.deleteDoc(ctx.params.id);
    if (ok) store.index.remove(ctx.params.id);
    return ok;
  });
  if (!removed) throw missing(ctx.params.id, ctx.params.store);
  return { status: 204 };
};

export function registry404(ctx: { project: string; params: { store: string }; services: Services }): never {
  ctx.services.registry.get(ctx.project, ctx.params.store);
  throw new Error('unreachable: a closed store is not in the registry');
}

/** Drops a store's expired idempotency records (the server does it periodically, under a lease of each open store). */
export async function pruneIdempotency(store: { db: { pruneIdempotency(ms: number): Promise<number> } }): Promise<void> {
  await store.db.pruneIdempotency(IDEMPOTENCY_TTL_MS);
}

export const exportDocuments: Handler<'exportDocuments'> = (ctx) => {
  const store = ctx.services.registry.get(ctx.project, ctx.params.store);
  return { status: 200, lines: store.db.exportDocs() };
};
