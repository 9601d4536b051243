// The engine's single shared WebAssembly memory and its allocator (main thread only).
// Invariants: blocks are 16-byte aligned, never overlap, and start at or above
// the kernels' heap base; the memory only grows (up to 4 GiB or maxBytes), and only
// once the kept scratch is freed; a failed allocation leaves every other block and
// the bookkeeping unchanged. A retired block is reused only once every task pinned
// before the retire has unpinned; free() reuses at once and is meant for blocks the
// caller owns; freeScratch() keeps a task's scratch live for the next task's
// allocScratch() until the engine is idle (its pages stay written), with the tag its task left it
// clean under, if any (a block handed out again keeps its tag until it is ended or freed).
// relocate() moves every live block, at the same address, into a fresh memory that
// spans only up to the highest one: the old memory's pages (the high-water mark of
// merges, a deleted store's index) can then go back to the system once no thread
// references it; only with no task pinned, and the generation counts the moves. Given the native
// helper (page-discard.ts), the heap drops the written pages of large free ranges as blocks are
// freed (discardIdle, MEMORY.discard): only free pages, never one a live block shares, so no thread
// can be reading them; a dropped page reads as zero when next allocated (contents are undefined).
// A large pass goes a slice at a time over turns of the event loop (discardInSlices). A block of
// MEMORY.hugePagesFrom bytes or more is advised huge pages while it lives (the helper's hugePages,
// in a relocation's new memory as well); the advice is taken back from what is freed of it, so no
// free range keeps it.

import { MEMORY } from '../params.js';
import { EpochTracker, type PinToken } from './epochs.js';
import { AllocSizeError, InvalidPointerError, WasmOutOfMemoryError } from './errors.js';
import { ALIGN, alignUp, FreeList } from './free-list.js';
import { DISCARD_PAGE_BYTES } from './page-discard.js';
import { TouchedRanges } from './touched.js';
import type { HeapOptions, HeapStats, HugePages, PageDiscard } from './types.js';
import { MemoryViews } from './views.js';

export { PinToken } from './epochs.js';

export const PAGE_BYTES = 65536;
export const MAX_PAGES = 65536;
export const MAX_MEMORY_BYTES = PAGE_BYTES * MAX_PAGES;
/** The module declares 16 initial pages (asconfig initialMemory); an import may not be smaller. */
export const MIN_PAGES = 16;

/** Creates the shared memory the kernels import (at least 1 MiB, maximum 4 GiB). */
export function createSharedMemory(initialBytes = MIN_PAGES * PAGE_BYTES): WebAssembly.Memory {
  const initial = Math.max(MIN_PAGES, Math.ceil(initialBytes / PAGE_BYTES));
  if (initial > MAX_PAGES) throw new WasmOutOfMemoryError(`initial memory ${initialBytes} B exceeds 4 GiB`, initialBytes);
  return new WebAssembly.Memory({ initial, maximum: MAX_PAGES, shared: true });
}

/** Writes a zero to each page of [start, end) of `memory`, so that the system backs them now. */
export function touchPages(memory: WebAssembly.Memory, start: number, end: number): void {
  const u8 = new Uint8Array(memory.buffer);
  for (let p = start - (start % 4096); p < Math.min(end, u8.length); p += 4096) u8[p] = 0;
}

export class WasmHeap {
  readonly views: MemoryViews;
  private gen = 0;
  private touched = new TouchedRanges();
  readonly maxBytes: number;
  private readonly blocks: FreeList;
  private readonly epochs = new EpochTracker<number>();
  private readonly retired = new Set<number>();
  private retiredBytes = 0;
  private readonly discardPages: PageDiscard | undefined;
  private discardedBytes = 0;
  private readonly hugePages: HugePages | undefined;
  /** Blocks advised huge pages (alloc), and the bytes of each advised. */
  private readonly huge = new Map<number, number>();
  /** idleBytes after the last discardIdle (or less, as blocks took it again): what it could not give back. */
  private idleFloor = 0;
  /** Whether the last discardIdle stopped at its budget with pages left, and whether a slice is scheduled. */
  private discardLeft = false;
  private discardScheduled = false;
  /** Task scratch blocks ended and kept live for the next task (freeScratch), oldest first. */
  private readonly kept: number[] = [];
  /** The clean tag of each scratch block its last task ended clean (freeScratch). */
  private readonly cleanTags = new Map<number, string>();

