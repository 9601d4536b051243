// The titles of a search's snapshot: whether some title starts with a phrase, which titles a phrase
// names (in full, or as their base title without a trailing parenthetical) and which rows bear a
// title. What does not depend on dead rows is remembered across the thread's searches of the same
// segments (term-ranges.ts); which of a title's rows the search may return is decided per search.
// Invariants: every list returned is memoised (do not modify); a title's rows are in the corpus's tie
// order (SearchCorpus.tieOrder), so that the best of them are taken without comparing ties
// (best-rows.ts bestRows); a title may have thousands of rows (a common name's "X (film)", "X (band)",
// ..., a long document's passages), so asking whether it has one stops at the first.
import type { SegmentView } from '../segment/index.js';
import type { NamedTitles, TermTable } from './term-ranges.js';

export class CorpusTitles {
  private readonly liveRows = new Map<number, readonly number[]>();

  /** `excluded`: whether a global row is dead or filtered out, undefined when no row is; `inTieOrder`: rows sorted in tie order. */
  constructor(
    private readonly segs: readonly SegmentView[],
    private readonly rowBase: readonly number[],
    private readonly table: TermTable,
    private readonly excluded: ((row: number) => boolean) | undefined,
    private readonly inTieOrder: (rows: readonly number[]) => number[],
  ) {}

  /** Whether any segment has a title starting with this phrase key (a passage read asks it of each of its words). */
  hasPrefix(key: number): boolean {
    const known = this.table.prefix.get(key);
    if (known !== undefined) return known;
    const has = this.segs.some((s) => s.hasPrefix(key));
    this.table.prefix.set(key, has);
    return has;
  }

  /** Titles (title keys) a phrase key names, with whether it is their full title; and those it is the full title of. */
  named(key: number): NamedTitles {
    const hit = this.table.phrase.get(key);
    if (hit) return hit;
    const out = new Map<number, boolean>();
    for (const s of this.segs) {
      // rows of one title often come in runs (a long document's passages, documents ingested together):
      // a run of one title and kind is looked up once (a common title's phrase lists tens of
      // thousands of rows)
      let last = -1;
      for (const packed of s.phrase(key) ?? []) {
        const full = (packed & 255) === 1;
        const tk = s.titleKey(packed >>> 8);
        if (tk === last && (!full || out.get(tk))) continue;
        last = tk;
        out.set(tk, (out.get(tk) ?? false) || full);
      }
    }
    const all = [...out].map(([titleKey, full]) => ({ titleKey, full }));
    const titles = { all, full: all.filter((t) => t.full) };
    this.table.phrase.set(key, titles);
    return titles;
  }

  /** Global rows whose full title has this title key, that the search may return, in tie order. */
  rows(titleKey: number): readonly number[] {
    const hit = this.liveRows.get(titleKey);
    if (hit) return hit;
    const all = this.allRows(titleKey);
    const excluded = this.excluded;
    const out = excluded ? all.filter((r) => !excluded(r)) : all;
    this.liveRows.set(titleKey, out);
    return out;
  }

  /**
   * Whether a row the search may return bears a title that `named` returned: always when no row is
   * excluded, since each title named is some row's of the snapshot.
   */
  hasRow(titleKey: number): boolean {
    const excluded = this.excluded;
    if (!excluded) return true;
    const hit = this.liveRows.get(titleKey);
    return hit ? hit.length > 0 : this.allRows(titleKey).some((r) => !excluded(r));
  }

  /** Every row bearing the title, dead and filtered-out ones included, in tie order. */
  private allRows(titleKey: number): readonly number[] {
    let all = this.table.titles.get(titleKey);
    if (!all) {
      const rows: number[] = [];
      this.segs.forEach((s, si) => {
        for (const packed of s.phrase(titleKey) ?? []) if ((packed & 255) === 1) rows.push(this.rowBase[si] + (packed >>> 8));
      });
      all = this.inTieOrder(rows);
      this.table.titles.set(titleKey, all);
    }
    return all;
  }
}
