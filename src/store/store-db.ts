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
// - `changes` logs, in the transaction of each write, the id of every document it wrote, deleted
//   or whose metadata it changed (and whether its passages changed), under a strictly increasing
//   key: an index persisted at one key (index-snapshot.ts) is brought up to date by the documents
//   named after it. Entries before the last persisted index's are trimmed; the last entry is never
//   trimmed, so keys never repeat.
import fs from 'node:fs';
import path from 'node:path';
import { type Database, type Key, open, type RootDatabase } from 'lmdb';
import type { Metadata } from '../api-types.js';
import { fsyncDir, fsyncFile } from '../fsync.js';
import { LargeTexts, type TextForRanges } from './large-texts.js';
import { residentBytesByMapping } from './map-residency.js';
import { storageError } from './storage-error.js';
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

const MAP_SIZE = 64 * 1024 ** 3; // address space only; the file grows with the data
// eventTurnBatching off: with it, lmdb-js leaves an internal promise of a failed commit unobserved,
// and Node stops the process on that unhandled rejection (a full disk would kill the server).
const ENV_OPTIONS = { maxDbs: 8, mapSize: MAP_SIZE, eventTurnBatching: false };
/** LMDB's largest key (lmdb-js builds it with 1978 bytes); a longer id cannot be stored, so it is absent. */
const MAX_KEY_BYTES = 1978;
const storable = (id: string) => Buffer.byteLength(id) <= MAX_KEY_BYTES;

/** The named databases of a store's environment, with how each encodes its keys and values. */
const DATABASES = {
  docs: {},
  text: { encoding: 'string' },
  enc: { encoding: 'binary' },
  'enc-b': { encoding: 'binary' },
  order: { keyEncoding: 'uint32', encoding: 'string' },
  idem: {},
  changes: { keyEncoding: 'uint32', encoding: 'string' },
} as const;
type DatabaseName = keyof typeof DATABASES;

const openDatabase = (root: RootDatabase, name: DatabaseName) => root.openDB<unknown, Key>(name, { ...DATABASES[name] });

/** The first character of a change-log entry: the document's passages changed, or something else of it (metadata, presence). */
const CHANGE = { rows: 'w', other: 'm' } as const;

/** Entries a compaction's copy writes, or a trim of the change log removes, per write transaction (each yields to the event loop between them). */
const COPY_BATCH = 2000;

export class StoreDb {
  readonly dir: string;
  /** The data file's real path, as /proc/self/smaps names its mapping (residentBytes) */
  private dataFile?: string;
  meta: StoreMeta;
  private readonly root: RootDatabase;
  private readonly docs: Database<DocRecord, string>;
  /** The large texts read lately, with their marks and some of their bytes (textReader). */
  private readonly largeTexts = new LargeTexts();
  private readonly texts: Database<string, string>;
  private readonly encodingDbs: Record<EncodingsDb, Database<Buffer, string>>;
  private readonly order: Database<string, number>;
  private readonly idem: Database<IdempotencyRecord, string>;
  private readonly changes: Database<string, number>;
  private nextSeq: number;
  /** The change log's next key: found at the first change (a handle opened only to read maps none of the log in). */
  private nextChange?: number;
  /** When the last change was logged by this handle, or when it was opened (ms since the epoch). */
  changedAt = Date.now();

  private constructor(dir: string) {
    this.dir = dir;
    this.root = open({ path: dir, ...ENV_OPTIONS });
    this.docs = openDatabase(this.root, 'docs') as Database<DocRecord, string>;
    this.texts = openDatabase(this.root, 'text') as Database<string, string>;
    this.encodingDbs = {
      enc: openDatabase(this.root, 'enc') as Database<Buffer, string>,
      'enc-b': openDatabase(this.root, 'enc-b') as Database<Buffer, string>,
    };
    this.order = openDatabase(this.root, 'order') as Database<string, number>;
    this.idem = openDatabase(this.root, 'idem') as Database<IdempotencyRecord, string>;
    this.changes = openDatabase(this.root, 'changes') as Database<string, number>;
    const meta = this.root.get('store') as StoreMeta | undefined;
    if (!meta) throw new Error(`${dir} holds no store metadata`);
    this.meta = meta;
    const [last] = [...this.order.getKeys({ reverse: true, limit: 1 })];
    this.nextSeq = (last ?? 0) + 1;
  }

