// A segment's postings dictionary (body terms, title terms or title phrases -> rows), built from
// its rows' keys without sorting the occurrences: a first pass counts each distinct key's
// postings in an open-addressing table, so the segment's image can be sized before anything is
// written; a second writes the sorted keys, their starts and their postings straight into the
// image. Rows are given one at a time in each pass (count, then place), so no list of them is
// held, and no list of (key, row) pairs is made: on a book of millions of term occurrences those
// lists and a sort's scratch were hundreds of megabytes of fresh memory, whose first touch cost
// more than the sort.
// Invariants: keys are written sorted ascending and unique; a key's postings are sorted by row,
// packed `row << 8 | min(tf, 255)`, tf being how often the key occurs in the row (the same as a
// stable sort of the occurrences by key would give); the result depends only on the rows' keys,
// given in the same order to both passes. Ranked (rankKeys), the keys are ordered by how often
// they occur, the most first, ties to the smaller key: a term's rank is its code in the segment's
// sequences (codes.ts).

import { codeLength, putCode } from './codes.js';

const EMPTY = 0;

/**
 * The first n keys (`keys`, distinct, each occurring occ[i] times) ranked by their occurrences, the
 * most first, ties to the smaller key: each key's rank (its code in a segment's sequences, by
 * index), the keys by rank, and the bytes all the occurrences' codes take (codes.ts).
 */
export function rankByOccurrences(occ: ArrayLike<number>, keys: ArrayLike<number>, n: number) {
  const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => occ[b] - occ[a] || keys[a] - keys[b]);
  const rankOf = new Uint32Array(n);
  const byRank = new Uint32Array(n);
  let bytes = 0;
  order.forEach((k, rank) => {
    rankOf[k] = rank;
    byRank[rank] = keys[k];
    bytes += occ[k] * codeLength(rank);
  });
  return { rankOf, byRank, bytes };
}

/** Fibonacci hashing of a 32-bit key into a table of 2^(32 - shift) slots. */
export const slotOf = (key: number, shift: number): number => Math.imul(key, 0x9e3779b1) >>> shift;

export class Dictionary {
  /** Slot -> the index of its distinct key + 1 (EMPTY: a free slot). */
  private slots = new Int32Array(1024);
  private shift = 32 - 10;
  /** By distinct key, in order of first occurrence: the key, its postings, the last row counted (+ 1). */
  private keyOf = new Uint32Array(512);
  private postingsOf = new Uint32Array(512);
  private lastRow = new Int32Array(512);
  /** By distinct key: how often it occurs (every occurrence, a row's repeats too), then its rank once ranked. */
  private occurrencesOf = new Uint32Array(512);
  private rankOf = new Uint32Array(0);
  private ranked = new Uint32Array(0);
  /** While writing (begin): where distinct key k's next posting goes, and the postings written. */
  private next = new Uint32Array(0);
  private postings: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  /** Distinct keys. */
  nKeys = 0;
  /** Postings: distinct (key, row) pairs. */
  nPostings = 0;

  /** Counts row r's keys (the first n of `keys`; a key repeated in a row counts once). Rows come in increasing order. */
  count(r: number, keys: ArrayLike<number>, n = keys.length): void {
    for (let i = 0; i < n; i++) {
      const k = this.find(keys[i]);
      this.occurrencesOf[k]++;
      if (this.lastRow[k] === r + 1) continue;
      this.lastRow[k] = r + 1;
      this.postingsOf[k]++;
      this.nPostings++;
    }
  }

  /**
   * Once every row is counted: writes `keys` (nKeys) sorted and `start` (nKeys + 1), where each
   * key's postings begin in `postings` (nPostings), which place() then fills. The arrays are the
   * image's sections.
   */
  begin(keys: Uint32Array, start: Uint32Array, postings: Uint32Array): void {
    keys.set(this.keyOf.subarray(0, this.nKeys));
    keys.sort();
    this.next = new Uint32Array(this.nKeys);
    let at = 0;
    for (let i = 0; i < this.nKeys; i++) {
      const k = this.find(keys[i]);
      start[i] = at;
      this.next[k] = at;
      at += this.postingsOf[k];
    }
    start[this.nKeys] = at;
    this.lastRow.fill(0);
    this.postings = postings;
  }

  /**
   * Once every row is counted: ranks the distinct keys by occurrences (the most first, ties to the
   * smaller key) and returns the bytes all the occurrences' codes take (codes.ts).
   */
  rankKeys(): number {
    const { rankOf, byRank, bytes } = rankByOccurrences(this.occurrencesOf, this.keyOf, this.nKeys);
    this.rankOf = rankOf;
    this.ranked = byRank;
    return bytes;
  }

  /** Once ranked: the keys by rank (nKeys). */
  keysByRank(): Uint32Array {
    return this.ranked;
  }

  /**
   * Writes row r's postings (the first n of `keys`): every row counted, again, in the same order.
   * Once ranked, with `codes`, also writes each key's code there from `at` (codes.ts); returns where
   * the next code goes.
   */
  place(r: number, keys: ArrayLike<number>, n = keys.length, codes?: Uint8Array, at = 0): number {
    const { next, postings } = this;
    for (let i = 0; i < n; i++) {
      const k = this.find(keys[i]);
      if (k >= next.length) throw new RangeError(`key ${keys[i]} of row ${r} was not counted`);
      if (this.lastRow[k] !== r + 1) {
        this.lastRow[k] = r + 1;
        postings[next[k]++] = ((r << 8) | 1) >>> 0;
      } else if ((postings[next[k] - 1] & 255) < 255) postings[next[k] - 1]++;
      if (codes) at = putCode(codes, at, this.rankOf[k]);
    }
    return at;
  }

  /** The index of `key` among the distinct keys, added if new. */
  private find(key: number): number {
    const mask = this.slots.length - 1;
    for (let s = slotOf(key, this.shift); ; s = (s + 1) & mask) {
      const k = this.slots[s];
      if (k === EMPTY) return this.add(key, s);
      if (this.keyOf[k - 1] === key) return k - 1;
    }
  }

  private add(key: number, slot: number): number {
    const k = this.nKeys++;
    if (k === this.keyOf.length) {
      this.keyOf = grown(this.keyOf, new Uint32Array(2 * k));
      this.postingsOf = grown(this.postingsOf, new Uint32Array(2 * k));
      this.lastRow = grown(this.lastRow, new Int32Array(2 * k));
      this.occurrencesOf = grown(this.occurrencesOf, new Uint32Array(2 * k));
    }
    this.keyOf[k] = key;
    // at most half full: twice the slots, every key placed again
    if (2 * this.nKeys > this.slots.length) this.rehash();
    else this.slots[slot] = k + 1;
    return k;
  }

  private rehash(): void {
    this.slots = new Int32Array(2 * this.slots.length);
    this.shift--;
    const mask = this.slots.length - 1;
    for (let k = 0; k < this.nKeys; k++) {
      let s = slotOf(this.keyOf[k], this.shift);
      while (this.slots[s] !== EMPTY) s = (s + 1) & mask;
      this.slots[s] = k + 1;
    }
  }
}

function grown<T extends Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