  constructor(memory: WebAssembly.Memory, opts: HeapOptions) {
    this.views = new MemoryViews(memory);
    this.discardPages = opts.discard;
    this.hugePages = opts.hugePages;
    const pages = Math.floor(Math.min(opts.maxBytes ?? MAX_MEMORY_BYTES, MAX_MEMORY_BYTES) / PAGE_BYTES);
    this.maxBytes = pages * PAGE_BYTES;
    this.blocks = new FreeList(alignUp(Math.max(opts.heapBase, ALIGN)));
    if (this.blocks.base >= this.maxBytes) throw new WasmOutOfMemoryError(`maxBytes ${this.maxBytes} leaves no room above heap base`);
    this.touched.add(0, this.blocks.base);
  }

  /** The memory the blocks live in now (another after each relocate()). */
  get memory(): WebAssembly.Memory {
    return this.views.memory;
  }

  /** How many times the blocks have moved to a fresh memory. */
  get generation(): number {
    return this.gen;
  }

  /**
   * Bytes of the memory above the heap base written since it was created (every block allocated in
   * it) that no live block holds now: about what a relocation would give back.
   */
  get idleBytes(): number {
    return this.touched.bytes - this.blocks.base - this.blocks.liveBytes;
  }

  /** Whether blocks of MEMORY.hugePagesFrom bytes or more ask for huge pages (the native helper's hugePages). */
  get advisesHugePages(): boolean {
    return this.hugePages !== undefined;
  }

  /** Whether free pages are given back in place (the native helper: page-discard.ts). */
  get discards(): boolean {
    return this.discardPages !== undefined;
  }

  /**
   * Drops the written pages of every free range of at least MEMORY.discard.minRangeBytes and of the
   * memory above the highest block (past keepAboveTopBytes): whole pages no live block touches, which
   * leave the process's RSS at once. Stops once about `budget` bytes are given back (discardLeft
   * says whether any were left). Returns the bytes given back (0 without the native helper).
   */
  discardIdle(budget = Number.POSITIVE_INFINITY): number {
    const discard = this.discardPages;
    if (!discard) return 0;
    const { minRangeBytes, keepAboveTopBytes } = MEMORY.discard;
    const page = DISCARD_PAGE_BYTES;
    const u8 = this.views.u8;
    const ranges = this.blocks.freeRanges(minRangeBytes);
    ranges.push([this.blocks.top + keepAboveTopBytes, u8.length]);
    let given = 0;
    this.discardLeft = false;
    for (const [start, end] of ranges) {
      const from = alignUp(start, page);
      const to = end - (end % page);
      if (to - from < page) continue;
      // a piece of the range at a time, the budget's worth of addresses at most
      for (let at = from; at < to; ) {
        if (given >= budget) {
          this.discardLeft = true;
          break;
        }
        const stop = Math.min(to, at + alignUp(Math.min(budget - given, to - at), page));
        // the written parts of the piece, widened to whole pages (inside it, so free) and joined
        let run: [number, number] | undefined;
        for (const [s, e] of this.touched.take(at, stop)) {
          const a = s - (s % page);
          const b = Math.min(stop, alignUp(e, page));
          if (run && a <= run[1]) run[1] = b;
          else {
            if (run) given += discard(u8, run[0], run[1]);
            run = [a, b];
          }
        }
        if (run) given += discard(u8, run[0], run[1]);
        at = stop;
      }
    }
    this.discardedBytes += given;
    this.idleFloor = this.idleBytes;
    return given;
  }

