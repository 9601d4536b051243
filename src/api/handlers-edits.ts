// Edits that leave documents' texts alone: a metadata update (PATCH one document; one that changes
// its `title` encodes it again from its stored text, as the engine reads a title into every
// passage) and deleting many documents at once (by filter or by ids). Both write under the store's
// write lock, in one durable transaction, then update the index before the reply: a search or
// filter sees the change when the call returns, and a retry finds nothing more to do (the same
// metadata; 0 deleted).
import type { Metadata } from '../api-types.js';
import { ApiError } from '../errors.js';
import type { DocRecord } from '../store/index.js';
import type { Handler } from './context.js';
import { engineTurn } from './fair-gate.js';
import { checkFilter } from './filter-check.js';
import { checkWellFormed, missing, registry404, summary } from './handlers-documents.js';
import { LIMITS } from './schemas.js';

/** The document's metadata with the patch merged in (null removes a key); a 400 past LIMITS.metadataKeys. */
function merge(old: Metadata, patch: Record<string, unknown>): Metadata {
  const merged: Metadata = { ...old };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete merged[k];
    else merged[k] = v as Metadata[string];
  }
  const n = Object.keys(merged).length;
  if (n > LIMITS.metadataKeys) {
    throw new ApiError('invalid_request', `the document's metadata would have ${n} keys, over ${LIMITS.metadataKeys}`, {
      fix: `Remove keys (set them to null) in the same request so that at most ${LIMITS.metadataKeys} remain.`,
    });
  }
  return merged;
}

/** Whether a metadata change changes what the engine titles the document by (its `title`), so that it must be encoded again. */
const retitles = (old: Metadata, merged: Metadata) => JSON.stringify(old.title) !== JSON.stringify(merged.title);

export const patchDocument: Handler<'patchDocument'> = async (ctx) => {
  const store = ctx.services.registry.get(ctx.project, ctx.params.store);
  const { id } = ctx.params;
  const patch = ctx.body.metadata;
  checkWellFormed([...Object.keys(patch), ...Object.values(patch).filter((v): v is string => typeof v === 'string')], 'body.metadata');
  // A new title is read into the document's passages (their title terms, its sections): the
  // document is encoded again from its stored text, outside the lock as an ingest is, and written
  // with the metadata only if the document did not change meanwhile (else it is encoded again).
  for (;;) {
    const seen = store.db.getDoc(id);
    if (!seen) throw missing(id, ctx.params.store);
    const merged = merge(seen.metadata, patch);
    const text = retitles(seen.metadata, merged) ? store.db.getText(id) : undefined;
    const batch =
      text === undefined ? undefined : await engineTurn(ctx, () => ctx.services.engine.encode([{ id, text, metadata: merged }]));
    const rec = await store.lock.run(async () => {
      if (store.closed) registry404(ctx);
      const old = store.db.getDoc(id);
      if (!old) throw missing(id, ctx.params.store);
      if (old.seq !== seen.seq || JSON.stringify(old.metadata) !== JSON.stringify(seen.metadata)) return undefined;
      if (!batch) {
        const written = await store.db.setMetadata(id, merged);
        if (!written) throw missing(id, ctx.params.store);
        store.index.setMetadata(id, merged);
        return written;
      }
      // the engine memory the new rows take is set aside first, as for an ingest
      store.index.reserve(batch);
      let written: DocRecord | undefined;
      try {
        written = await store.db.setMetadata(id, merged, batch.docs[0]);
      } catch (err) {
        store.index.release(batch);
        throw err;
      }
      if (!written) {
        store.index.release(batch);
        throw missing(id, ctx.params.store);
      }
      store.index.apply(batch);
      return written;
    });
    if (rec) return { status: 200, body: summary(id, rec) };
  }
};

export const deleteDocuments: Handler<'deleteDocuments'> = async (ctx) => {
  const store = ctx.services.registry.get(ctx.project, ctx.params.store);
  const { filter, ids } = ctx.body;
  checkFilter(filter, 'body.filter');
  const deleted = await store.lock.run(async () => {
    if (store.closed) registry404(ctx);
    const gone = await store.db.deleteDocs(ids ?? store.index.idsMatching(filter!));
    for (const id of gone) store.index.remove(id);
    return gone.length;
  });
  return { status: 200, body: { deleted } };
};
