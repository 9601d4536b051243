// Address-range allocator (pure bookkeeping, touches no memory).
// Invariants: blocks live in [base, top); every block start and size is a
// multiple of ALIGN; free blocks never overlap live ones, are fully coalesced
// (no two free blocks are adjacent) and none ends at `top` (such space is given
// back to the bump region). Allocation is best fit over the free list, then bump.

export const ALIGN = 16;

export const alignUp = (n: number, a = ALIGN): number => Math.ceil(n / a) * a;

export class FreeList {
  private readonly live = new Map<number, number>();
  private readonly freeByStart = new Map<number, number>();
  private readonly freeByEnd = new Map<number, number>();
  private topAddr: number;
  private liveTotal = 0;
  private freeTotal = 0;

  constructor(readonly base: number) {
    if (base % ALIGN !== 0) throw new RangeError(`free-list base ${base} is not ${ALIGN}-aligned`);
    this.topAddr = base;
  }

  get top(): number {
    return this.topAddr;
  }
  get liveBytes(): number {
    return this.liveTotal;
  }
  get freeBytes(): number {
    return this.freeTotal;
  }
  get liveBlocks(): number {
    return this.live.size;
  }
  get freeBlocks(): number {
    return this.freeByStart.size;
  }

  sizeOf(ptr: number): number | undefined {
    return this.live.get(ptr);
  }

  /** The live blocks as [start, end) ranges, adjacent blocks joined, in address order. */
  liveRanges(): Array<[number, number]> {
    const starts = [...this.live.keys()].sort((a, b) => a - b);
    const out: Array<[number, number]> = [];
    for (const s of starts) {
      const e = s + (this.live.get(s) ?? 0);
      const last = out[out.length - 1];
      if (last && last[1] === s) last[1] = e;
      else out.push([s, e]);
    }
    return out;
  }

  /** The free blocks of at least `minBytes` as [start, end) ranges, in no particular order. */
  freeRanges(minBytes: number): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (const [start, size] of this.freeByStart) if (size >= minBytes) out.push([start, start + size]);
    return out;
  }

  /** Best-fit block from the free list, or undefined when none fits. */
  private takeFree(size: number): number | undefined {
    let best: number | undefined;
    let bestSize = Infinity;
    for (const [start, s] of this.freeByStart) {
      if (s >= size && s < bestSize) {
        best = start;
        bestSize = s;
        if (s === size) break;
      }
    }
    if (best === undefined) return undefined;
    this.removeFree(best, bestSize);
    if (bestSize > size) this.addFree(best + size, bestSize - size);
    return best;
  }

  /**
   * Reserves `size` bytes (a multiple of ALIGN, > 0). Returns the address, or
   * undefined when it does not fit below `limit`; then `top + size` is the end
   * the bump region would need (see `needed`).
   */
  allocate(size: number, limit: number): number | undefined {
    let ptr = this.takeFree(size);
    if (ptr === undefined) {
      if (this.topAddr + size > limit) return undefined;
      ptr = this.topAddr;
      this.topAddr += size;
    }
    this.live.set(ptr, size);
    this.liveTotal += size;
    return ptr;
  }

  /** End address the bump region must reach to serve `size` bytes. */
  needed(size: number): number {
    return this.topAddr + size;
  }

  /** Releases a live block; returns its size, or undefined if ptr is not live. */
  release(ptr: number): number | undefined {
    const size = this.live.get(ptr);
    if (size === undefined) return undefined;
    this.live.delete(ptr);
    this.liveTotal -= size;
    this.freeRange(ptr, ptr + size);
    return size;
  }

  /**
   * Gives back the end of a live block past `size` (a multiple of ALIGN, > 0, at most its size), as
   * release() would a block of its own; returns the bytes given back, or undefined if ptr is not live.
   */
  shrink(ptr: number, size: number): number | undefined {
    const old = this.live.get(ptr);
    if (old === undefined) return undefined;
    if (size <= 0 || size % ALIGN !== 0) throw new RangeError(`shrink: size ${size} is not a positive multiple of ${ALIGN}`);
    if (size >= old) return 0;
    this.live.set(ptr, size);
    this.liveTotal -= old - size;
    this.freeRange(ptr + size, ptr + old);
    return old - size;
  }

  /** Frees [start, end), joined with the free blocks on either side, or given back to the bump region. */
  private freeRange(start: number, end: number): void {
    const before = this.freeByEnd.get(start);
    if (before !== undefined) {
      this.removeFree(before, start - before);
      start = before;
    }
    const afterSize = this.freeByStart.get(end);
    if (afterSize !== undefined) {
      this.removeFree(end, afterSize);
      end += afterSize;
    }
    if (end === this.topAddr) this.topAddr = start;
    else this.addFree(start, end - start);
  }

  private addFree(start: number, size: number): void {
    this.freeByStart.set(start, size);
    this.freeByEnd.set(start + size, start);
    this.freeTotal += size;
  }

  private removeFree(start: number, size: number): void {
    this.freeByStart.delete(start);
    this.freeByEnd.delete(start + size);
    this.freeTotal -= size;
  }
}