  /** The live blocks as [start, end) ranges, adjacent ones joined, in address order. */
  liveRanges(): Array<[number, number]> {
    return this.blocks.liveRanges();
  }

  /**
   * Moves every live block, at the same address, into a fresh shared memory (`into`, grown as
   * needed: one made by relocationTarget() and written in beforehand, so that the copy does not pay
   * for its pages' first touch) spanning the module's static data and the blocks up to the highest:
   * what the old memory's pages held besides is given back once nothing references it. Every thread
   * must instantiate its kernels on the new memory before touching the heap again (EnginePool does,
   * per task). Refused (InvalidPointerError) while a task is pinned or a block awaits reclamation.
   */
  relocate(into: WebAssembly.Memory = this.relocationTarget()): WebAssembly.Memory {
    if (this.epochs.outstandingPins > 0 || this.retired.size > 0) {
      throw new InvalidPointerError('relocate: tasks are in flight or blocks await reclamation');
    }
    this.releaseScratch();
    const need = Math.ceil(Math.max(this.blocks.top, this.blocks.base) / PAGE_BYTES) - into.buffer.byteLength / PAGE_BYTES;
    if (need > 0) into.grow(need);
    const from = this.views.u8;
    const to = new Uint8Array(into.buffer);
    const touched = new TouchedRanges();
    touched.add(0, this.blocks.base);
    to.set(from.subarray(0, this.blocks.base));
    for (const [start, end] of this.blocks.liveRanges()) {
      to.set(from.subarray(start, end), start);
      touched.add(start, end);
    }
    this.touched = touched;
    this.idleFloor = 0;
    this.views.rebind(into);
    this.gen++;
    return into;
  }

  /** A fresh memory for relocate(): it spans the live blocks as they are now. */
  relocationTarget(): WebAssembly.Memory {
    const into = createSharedMemory(Math.max(this.blocks.top, this.blocks.base));
    // the blocks advised huge pages here are there before their pages are first written
    const u8 = new Uint8Array(into.buffer);
    if (this.hugePages) for (const [ptr, size] of this.huge) this.hugePages(u8, ptr, Math.min(ptr + size, u8.length), true);
    return into;
  }

  get bytesInUse(): number {
    return this.blocks.liveBytes;
  }

  /** Bytes that live and retired blocks leave of maxBytes (free blocks, kept scratch and room to grow; fragmentation aside). */
  get bytesAvailable(): number {
    return this.maxBytes - this.blocks.liveBytes + this.keptBytes;
  }

  /** Reserves `bytes` (16-byte aligned); contents are undefined unless `zero`. */
  alloc(bytes: number, opts: { zero?: boolean } = {}): number {
    if (!Number.isSafeInteger(bytes) || bytes < 0) throw new AllocSizeError(`alloc: size must be a non-negative integer, got ${bytes}`);
    const size = alignUp(Math.max(bytes, 1));
    let ptr = this.blocks.allocate(size, this.views.byteLength);
    if (ptr === undefined && this.releaseScratch()) ptr = this.blocks.allocate(size, this.views.byteLength);
    if (ptr === undefined) {
      this.growTo(this.blocks.needed(size), bytes);
      ptr = this.blocks.allocate(size, this.views.byteLength);
      if (ptr === undefined) throw new WasmOutOfMemoryError(`alloc: ${bytes} B did not fit after growth`, bytes);
    }
    if (this.hugePages && size >= MEMORY.hugePagesFrom) {
      this.hugePages(this.views.u8, ptr, ptr + size, true);
      this.huge.set(ptr, size);
    }
    if (opts.zero) this.views.fill(ptr, size, 0);
    this.touched.add(ptr, ptr + size);
    this.idleFloor = Math.min(this.idleFloor, this.idleBytes);
    return ptr;
  }

