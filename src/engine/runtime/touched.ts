// The address ranges a memory's pages have been written in since it was created: the union of every
// block allocated in it (and its static data), which bounds what of it is resident. The heap's
// relocation (memory.ts relocate) is worth its copy when this union is much larger than the live
// blocks: a search's scratch reused in the same holes adds nothing, a merge's result or a deleted
// store's index does. Pages given back to the system (memory.ts discardIdle) are taken out again.
// Invariants: ranges are disjoint, not adjacent, sorted; `bytes` is their sum.
export class TouchedRanges {
  private starts: number[] = [];
  private ends: number[] = [];
  private total = 0;

  /** Bytes in the union of the ranges added. */
  get bytes(): number {
    return this.total;
  }

  /** Adds [start, end). */
  add(start: number, end: number): void {
    if (end <= start) return;
    // first range ending at or after start, last range starting at or before end
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ends[mid] < start) lo = mid + 1;
      else hi = mid;
    }
    const i = lo;
    let j = i - 1;
    while (j + 1 < this.starts.length && this.starts[j + 1] <= end) j++;
    if (j < i) {
      this.starts.splice(i, 0, start);
      this.ends.splice(i, 0, end);
      this.total += end - start;
      return;
    }
    const s = Math.min(start, this.starts[i]);
    const e = Math.max(end, this.ends[j]);
    for (let k = i; k <= j; k++) this.total -= this.ends[k] - this.starts[k];
    this.starts.splice(i, j - i + 1, s);
    this.ends.splice(i, j - i + 1, e);
    this.total += e - s;
  }

  /** Takes [start, end) out of the ranges; returns the pieces of it that were in them, in order. */
  take(start: number, end: number): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    if (end <= start) return out;
    let i = this.firstEndingAfter(start);
    while (i < this.starts.length && this.starts[i] < end) {
      const s = this.starts[i];
      const e = this.ends[i];
      const from = Math.max(s, start);
      const to = Math.min(e, end);
      out.push([from, to]);
      this.total -= to - from;
      const keep: number[][] = [];
      if (s < from) keep.push([s, from]);
      if (to < e) keep.push([to, e]);
      this.starts.splice(i, 1, ...keep.map((r) => r[0]));
      this.ends.splice(i, 1, ...keep.map((r) => r[1]));
      i += keep.length;
    }
    return out;
  }

  /** Index of the first range whose end is past `at` (ranges.length when none). */
  private firstEndingAfter(at: number): number {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ends[mid] <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
