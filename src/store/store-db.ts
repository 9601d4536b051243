// One store = one LMDB environment in its own folder. Invariants:
// - a document's text, record (metadata, counts, order) and engine encoding are written in ONE
//   transaction, together with the idempotency record of the request that wrote them, and a write
//   resolves only after LMDB has flushed it to disk (an acknowledged write is durable);
// - `order` maps a strictly increasing sequence number to a document id: newest-first listing walks
//   it backwards, and an upsert moves the document to the front (it is the most recently ingested);
// - the store's metadata (key `store` of the root database) is written when the folder is created;
// - the live encodings are in ONE of two databases (`enc`, or `enc-b` when meta.encodings says so),
//   all made by meta.model. Re-encoding with another model stages new encodings in the other one,
//   then switches meta.model and meta.encodings in one transaction: a crash at any moment leaves
//   either the old or the new encodings complete, recorded with the model that made them;
// - every write goes through `commit`: a write the file system refuses (full, read-only) rejects
//   with a StorageError and leaves the store as it was (see storage-error.ts); `verify` checks the
//   invariants above on disk (every record has its text, encoding and order entry, and no more);
// - every write logs the documents it changed in the change log (change-log.ts), in the write's
//   own transaction; the environment's layout is store-env.ts's, whole-store reads store-walks.ts's.
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from 'lmdb';
import type { Metadata } from '../api-types.js';
import { ChangeLog } from './change-log.js';
import { LargeTexts, type TextForRanges } from './large-texts.js';
import { residentBytesByMapping } from './map-residency.js';
import { storageError } from './storage-error.js';
import { copyCompacted, livePageBytes, openDatabases, openEnvironment, type StoreDatabases, storable } from './store-env.js';
import { encodedDocs, exportDocs, listDocs, textBatches, verifyStore } from './store-walks.js';
import { sliceUtf8 } from './text-ranges.js';
import type {
  Changed,
  ChangePoint,
  DocRecord,
  DocSummary,
  EncodingsDb,
  IdempotencyRecord,
  PreparedDoc,
  StoredText,
  StoreMeta,
} from './types.js';

/** How texts and records are brought in before they are read (StoreDb.prefetchTexts for a search's, prefetchDocs for an export's). */
export const TEXT_PREFETCH = {
  /** reads in flight at once: libuv's pool has four threads by default */
  groups: 4,
  /** the longest a search waits for them before reading what is left itself */
  waitMs: 1000,
} as const;

export class StoreDb {
  readonly dir: string;
  /** The data file's real path, as /proc/self/smaps names its mapping (residentBytes) */
  private dataFile?: string;
  meta: StoreMeta;
  private readonly dbs: StoreDatabases;
  private readonly changes: ChangeLog;
  /** The large texts read lately, with their marks and some of their bytes (textReader). */
  private readonly largeTexts = new LargeTexts();
  private nextSeq: number;
  /** close() was called: no read may start on the environment's native side (prefetchTexts) */
  private closing = false;

  private constructor(dir: string) {
    this.dir = dir;
    this.dbs = openDatabases(openEnvironment(dir));
    this.changes = new ChangeLog(this.dbs.changes);
    const meta = this.dbs.root.get('store') as StoreMeta | undefined;
    if (!meta) throw new Error(`${dir} holds no store metadata`);
    this.meta = meta;
    const [last] = [...this.dbs.order.getKeys({ reverse: true, limit: 1 })];
    this.nextSeq = (last ?? 0) + 1;
  }

  /** Writes the metadata of a new store into `dir` (an empty folder), durably, and closes it. */
  static async initialise(dir: string, meta: StoreMeta): Promise<void> {
    const root = openEnvironment(dir);
    try {
      await root.put('store', meta);
      await root.flushed;
    } catch (err) {
      throw await storageError(err, dir, 'create the store');
    } finally {
      await root.close();
    }
  }

  static open(dir: string): StoreDb {
    return new StoreDb(dir);
  }

  private get encodings(): Database<Buffer, string> {
    return this.dbs.encodings[this.meta.encodings ?? 'enc'];
  }

  /** The database that holds no live encodings: where re-encoding stages new ones. */
  private get spare(): EncodingsDb {
    return (this.meta.encodings ?? 'enc') === 'enc' ? 'enc-b' : 'enc';
  }