  /**
   * A block for one task's scratch (contents undefined unless isClean): the smallest kept one
   * (freeScratch) of at least `bytes` and at most MEMORY.scratch.maxOversize times it, one kept clean
   * under `tag` first, else a fresh block.
   */
  allocScratch(bytes: number, tag?: string): number {
    const want = alignUp(Math.max(bytes, 1));
    const fits = (size: number) => size >= want && size <= want * MEMORY.scratch.maxOversize;
    const size = (ptr: number) => this.blocks.sizeOf(ptr) ?? 0;
    const tagged = (ptr: number) => tag !== undefined && this.cleanTags.get(ptr) === tag;
    let best = -1;
    for (let i = 0; i < this.kept.length; i++) {
      const p = this.kept[i];
      if (!fits(size(p))) continue;
      const q = this.kept[best];
      if (best < 0 || (tagged(p) !== tagged(q) ? tagged(p) : size(p) < size(q))) best = i;
    }
    return best < 0 ? this.alloc(bytes) : this.kept.splice(best, 1)[0];
  }

  /** Whether a scratch block's last task ended it clean under `tag` (freeScratch). */
  isClean(ptr: number, tag: string): boolean {
    return this.cleanTags.get(ptr) === tag;
  }

  /**
   * Ends a task's scratch: the block stays live for the next task (its pages written, so no task
   * faults them in again, and no eager discard drops them), up to MEMORY.scratch.keep blocks, the
   * oldest freed beyond; every kept block is freed when the engine is idle (discardWhenIdle), before
   * a move, and when an allocation would otherwise grow the memory.
   */
  freeScratch(ptr: number, cleanTag?: string): void {
    if (this.blocks.sizeOf(ptr) === undefined || this.retired.has(ptr))
      throw new InvalidPointerError(`freeScratch: ${ptr} is not a live block`);
    if (cleanTag === undefined) this.cleanTags.delete(ptr);
    else this.cleanTags.set(ptr, cleanTag);
    this.kept.push(ptr);
    while (this.kept.length > MEMORY.scratch.keep) this.free(this.kept.shift()!);
  }

  /** Frees every kept scratch block; returns whether there was one. */
  releaseScratch(): boolean {
    const any = this.kept.length > 0;
    for (const ptr of this.kept.splice(0)) this.free(ptr);
    return any;
  }

  /** Bytes of the kept scratch blocks. */
  private get keptBytes(): number {
    return this.kept.reduce((n, ptr) => n + (this.blocks.sizeOf(ptr) ?? 0), 0);
  }

  /** Frees a block at once. Only for blocks no in-flight task can still read. */
  free(ptr: number): void {
    if (this.retired.has(ptr)) throw new InvalidPointerError(`free: block ${ptr} is already retired`);
    if (this.blocks.release(ptr) === undefined) throw new InvalidPointerError(`free: ${ptr} is not a live block`);
    this.cleanTags.delete(ptr);
    this.adviseUpTo(ptr, 0);
    this.afterRelease();
  }

  /** Gives back the end of a live block past `bytes` (rounded up to 16; a block written in place, smaller than foreseen). */
  shrink(ptr: number, bytes: number): void {
    if (this.retired.has(ptr)) throw new InvalidPointerError(`shrink: block ${ptr} is retired`);
    if (this.blocks.shrink(ptr, alignUp(Math.max(bytes, 1))) === undefined)
      throw new InvalidPointerError(`shrink: ${ptr} is not a live block`);
    this.cleanTags.delete(ptr);
    this.adviseUpTo(ptr, alignUp(Math.max(bytes, 1)));
    this.afterRelease();
  }

  /** Frees a block once every task dispatched before this call has finished. */
  retire(ptr: number): void {
    const size = this.blocks.sizeOf(ptr);
    if (size === undefined) throw new InvalidPointerError(`retire: ${ptr} is not a live block`);
    if (this.retired.has(ptr)) throw new InvalidPointerError(`retire: block ${ptr} is already retired`);
    this.retired.add(ptr);
    this.cleanTags.delete(ptr);
    this.retiredBytes += size;
    this.reclaim(this.epochs.retire(ptr));
  }

  /** Marks a task as in flight (call at dispatch); blocks retired from now on outlive it. */
  pin(): PinToken {
    return this.epochs.pin();
  }

