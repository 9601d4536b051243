// Where a term's postings lie in each segment of a snapshot, which titles hold a phrase, which
// phrases some title starts with and which rows bear a title, remembered across the searches a
// thread runs over the same segments (none depends on which rows are dead: the callers check that).
// A segment is immutable while it exists and its id (SnapshotSegment.id) is never given to another
// segment in this process, so an entry can never go stale: a snapshot that loses or gains a segment
// (a write, a merge) is another key, and the tables of snapshots no longer searched are dropped,
// least recently used first.
// Without this, a search looks every term up afresh in every segment (binary searches over the
// sorted term keys): a multi-hop search weighs a few hundred distinct terms (the expansions of the
// passages it reads), which cost about a tenth of its time on a store of seven to nine segments
// (one being written to, or one past the idle merge's 2^18 passages).
// Invariants: per thread (module state: each worker has its own); an entry is exactly what the
// segments' own lookups return; memory is bounded (SCAN.rangeSnapshots tables of SCAN.rangeTerms
// entries per map; a full map is cleared and refilled: the terms in use come back quickly).
import { SCAN } from '../params.js';
import type { PostingRange } from '../segment/index.js';

export type TermField = 'body' | 'title';
/** Per term, its postings in each segment of the snapshot (undefined where a segment lacks it). */
export type TermRanges = Map<number, Array<PostingRange | undefined>>;
/** A title a phrase names: its title key, and whether the phrase is the whole title (else its base title, without a trailing parenthetical). */
export interface NamedTitle {
  titleKey: number;
  full: boolean;
}
/** The titles a phrase names, in the snapshot's order, and those of them it is the whole title of. */
export interface NamedTitles {
  all: readonly NamedTitle[];
  full: readonly NamedTitle[];
}
/** The titles of the documents whose title holds a phrase, by phrase key. */
export type PhraseTitles = Map<number, NamedTitles>;
/** Whether some title of the snapshot starts with a phrase, by phrase key. */
export type PhrasePrefixes = Map<number, boolean>;
/** The global rows (dead ones too) whose full title has a title key, by title key. */
export type TitleRows = Map<number, readonly number[]>;
export type TermTable = Record<TermField, TermRanges> & { phrase: PhraseTitles; prefix: PhrasePrefixes; titles: TitleRows };

const tables = new Map<string, TermTable>();

/**
 * The table of a snapshot whose segments have these ids, shared with the thread's other searches of
 * the same segments; a fresh table, for this search alone, when a segment has no id or when there is
 * one segment: a settled store up to 2^18 passages is one segment (the idle merge), and there one
 * binary search per term costs no more than a lookup in a large shared table (measured: 1-3% slower
 * shared on squad-articles-dev, 10-20% faster shared on hotpotqa-dev's store of 7 to 9 segments).
 */
export function termTable(ids: ReadonlyArray<number | undefined>): TermTable {
  if (ids.length < 2 || ids.some((id) => id === undefined)) return emptyTable();
  const key = ids.join(',');
  let t = tables.get(key);
  if (t) tables.delete(key);
  else {
    t = emptyTable();
    if (tables.size >= SCAN.rangeSnapshots) tables.delete(tables.keys().next().value!);
  }
  tables.set(key, t);
  for (const m of [t.body, t.title, t.phrase, t.prefix, t.titles]) if (m.size >= SCAN.rangeTerms) m.clear();
  return t;
}

function emptyTable(): TermTable {
  return { body: new Map(), title: new Map(), phrase: new Map(), prefix: new Map(), titles: new Map() };
}

/** Snapshots with a table in this thread (tests). */
export function rememberedSnapshots(): number {
  return tables.size;
}