  /** From LMDB's own count of the database's entries: O(1) (`getCount()` would read every entry, mapping the whole data file in). */
  get nDocs(): number {
    return (this.dbs.docs.getStats() as { entryCount: number }).entryCount;
  }

  /** When the last change was logged by this handle, or when it was opened (ms since the epoch). */
  get changedAt(): number {
    return this.changes.changedAt;
  }

  /** Bytes of the pages that hold live data across the store's databases. */
  sizeBytes(): number {
    return livePageBytes(this.dbs);
  }

  /** The change log's last entry (change-log.ts). */
  changePoint(): ChangePoint {
    return this.changes.point();
  }

  /** The documents changed after `point` (change-log.ts); undefined when the log does not go back to it. */
  changedSince(point: ChangePoint): Changed[] | undefined {
    return this.changes.since(point);
  }

  /** Drops the change log's entries before `at`, a batch per durable transaction. */
  async trimChanges(at: number): Promise<void> {
    await this.changes.trim(at, (fn) => this.transact(fn, 'trim the change log'));
  }

  /** Bytes of the environment's data file: live pages, free pages awaiting reuse, and the unused tail LMDB keeps. */
  fileBytes(): number {
    return fs.statSync(path.join(this.dir, 'data.mdb')).size;
  }

  /**
   * Bytes of the data file this handle holds mapped in: the pages its reads (and the writes'
   * lookups) faulted in since it was opened. `byMapping`: one reading of every mapping, for several stores.
   */
  residentBytes(byMapping = residentBytesByMapping()): number {
    if (this.dataFile === undefined) {
      const file = path.resolve(this.dir, 'data.mdb');
      try {
        this.dataFile = fs.realpathSync(file);
      } catch {
        // a path this process cannot resolve (another mount namespace's, say): compared as it is
        this.dataFile = file;
      }
    }
    return byMapping.get(this.dataFile) ?? 0;
  }

  /**
   * Writes a compacted copy of the store into `dir`, an empty folder, from one read snapshot
   * (store-env.ts). The caller keeps writes out meanwhile if the copy must hold them.
   */
  async copyCompacted(dir: string): Promise<void> {
    await copyCompacted(this.dbs.root, dir);
  }

  getDoc(id: string): DocRecord | undefined {
    return storable(id) ? this.dbs.docs.get(id) : undefined;
  }

  /** The document's live encoding (the engine's; see the module's header), or undefined when there is no such document. */
  getEncoding(id: string): Uint8Array | undefined {
    return storable(id) ? this.encodings.getBinary(id) : undefined;
  }

  getText(id: string): string | undefined {
    return storable(id) ? this.dbs.texts.get(id) : undefined;
  }

  /**
   * A reader of ranges of texts for one search: `read(id, start, end)` is `getText(id)?.slice(start,
   * end)`, each text read once per reader, and a large one not decoded whole (text-ranges.ts): its
   * marks are made on its first read and kept for the version of the document they were made from
   * (its `seq`, which every write of it renews, and its byte length), and its bytes are kept with
   * them within KEPT_TEXT_BYTES, so that the next search listing it reads no megabytes from LMDB.
   */
  textReader(): (id: string, start: number, end: number) => string | undefined {
    const read = new Map<string, TextForRanges | undefined>();
    return (id, start, end) => {
      if (!read.has(id)) read.set(id, this.readForRanges(id));
      const t = read.get(id);
      if (t === undefined) return undefined;
      return 'text' in t ? t.text.slice(start, end) : sliceUtf8(t.bytes, start, end, t.marks);
    };
  }

  /**
   * Brings the texts of `ids` into memory off the calling thread, so that reading them next
   * (textReader) waits on no disk: LMDB maps its file, and a store larger than the page cache
   * otherwise blocks the server's thread on each text a search returns. The ids are read in
   * TEXT_PREFETCH.groups groups at once (lmdb's prefetch, each on a thread of libuv's pool).
   * Only a hint, so it never fails: it resolves after TEXT_PREFETCH.waitMs at the latest (lmdb's
   * prefetch never settles after an error), what it cannot start (a closed store) it leaves to the
   * reads, and ids of no document read nothing.
   */
  async prefetchTexts(ids: Iterable<string>): Promise<void> {
    await this.prefetch([this.dbs.texts], ids);
  }