  /** Writes the metadata of a new store into `dir` (an empty folder), durably, and closes it. */
  static async initialise(dir: string, meta: StoreMeta): Promise<void> {
    const root = open({ path: dir, ...ENV_OPTIONS });
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
    return this.encodingDbs[this.meta.encodings ?? 'enc'];
  }

  /** The database that holds no live encodings: where re-encoding stages new ones. */
  private get spare(): EncodingsDb {
    return (this.meta.encodings ?? 'enc') === 'enc' ? 'enc-b' : 'enc';
  }

  /** From LMDB's own count of the database's entries: O(1) (`getCount()` would read every entry, mapping the whole data file in). */
  get nDocs(): number {
    return (this.docs.getStats() as { entryCount: number }).entryCount;
  }

  /** Bytes of the pages that hold live data across the store's databases. */
  sizeBytes(): number {
    let pages = 0;
    let pageSize = 4096;
    for (const db of [
      this.root,
      this.docs,
      this.texts,
      this.encodingDbs.enc,
      this.encodingDbs['enc-b'],
      this.order,
      this.idem,
      this.changes,
    ] as Database[]) {
      const s = db.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number };
      pageSize = s.pageSize;
      pages += s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages;
    }
    return pages * pageSize;
  }

  /** The change log's last entry: its key and value ({at: 0, entry: ''} while the log is empty). */
  changePoint(): ChangePoint {
    for (const { key, value } of this.changes.getRange({ reverse: true, limit: 1 })) return { at: key, entry: value };
    return { at: 0, entry: '' };
  }

  /**
   * The documents changed after `point`, each once: `rows` when it was written since (its passages
   * may have changed: ingested, or given a title that changed its encoding), else only its metadata
   * changed or it was deleted; in the order of its last write (of its last change when it has none).
   * Undefined when the log does not go back to `point` as it was (trimmed past it, or another entry
   * or none at its key: a database restored from another time).
   */
  changedSince(point: ChangePoint): Changed[] | undefined {
    if (point.at > 0 && this.changes.get(point.at) !== point.entry) return undefined;
    if (point.at === 0) {
      const [first] = [...this.changes.getKeys({ limit: 1 })];
      if (first !== undefined && first !== 1) return undefined;
    }
    const byId = new Map<string, { rows: boolean; key: number }>();
    for (const { key, value } of this.changes.getRange({ start: point.at + 1 })) {
      const id = value.slice(1);
      // a write places the document at its key; a later change of its metadata or presence does not
      if (value[0] === CHANGE.rows) byId.set(id, { rows: true, key });
      else if (!byId.get(id)?.rows) byId.set(id, { rows: false, key });
    }
    return [...byId].sort((a, b) => a[1].key - b[1].key).map(([id, { rows }]) => ({ id, rows }));
  }

  /**
   * Drops the change log's entries before `at` (an index persisted at `at` needs none of them), in
   * transactions of at most COPY_BATCH entries, so that writes interleave with a long log's trim.
   */
  async trimChanges(at: number): Promise<void> {
    for (;;) {
      const keys = [...this.changes.getKeys({ end: at, limit: COPY_BATCH })];
      if (keys.length === 0) return;
      await this.transact(() => {
        for (const key of keys) this.changes.remove(key);
      }, 'trim the change log');
    }
  }

  /** Logs a change of `id` (inside a write transaction): its passages (`rows`), or only its metadata or presence. */
  private logChange(id: string, rows: boolean): void {
    this.nextChange ??= this.changePoint().at + 1;
    this.changes.put(this.nextChange++, `${rows ? CHANGE.rows : CHANGE.other}${id}`);
    this.changedAt = Date.now();
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
   * Writes a compacted copy of the store into `dir`, an empty folder: every database's entries from
   * one read snapshot, appended in key order into a new environment (full pages, none free: a
   * page-for-page copy would keep the half-empty pages deletes leave), then flushed. The caller
   * keeps writes out meanwhile if the copy must hold them.
   */
  async copyCompacted(dir: string): Promise<void> {
    const transaction = this.root.useReadTransaction();
    const out = open({ path: dir, ...ENV_OPTIONS });
    try {
      await out.put('store', this.root.get('store', { transaction }));
      for (const name of Object.keys(DATABASES) as DatabaseName[]) {
        const to = openDatabase(out, name);
        let batch: Array<[Key, unknown]> = [];
        const write = () => {
          out.transactionSync(() => {
            for (const [key, value] of batch) to.putSync(key, value, { append: true });
          });
          batch = [];
        };
        for (const { key, value } of openDatabase(this.root, name).getRange({ transaction })) {
          batch.push([key, value]);
          if (batch.length < COPY_BATCH) continue;
          write();
          await new Promise((r) => setImmediate(r));
        }
        write();
      }
      await out.flushed;
    } finally {
      transaction.done();
      await out.close();
    }
    fsyncFile(path.join(dir, 'data.mdb'));
    fsyncDir(dir);
  }

  getDoc(id: string): DocRecord | undefined {
    return storable(id) ? this.docs.get(id) : undefined;
  }

  /** The document's live encoding (the engine's; see the module's header), or undefined when there is no such document. */
  getEncoding(id: string): Uint8Array | undefined {
    return storable(id) ? this.encodings.getBinary(id) : undefined;
  }

  getText(id: string): string | undefined {
    return storable(id) ? this.texts.get(id) : undefined;
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

  private readForRanges(id: string): TextForRanges | undefined {
    if (!storable(id)) return undefined;
    return this.largeTexts.read(
      id,
      () => this.docs.get(id)?.seq,
      () => this.texts.getBinary(id),
    );
  }

  /**
   * Newest first; `beforeSeq` is exclusive (the cursor of the previous page). With `match`, only the
   * documents whose metadata it accepts, reading at most `maxScan` documents. `next` is the seq to
   * pass as the next page's `beforeSeq`, undefined when nothing is left to read.
   */
  listDocs(
    limit: number,
    beforeSeq?: number,
    match?: (metadata: Metadata) => boolean,
    maxScan = Number.POSITIVE_INFINITY,
  ): { docs: DocSummary[]; next?: number } {
    const docs: DocSummary[] = [];
    let scanned = 0;
    let last: number | undefined;
    for (const { key, value: id } of this.order.getRange({ reverse: true, start: beforeSeq === undefined ? undefined : beforeSeq - 1 })) {
      if (docs.length === limit || scanned === maxScan) return { docs, next: last };
      scanned++;
      last = key;
      const rec = this.docs.get(id);
      if (rec && rec.seq === key && (!match || match(rec.metadata))) docs.push({ id, ...rec });
    }
    return { docs };
  }

  /** Every document with its metadata and encoding, in ingest order (for rebuilding the index); of `ids` only, in their order, when given. */
  *encodedDocs(ids?: Iterable<string>): Generator<{ id: string; metadata: Metadata; encoding: Uint8Array }> {
    for (const id of ids ?? this.order.getRange({}).map(({ value }) => value)) {
      const rec = storable(id) ? this.docs.get(id) : undefined;
      const enc = rec && this.encodings.getBinary(id);
      if (rec && enc) yield { id, metadata: rec.metadata, encoding: enc };
    }
  }

  /**
   * Every document (id, text, metadata) in ingest order, read from ONE read transaction: what
   * commits while it is read is not seen, whatever the pace of the reader. The snapshot is held
   * until the generator finishes or is returned (a `for…of` that breaks does that).
   */
  *exportDocs(): Generator<{ id: string; text: string; metadata: Metadata }> {
    const transaction = this.root.useReadTransaction();
    try {
      for (const { value: id } of this.order.getRange({ transaction })) {
        const rec = this.docs.get(id, { transaction });
        const text = this.texts.get(id, { transaction });
        if (rec && text !== undefined) yield { id, text, metadata: rec.metadata };
      }
    } finally {
      transaction.done();
    }
  }

  /** Every document's text and record, in ingest order, in batches of at most `maxDocs` documents or about `maxChars` characters. */
  *textBatches(maxDocs: number, maxChars: number): Generator<StoredText[]> {
    let after = 0;
    for (;;) {
      const batch: StoredText[] = [];
      let chars = 0;
      let last = after;
      for (const { key, value: id } of this.order.getRange({ start: after + 1, limit: maxDocs })) {
        last = key;
        const rec = this.docs.get(id);
        const text = this.texts.get(id);
        if (rec && text !== undefined) batch.push({ id, text, metadata: rec.metadata, n_tokens: rec.n_tokens });
        chars += text?.length ?? 0;
        if (chars >= maxChars) break;
      }
      if (last === after) return;
      if (batch.length) yield batch;
      after = last;
    }
  }

  /** Empties the spare encodings database (what an interrupted re-encode or switch left there). */
  async clearStaged(): Promise<void> {
    const spare = this.encodingDbs[this.spare];
    await this.commit(() => spare.clearAsync(), 're-encode the store');
  }

  /** Writes encodings made by another model into the spare database; nothing live changes. */
  async stageEncodings(docs: Array<{ id: string; encoding: Uint8Array }>): Promise<void> {
    const spare = this.encodingDbs[this.spare];
    await this.transact(() => {
      for (const d of docs) spare.put(d.id, Buffer.from(d.encoding.buffer, d.encoding.byteOffset, d.encoding.byteLength));
    }, 're-encode the store');
  }

  /**
   * Makes the staged encodings live, in one durable transaction: records `model` and `analyzer` as
   * what made the store's encodings, switches meta.encodings to the staged database and updates the token counts that changed.
   * Then empties the database that held the old encodings.
   */
  async commitStaged(made: { model: string; encoder: string; analyzer: string }, nTokens: Map<string, number>): Promise<void> {
    const old = this.encodingDbs[this.meta.encodings ?? 'enc'];
    const meta: StoreMeta = { ...this.meta, ...made, encodings: this.spare };
    await this.transact(() => {
      for (const [id, n] of nTokens) {
        const rec = this.docs.get(id);
        if (rec) this.docs.put(id, { ...rec, n_tokens: n });
      }
      this.root.put('store', meta);
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
    await this.transact(() => {
      for (const d of docs) {
        const old = this.docs.get(d.id);
        if (old) this.order.remove(old.seq);
        const rec: DocRecord = { seq: this.nextSeq++, metadata: d.metadata, n_tokens: d.n_tokens, ingested_at: now, updated_at: now };
        this.docs.put(d.id, rec);
        this.texts.put(d.id, d.text);
        this.encodings.put(d.id, Buffer.from(d.encoding.buffer, d.encoding.byteOffset, d.encoding.byteLength));
        this.order.put(rec.seq, d.id);
        this.logChange(d.id, true);
        written.push(rec);
      }
      if (idem) this.idem.put(idem.key, idem.record);
    }, 'write documents');
    return written;
  }

  /** Removes a document with its text and encoding, durably. False when it did not exist. */
  async deleteDoc(id: string): Promise<boolean> {
    return (await this.deleteDocs([id])).length === 1;
  }

  /** Removes documents with their texts and encodings in one durable transaction; returns the ids that existed. */
  async deleteDocs(ids: string[]): Promise<string[]> {
    return this.transact(
      () => {
        const deleted: string[] = [];
        for (const id of ids) {
          const old = storable(id) ? this.docs.get(id) : undefined;
          if (!old) continue;
          this.order.remove(old.seq);
          this.docs.remove(id);
          this.texts.remove(id);
          this.encodings.remove(id);
          this.logChange(id, false);
          deleted.push(id);
        }
        return deleted;
      },
      ids.length === 1 ? 'delete the document' : 'delete documents',
    );
  }

  /** Replaces a document's metadata and sets its updated_at, durably; text, encoding and order stay. Undefined when it does not exist. */
  /**
   * Replaces a document's metadata, and with `encoded` its encoding and token count too (made
   * again from its stored text: its title changed), in one transaction; its text, seq (its place
   * in the listing) and ingested_at stay. Undefined when there is no such document.
   */
  async setMetadata(id: string, metadata: Metadata, encoded?: { encoding: Uint8Array; nTokens: number }): Promise<DocRecord | undefined> {
    if (!storable(id)) return undefined;
    return this.transact(() => {
      const old = this.docs.get(id);
      if (!old) return undefined;
      const rec: DocRecord = { ...old, metadata, updated_at: new Date().toISOString(), ...(encoded ? { n_tokens: encoded.nTokens } : {}) };
      this.docs.put(id, rec);
      if (encoded) {
        const { encoding } = encoded;
        this.encodings.put(id, Buffer.from(encoding.buffer, encoding.byteOffset, encoding.byteLength));
      }
      this.logChange(id, encoded !== undefined);
      return rec;
    }, 'update the metadata');
  }

  getIdempotency(key: string): IdempotencyRecord | undefined {
    return this.idem.get(key);
  }

  /** Drops idempotency records older than `maxAgeMs`. */
  async pruneIdempotency(maxAgeMs: number): Promise<number> {
    const cutoff = Date.now() - maxAgeMs;
    let n = 0;
    await this.transact(() => {
      for (const { key, value } of this.idem.getRange({})) {
        if (value.created_at < cutoff) {
          this.idem.remove(key);
          n++;
        }
      }
    }, 'prune idempotency records');
    return n;
  }

  /**
   * Checks the store's invariants on disk: every document record has its text, its live encoding
   * and the order entry of its seq; every text, encoding and order entry belongs to a record.
   * Returns the problems found (none for a sound store).
   */
  verify(): string[] {
    const problems: string[] = [];
    const ids = new Set<string>();
    for (const { key: id, value: rec } of this.docs.getRange({})) {
      ids.add(id);
      if (this.texts.get(id) === undefined) problems.push(`document '${id}' has no text`);
      if (!this.encodings.getBinary(id)) problems.push(`document '${id}' has no encoding`);
      if (this.order.get(rec.seq) !== id) problems.push(`document '${id}' is missing from the order at seq ${rec.seq}`);
    }
    for (const { key: seq, value: id } of this.order.getRange({})) {
      if (this.docs.get(id)?.seq !== seq) problems.push(`order entry ${seq} names '${id}', which is not the document at that seq`);
    }
    for (const id of this.texts.getKeys({})) if (!ids.has(id)) problems.push(`text of '${id}' has no document record`);
    for (const id of this.encodings.getKeys({})) if (!ids.has(id)) problems.push(`encoding of '${id}' has no document record`);
    return problems;
  }

  /** Runs `fn` as one transaction and waits until it is on disk; storage faults become StorageError. */
  private transact<T>(fn: () => T, action: string): Promise<T> {
    return this.commit(() => this.root.transaction(fn), action);
  }

  private async commit<T>(write: () => Promise<T>, action: string): Promise<T> {
    try {
      const result = await write();
      await this.root.flushed;
      return result;
    } catch (err) {
      throw await storageError(err, this.dir, action);
    }
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}
