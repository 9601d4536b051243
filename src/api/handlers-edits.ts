// Edits that leave documents' texts alone: a metadata update (PATCH one document) and deleting
// many documents at once (by filter or by ids). Both run under the store's write lock, write one
// durable transaction, then update the index before the reply: a search or filter sees the change
// when the call returns, and a retry finds nothing more to do (the same metadata; 0 deleted).
import type { Metadata } from '../api-types.js';
import { ApiError } from '../errors.js';
import type { Handler } from './context.js';
import { checkFilter } from './filter-check.js';
import { checkWellFormed, missing, registry404, summary } from './handlers-documents.js';
import { LIMITS } from './schemas.js';

export const patchDocument: Handler<'patchDocument'> = async (ctx) => {
  const store = ctx.services.registry.get(ctx.project, ctx.params.store);
  const { id } = ctx.params;
  const patch = ctx.body.metadata;
  checkWellFormed([...Object.keys(patch), ...Object.values(patch).filter((v): v is string => typeof v === 'string')], 'body.metadata');
  const rec = await store.lock.run(async () => {
    if (store.closed) registry404(ctx);
    const old = store.db.getDoc(id);
    if (!old) throw missing(id, ctx.params.store);
    const merged: Metadata = { ...old.metadata };
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete merged[k];
      else merged[k] = v;
    }
    const n = Object.keys(merged).length;
    if (n > LIMITS.metadataKeys) {
      throw new ApiError('invalid_request', `the document's metadata would have ${n} keys, over ${LIMITS.metadataKeys}`, {
        fix: `Remove keys (set them to null) in the same request so that at most ${LIMITS.metadataKeys} remain.`,
      });
    }
    const written = await store.db.setMetadata(id, merged);
    if (!written) throw missing(id, ctx.params.store);
    store.index.setMetadata(id, merged);
    return written;
  });
  return { status: 200, body: summary(id, rec) };
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