  /** prefetchTexts for the records of `ids` as well (an export reads both). */
  async prefetchDocs(ids: Iterable<string>): Promise<void> {
    await this.prefetch([this.dbs.texts, this.dbs.docs], ids);
  }

  private async prefetch(dbs: Array<{ prefetch(keys: string[]): Promise<unknown> }>, ids: Iterable<string>): Promise<void> {
    const keys = [...new Set(ids)].filter(storable);
    const groups = Math.min(TEXT_PREFETCH.groups, keys.length);
    // a prefetch on a closed environment is not refused but crashes the process (lmdb's native side)
    if (groups === 0 || this.closing) return;
    let reads: Promise<unknown>;
    try {
      const parts = Array.from({ length: groups }, (_, g) => keys.filter((_, i) => i % groups === g));
      reads = Promise.all(dbs.flatMap((db) => parts.map((part) => db.prefetch(part))));
    } catch {
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, TEXT_PREFETCH.waitMs);
    });
    await Promise.race([reads.catch(() => undefined), late]);
    clearTimeout(timer);
  }

  private readForRanges(id: string): TextForRanges | undefined {
    if (!storable(id)) return undefined;
    return this.largeTexts.read(
      id,
      () => this.dbs.docs.get(id)?.seq,
      () => this.dbs.texts.getBinary(id),
    );
  }

  /** A page of the listing, newest first (store-walks.ts listDocs). */
  listDocs(
    limit: number,
    beforeSeq?: number,
    match?: (metadata: Metadata) => boolean,
    maxScan = Number.POSITIVE_INFINITY,
  ): { docs: DocSummary[]; next?: number } {
    return listDocs(this.dbs, limit, beforeSeq, match, maxScan);
  }

  /** Every document with its metadata and encoding, in ingest order (for rebuilding the index); of `ids` only, in their order, when given. */
  encodedDocs(ids?: Iterable<string>): Generator<{ id: string; metadata: Metadata; encoding: Uint8Array }> {
    return encodedDocs(this.dbs, this.encodings, ids);
  }

  /** Every document (id, text, metadata) in ingest order, from ONE read snapshot held until the generator ends; the next documents' records and texts prefetched meanwhile (prefetchDocs). */
  exportDocs(): Generator<{ id: string; text: string; metadata: Metadata }> {
    return exportDocs(this.dbs, (ids) => void this.prefetchDocs(ids));
  }

  /** Every document's text and record, in ingest order, in batches of at most `maxDocs` documents or about `maxChars` characters. */
  textBatches(maxDocs: number, maxChars: number): Generator<StoredText[]> {
    return textBatches(this.dbs, maxDocs, maxChars);
  }

  /** Empties the spare encodings database (what an interrupted re-encode or switch left there). */
  async clearStaged(): Promise<void> {
    const spare = this.dbs.encodings[this.spare];
    await this.commit(() => spare.clearAsync(), 're-encode the store');
  }

  /** Writes encodings made by another model into the spare database; nothing live changes. */
  async stageEncodings(docs: Array<{ id: string; encoding: Uint8Array }>): Promise<void> {
    const spare = this.dbs.encodings[this.spare];
    await this.transact(() => {
      for (const d of docs) spare.put(d.id, asBuffer(d.encoding));
    }, 're-encode the store');
  }

  /**
   * Makes the staged encodings live, in one durable transaction: records `model`, `encoder` and
   * `analyzer` as what made the store's encodings, switches meta.encodings to the staged database
   * and updates the token counts that changed. Then empties the database that held the old encodings.
   */
  async commitStaged(made: { model: string; encoder: string; analyzer: string }, nTokens: Map<string, number>): Promise<void> {
    const old = this.encodings;
    const meta: StoreMeta = { ...this.meta, ...made, encodings: this.spare };
    await this.transact(() => {
      for (const [id, n] of nTokens) {
        const rec = this.dbs.docs.get(id);
        if (rec) this.dbs.docs.put(id, { ...rec, n_tokens: n });
      }
      this.dbs.root.put('store', meta);
    }, 're-encode the store');
    this.meta = meta;
    await this.commit(() => old.clearAsync(), 're-encode the store');
  }

  /**
   * Upserts `docs` and (optionally) stores the idempotency record, in one transaction, durably.
   * Returns the records written, in input order.
   */
  async writeDocs(docs: PreparedDoc[], idem?: { key: string; record: IdempotencyRecord }): Promise<DocRecord[]> {
    const now = new Date().toISOString();
    const written: DocRecord[] = [];
    const { docs: records, texts, order } = this.dbs;
    await this.transact(() => {
      for (const d of docs) {
        const old = records.get(d.id);
        if (old) order.remove(old.seq);
        const rec: DocRecord = { seq: this.nextSeq++, metadata: d.metadata, n_tokens: d.n_tokens, ingested_at: now, updated_at: now };
        records.put(d.id, rec);
        texts.put(d.id, d.text);
        this.encodings.put(d.id, asBuffer(d.encoding));
        order.put(rec.seq, d.id);
        this.changes.log(d.id, true);
        written.push(rec);
      }
      if (idem) this.dbs.idem.put(idem.key, idem.record);
    }, 'write documents');
    return written;
  }

  /** Removes a document with its text and encoding, durably. False when it did not exist. */
  async deleteDoc(id: string): Promise<boolean> {
    return (await this.deleteDocs([id])).length === 1;
  }

  /** Removes documents with their texts and encodings in one durable transaction; returns the ids that existed. */
  async deleteDocs(ids: string[]): Promise<string[]> {
    const { docs: records, texts, order } = this.dbs;
    return this.transact(
      () => {
        const deleted: string[] = [];
        for (const id of ids) {
          const old = storable(id) ? records.get(id) : undefined;
          if (!old) continue;
          order.remove(old.seq);
          records.remove(id);
          texts.remove(id);
          this.encodings.remove(id);
          this.changes.log(id, false);
          deleted.push(id);
        }
        return deleted;
      },
      ids.length === 1 ? 'delete the document' : 'delete documents',
    );
  }

  /**
   * Replaces a document's metadata and sets its updated_at, and with `encoded` its encoding and
   * token count too (made again from its stored text: its title changed), in one durable
   * transaction; its text, seq (its place in the listing) and ingested_at stay. Undefined when
   * there is no such document.
   */
  async setMetadata(id: string, metadata: Metadata, encoded?: { encoding: Uint8Array; nTokens: number }): Promise<DocRecord | undefined> {
    if (!storable(id)) return undefined;
    const records = this.dbs.docs;
    return this.transact(() => {
      const old = records.get(id);
      if (!old) return undefined;
      const rec: DocRecord = { ...old, metadata, updated_at: new Date().toISOString(), ...(encoded ? { n_tokens: encoded.nTokens } : {}) };
      records.put(id, rec);
      if (encoded) this.encodings.put(id, asBuffer(encoded.encoding));
      this.changes.log(id, encoded !== undefined);
      return rec;
    }, 'update the metadata');
  }

  getIdempotency(key: string): IdempotencyRecord | undefined {
    return this.dbs.idem.get(key);
  }

  /** Drops idempotency records older than `maxAgeMs`. */
  async pruneIdempotency(maxAgeMs: number): Promise<number> {
    const cutoff = Date.now() - maxAgeMs;
    const { idem } = this.dbs;
    let n = 0;
    await this.transact(() => {
      for (const { key, value } of idem.getRange({})) {
        if (value.created_at < cutoff) {
          idem.remove(key);
          n++;
        }
      }
    }, 'prune idempotency records');
    return n;
  }

  /** The problems found on disk against the module's invariants (store-walks.ts verifyStore); none for a sound store. */
  verify(): string[] {
    return verifyStore(this.dbs, this.encodings);
  }

  /** Runs `fn` as one transaction and waits until it is on disk; storage faults become StorageError. */
  private transact<T>(fn: () => T, action: string): Promise<T> {
    return this.commit(() => this.dbs.root.transaction(fn), action);
  }

  private async commit<T>(write: () => Promise<T>, action: string): Promise<T> {
    try {
      const result = await write();
      await this.dbs.root.flushed;
      return result;
    } catch (err) {
      throw await storageError(err, this.dir, action);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.dbs.root.close();
  }
}

/** An encoding as the Buffer LMDB's binary databases take, sharing its bytes. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