  /** Whether a task is in flight: a block it may read must not change under it (copy it, retire the old). */
  get pinned(): boolean {
    return this.epochs.outstandingPins > 0;
  }

  /** Marks a task as finished (exactly once per token). */
  unpin(token: PinToken): void {
    this.reclaim(this.epochs.unpin(token));
  }

  /** Size in bytes of a live block (rounded up to 16), or undefined. */
  sizeOf(ptr: number): number | undefined {
    return this.blocks.sizeOf(ptr);
  }

  stats(): HeapStats {
    return {
      bytesInUse: this.blocks.liveBytes,
      bytesRetired: this.retiredBytes,
      bytesFree: this.blocks.freeBytes,
      liveBlocks: this.blocks.liveBlocks,
      retiredBlocks: this.retired.size,
      outstandingPins: this.epochs.outstandingPins,
      top: this.blocks.top,
      capacity: this.views.byteLength,
      maxBytes: this.maxBytes,
      bytesDiscarded: this.discardedBytes,
      bytesScratchKept: this.keptBytes,
    };
  }

  private reclaim(ptrs: number[]): void {
    for (const p of ptrs) {
      this.retired.delete(p);
      this.retiredBytes -= this.blocks.release(p) ?? 0;
      this.adviseUpTo(p, 0);
    }
    if (ptrs.length > 0) this.afterRelease();
  }

  /** A block advised huge pages (alloc) keeps the advice over its first `bytes` only (0: freed). */
  private adviseUpTo(ptr: number, bytes: number): void {
    const size = this.huge.get(ptr);
    if (size === undefined || size <= bytes || !this.hugePages) return;
    this.hugePages(this.views.u8, ptr + bytes, ptr + size, false);
    if (bytes > 0) this.huge.set(ptr, bytes);
    else this.huge.delete(ptr);
  }

  /** Gives free pages back once enough more memory than at the last pass is written and unused. */
  private afterRelease(): void {
    if (this.discardPages && this.idleBytes - this.idleFloor >= MEMORY.discard.minBytes) this.discardInSlices();
  }

  /** discardIdle when the engine is idle (pool.ts) and anything worth it was freed since the last pass. */
  discardWhenIdle(): number {
    this.releaseScratch();
    return this.idleBytes - this.idleFloor >= MEMORY.discard.minRangeBytes ? this.discardInSlices() : 0;
  }

  /**
   * discardIdle a slice (MEMORY.discard.sliceBytes) at a time: one now, the rest each on a later
   * turn of the event loop, so that a deleted store's gigabytes never hold the thread up at once.
   * Returns what the first slice gave back.
   */
  private discardInSlices(): number {
    if (this.discardScheduled) return 0;
    const given = this.discardIdle(MEMORY.discard.sliceBytes);
    if (this.discardLeft) {
      this.discardScheduled = true;
      setImmediate(() => {
        this.discardScheduled = false;
        this.discardInSlices();
      });
    }
    return given;
  }

  /** Grows the memory so that it spans at least `end` bytes (by >= 1/8 when possible). */
  private growTo(end: number, requested: number): void {
    if (end > this.maxBytes) {
      throw new WasmOutOfMemoryError(
        `out of engine memory: ${requested} B requested, ${this.blocks.liveBytes} B in use, limit ${this.maxBytes} B`,
        requested,
      );
    }
    const cur = this.views.byteLength / PAGE_BYTES;
    const need = Math.ceil(end / PAGE_BYTES);
    const want = Math.min(this.maxBytes / PAGE_BYTES, Math.max(need, cur + Math.ceil(cur / 8)));
    try {
      this.memory.grow(want - cur);
    } catch (first) {
      try {
        if (want === need) throw first;
        this.memory.grow(need - cur);
      } catch (cause) {
        throw new WasmOutOfMemoryError(`out of engine memory: growing to ${need * PAGE_BYTES} B failed`, requested, { cause });
      }
    }
  }
}
