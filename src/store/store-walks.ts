// Reads that walk a whole store (or a page of it) in the order of its `order` database: the listing,
// the index's rebuild, the export, re-encoding's batches, and the check of the store's invariants.
// Invariants: nothing here writes; `live` is the database of the live encodings (StoreDb's); an
// export reads from ONE read transaction, the others from the latest committed state at each read.
import type { Database } from 'lmdb';
import type { Metadata } from '../api-types.js';
import { type StoreDatabases, storable } from './store-env.js';
import type { DocSummary, StoredText } from './types.js';

/**
 * Newest first; `beforeSeq` is exclusive (the cursor of the previous page). With `match`, only the
 * documents whose metadata it accepts, reading at most `maxScan` documents. `next` is the seq to
 * pass as the next page's `beforeSeq`, undefined when nothing is left to read.
 */
export function listDocs(
  dbs: StoreDatabases,
  limit: number,
  beforeSeq?: number,
  match?: (metadata: Metadata) => boolean,
  maxScan = Number.POSITIVE_INFINITY,
): { docs: DocSummary[]; next?: number } {
  const docs: DocSummary[] = [];
  let scanned = 0;
  let last: number | undefined;
  for (const { key, value: id } of dbs.order.getRange({ reverse: true, start: beforeSeq === undefined ? undefined : beforeSeq - 1 })) {
    if (docs.length === limit || scanned === maxScan) return { docs, next: last };
    scanned++;
    last = key;
    const rec = dbs.docs.get(id);
    if (rec && rec.seq === key && (!match || match(rec.metadata))) docs.push({ id, ...rec });
  }
  return { docs };
}

/** Every document with its metadata and live encoding, in ingest order; of `ids` only, in their order, when given. */
export function* encodedDocs(
  dbs: StoreDatabases,
  live: Database<Buffer, string>,
  ids?: Iterable<string>,
): Generator<{ id: string; metadata: Metadata; encoding: Uint8Array }> {
  for (const id of ids ?? dbs.order.getRange({}).map(({ value }) => value)) {
    const rec = storable(id) ? dbs.docs.get(id) : undefined;
    const enc = rec && live.getBinary(id);
    if (rec && enc) yield { id, metadata: rec.metadata, encoding: enc };
  }
}

/** Documents an export reads ahead of the ones it yields, handing their ids to its `prefetch`. */
export const EXPORT_AHEAD = 256;

/**
 * Every document (id, text, metadata) in ingest order, read from ONE read transaction: what
 * commits while it is read is not seen, whatever the pace of the reader. The snapshot is held
 * until the generator finishes or is returned (a `for…of` that breaks does that). `prefetch`, a
 * hint that must not throw, gets the ids of the next EXPORT_AHEAD documents while these are read:
 * a store read without readahead (store-env.ts READ_AT_RANDOM) is read a page at a time otherwise.
 */
export function* exportDocs(
  dbs: StoreDatabases,
  prefetch?: (ids: string[]) => void,
): Generator<{ id: string; text: string; metadata: Metadata }> {
  const transaction = dbs.root.useReadTransaction();
  // a range is lazy: nothing is read (nor can fail) before the first next()
  const ids = dbs.order
    .getRange({ transaction })
    .map(({ value }) => value)
    [Symbol.iterator]();
  try {
    const take = (): string[] => {
      const out: string[] = [];
      while (out.length < EXPORT_AHEAD) {
        const r = ids.next();
        if (r.done) break;
        out.push(r.value);
      }
      return out;
    };
    // the next batch's records and texts are brought in (on other threads) while this one is read
    let next = take();
    prefetch?.(next);
    while (next.length) {
      const batch = next;
      next = take();
      if (next.length) prefetch?.(next);
      for (const id of batch) {
        const rec = dbs.docs.get(id, { transaction });
        const text = dbs.texts.get(id, { transaction });
        if (rec && text !== undefined) yield { id, text, metadata: rec.metadata };
      }
    }
  } finally {
    // an export its client left (the generator returned early) closes its cursor too
    ids.return?.();
    transaction.done();
  }
}

/** Every document's text and record, in ingest order, in batches of at most `maxDocs` documents or about `maxChars` characters. */
export function* textBatches(dbs: StoreDatabases, maxDocs: number, maxChars: number): Generator<StoredText[]> {
  let after = 0;
  for (;;) {
    const batch: StoredText[] = [];
    let chars = 0;
    let last = after;
    for (const { key, value: id } of dbs.order.getRange({ start: after + 1, limit: maxDocs })) {
      last = key;
      const rec = dbs.docs.get(id);
      const text = dbs.texts.get(id);
      if (rec && text !== undefined) batch.push({ id, text, metadata: rec.metadata, n_tokens: rec.n_tokens });
      chars += text?.length ?? 0;
      if (chars >= maxChars) break;
    }
    if (last === after) return;
    if (batch.length) yield batch;
    after = last;
  }
}

/**
 * The store's invariants on disk: every document record has its text, its live encoding and the
 * order entry of its seq; every text, encoding and order entry belongs to a record. Returns the
 * problems found (none for a sound store).
 */
export function verifyStore(dbs: StoreDatabases, live: Database<Buffer, string>): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const { key: id, value: rec } of dbs.docs.getRange({})) {
    ids.add(id);
    if (dbs.texts.get(id) === undefined) problems.push(`document '${id}' has no text`);
    if (!live.getBinary(id)) problems.push(`document '${id}' has no encoding`);
    if (dbs.order.get(rec.seq) !== id) problems.push(`document '${id}' is missing from the order at seq ${rec.seq}`);
  }
  for (const { key: seq, value: id } of dbs.order.getRange({})) {
    if (dbs.docs.get(id)?.seq !== seq) problems.push(`order entry ${seq} names '${id}', which is not the document at that seq`);
  }
  for (const id of dbs.texts.getKeys({})) if (!ids.has(id)) problems.push(`text of '${id}' has no document record`);
  for (const id of live.getKeys({})) if (!ids.has(id)) problems.push(`encoding of '${id}' has no document record`);
  return problems;
}
