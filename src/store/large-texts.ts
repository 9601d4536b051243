// The large texts a store's searches read lately (text-ranges.ts says why they are read by ranges):
// each one's marks, and, within KEPT_TEXT_BYTES, its bytes, so that the next search listing it
// neither marks it again nor copies megabytes out of LMDB. Invariants: an entry stands for the
// version of its document at `seq` (every write of a document renews its seq): its bytes are used
// only while the document's seq is the same, its marks only for the same seq and byte length; at
// most MARKED_TEXTS entries and KEPT_TEXT_BYTES of kept bytes, the least recently read dropped
// (or its bytes) first.
import { KEPT_TEXT_BYTES, MARKED_TEXTS, utf8Marks, WHOLE_TEXT_BYTES } from './text-ranges.js';

/** A text to read ranges of: decoded whole (a small one), or its bytes with their marks. */
export type TextForRanges = { text: string } | { bytes: Buffer; marks: Uint32Array };

/** A large text read lately: its marks, and its bytes while they are kept, for the version of the document at `seq`. */
interface LargeText {
  seq: number;
  bytes: number;
  marks: Uint32Array;
  text?: Buffer;
}

export class LargeTexts {
  /** least recently read first */
  private readonly entries = new Map<string, LargeText>();
  /** Bytes of the texts kept in `entries`. */
  private keptBytes = 0;

  /**
   * The text of document `id` to read ranges of, or undefined when it has none: `seq` gives the
   * document's seq now (undefined: no record), `stored` reads its bytes from the store.
   */
  read(id: string, seq: () => number | undefined, stored: () => Buffer | undefined): TextForRanges | undefined {
    const known = this.entries.get(id);
    if (known?.text) {
      if (seq() === known.seq) {
        this.entries.delete(id);
        this.entries.set(id, known);
        return { bytes: known.text, marks: known.marks };
      }
      this.forget(id);
    }
    const bytes = stored();
    if (bytes === undefined) return undefined;
    if (bytes.length <= WHOLE_TEXT_BYTES) return { text: bytes.toString('utf8') };
    const now = seq() ?? -1;
    const marks = known?.seq === now && known.bytes === bytes.length ? known.marks : utf8Marks(bytes);
    this.forget(id);
    const entry: LargeText = { seq: now, bytes: bytes.length, marks };
    if (bytes.length <= KEPT_TEXT_BYTES) {
      entry.text = bytes;
      this.keptBytes += bytes.length;
    }
    this.entries.set(id, entry);
    for (const [oldest, e] of this.entries) {
      if (this.entries.size <= MARKED_TEXTS && this.keptBytes <= KEPT_TEXT_BYTES) break;
      if (this.entries.size > MARKED_TEXTS) this.forget(oldest);
      else if (e.text) {
        this.keptBytes -= e.bytes;
        e.text = undefined;
      }
    }
    return { bytes, marks };
  }

  private forget(id: string): void {
    const e = this.entries.get(id);
    if (e?.text) this.keptBytes -= e.bytes;
    this.entries.delete(id);
  }
}
