// A store's change log (the `changes` database): in the transaction of each write, the id of every
// document it wrote, deleted or whose metadata it changed (and whether its passages changed), under a
// strictly increasing key. An index persisted at one key (index-snapshot.ts) is brought up to date by
// the documents named after it. Invariants: keys never repeat (a trim drops entries before the last
// persisted index's and never the last entry); `log` runs only inside a write transaction.
import type { Database } from 'lmdb';
import { COPY_BATCH } from './store-env.js';
import type { Changed, ChangePoint } from './types.js';

/** The first character of an entry: the document's passages changed, or something else of it (metadata, presence). */
const CHANGE = { rows: 'w', other: 'm' } as const;

export class ChangeLog {
  /** The next key: found at the first change (a handle opened only to read maps none of the log in). */
  private next?: number;
  /** When the last change was logged by this handle, or when it was opened (ms since the epoch). */
  changedAt = Date.now();

  constructor(private readonly db: Database<string, number>) {}

  /** The last entry: its key and value ({at: 0, entry: ''} while the log is empty). */
  point(): ChangePoint {
    for (const { key, value } of this.db.getRange({ reverse: true, limit: 1 })) return { at: key, entry: value };
    return { at: 0, entry: '' };
  }

  /**
   * The documents changed after `point`, each once: `rows` when it was written since (its passages
   * may have changed: ingested, or given a title that changed its encoding), else only its metadata
   * changed or it was deleted; in the order of its last write (of its last change when it has none).
   * Undefined when the log does not go back to `point` as it was (trimmed past it, or another entry
   * or none at its key: a database restored from another time).
   */
  since(point: ChangePoint): Changed[] | undefined {
    if (point.at > 0 && this.db.get(point.at) !== point.entry) return undefined;
    if (point.at === 0) {
      const [first] = [...this.db.getKeys({ limit: 1 })];
      if (first !== undefined && first !== 1) return undefined;
    }
    const byId = new Map<string, { rows: boolean; key: number }>();
    for (const { key, value } of this.db.getRange({ start: point.at + 1 })) {
      const id = value.slice(1);
      // a write places the document at its key; a later change of its metadata or presence does not
      if (value[0] === CHANGE.rows) byId.set(id, { rows: true, key });
      else if (!byId.get(id)?.rows) byId.set(id, { rows: false, key });
    }
    return [...byId].sort((a, b) => a[1].key - b[1].key).map(([id, { rows }]) => ({ id, rows }));
  }

  /**
   * Drops the entries before `at` (an index persisted at `at` needs none of them), in transactions
   * (`transact`) of at most COPY_BATCH entries, so that writes interleave with a long log's trim.
   */
  async trim(at: number, transact: (fn: () => void) => Promise<void>): Promise<void> {
    for (;;) {
      const keys = [...this.db.getKeys({ end: at, limit: COPY_BATCH })];
      if (keys.length === 0) return;
      await transact(() => {
        for (const key of keys) this.db.remove(key);
      });
    }
  }

  /** Logs a change of `id` (inside a write transaction): its passages (`rows`), or only its metadata or presence. */
  log(id: string, rows: boolean): void {
    this.next ??= this.point().at + 1;
    this.db.put(this.next++, `${rows ? CHANGE.rows : CHANGE.other}${id}`);
    this.changedAt = Date.now();
  }
}
