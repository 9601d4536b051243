// Where segment images live (main thread): the engine's main memory (region 0: the kernels'
// memory, with the model, every task's scratch, the dead flags and tie keys) up to its share of
// images, and further shared memories of at most 4 GiB each (regions 1, 2, ...), so that one
// store's index is not bounded by one WebAssembly memory. No kernel runs on a region past 0: the
// ops read its images through typed views, and a search copies a term's postings into region 0 to
// scan them there (ranking/corpus-scan.ts), beside the rows' lengths kept there (index
// Segment.lens). An image's address is region * REGION_SPAN + its offset in that region's memory,
// so an address in region 0 is the plain pointer it always was.
// Invariants: regions are only ever added, never dropped or moved (their free pages go back in
// place where the native helper is built); every address handed out lies in one block of one
// region; the memories never span more than `maxBytes` in all (WasmOutOfMemoryError, nothing
// held); an allocation fails or succeeds whole.
import { REGIONS } from '../params.js';
import { InvalidPointerError, WasmOutOfMemoryError } from './errors.js';
import { ALIGN } from './free-list.js';
import { createSharedMemory, MAX_MEMORY_BYTES, type PinToken, WasmHeap } from './memory.js';
import type { HugePages, PageDiscard } from './types.js';

/** Addresses of one region span this many bytes (a memory holds at most 4 GiB). */
export const REGION_SPAN = 2 ** 32;

export const regionOf = (addr: number) => Math.floor(addr / REGION_SPAN);
export const offsetOf = (addr: number) => addr % REGION_SPAN;

export interface ImageSpaceOptions {
  /** The most bytes the regions may span in all, the main memory's included (at least the main memory's bound). */
  maxBytes: number;
  /** The most bytes of one region past 0 (default and at most 4 GiB). */
  regionBytes?: number;
  /** The most bytes of images the main memory takes before regions are made (default REGIONS.mainShare of its bound). */
  mainImageBytes?: number;
  /** The native helper that drops free pages, for the regions past 0. */
  discard?: PageDiscard;
  /** The native helper's huge-page advice, for the regions past 0 (memory.ts). */
  hugePages?: HugePages;
}

export class ImageSpace {
  /** Region 0 is the main heap; the others hold segment images only. */
  readonly heaps: WasmHeap[];
  readonly maxBytes: number;
  private readonly regionBytes: number;
  private readonly mainImageBytes: number;

  constructor(
    readonly main: WasmHeap,
    private readonly opts: ImageSpaceOptions,
  ) {
    this.heaps = [main];
    this.maxBytes = Math.max(opts.maxBytes, main.maxBytes);
    this.regionBytes = Math.min(opts.regionBytes ?? MAX_MEMORY_BYTES, MAX_MEMORY_BYTES);
    this.mainImageBytes = opts.mainImageBytes ?? REGIONS.mainShare * main.maxBytes;
  }

  /** The memories of the regions past 0, in order (what every task names: pool.ts). */
  get memories(): WebAssembly.Memory[] {
    return this.heaps.slice(1).map((h) => h.memory);
  }

  private heapOf(addr: number): WasmHeap {
    const heap = this.heaps[regionOf(addr)];
    if (!heap || !Number.isSafeInteger(addr) || addr < 0) throw new InvalidPointerError(`image address ${addr} lies in no region`);
    return heap;
  }

  /**
   * A block for an image: in the main memory while it holds at most mainImageBytes with it (or,
   * where the bound leaves no room for another memory, as far as it goes), whether or not regions
   * were made; else in the first region with room, else in a new region; WasmOutOfMemoryError when
   * the regions' bound leaves no room. So an image smaller than the last one placed may still go to
   * the main memory (where the kernels read it without a copy), and room a freed image left there
   * is taken again.
   */
  alloc(bytes: number): number {
    const main = this.main;
    if (this.oneMemoryOnly) return main.alloc(bytes);
    if (bytes <= this.mainShareLeft) {
      try {
        return main.alloc(bytes);
      } catch (err) {
        if (!(err instanceof WasmOutOfMemoryError)) throw err;
      }
    }
    for (let r = 1; r < this.heaps.length; r++) {
      const heap = this.heaps[r];
      if (heap.bytesAvailable < bytes) continue;
      try {
        return r * REGION_SPAN + heap.alloc(bytes);
      } catch (err) {
        if (!(err instanceof WasmOutOfMemoryError)) throw err;
      }
    }
    const room = this.maxBytes - this.reservedBytes;
    const size = Math.min(this.regionBytes, room);
    if (size < bytes + ALIGN) {
      const why =
        this.regionBytes < bytes + ALIGN
          ? `is larger than a region (${this.regionBytes} B)`
          : `does not fit (${this.bytesInUse} B in use, limit ${this.maxBytes} B)`;
      throw new WasmOutOfMemoryError(`out of engine memory: an index image of ${bytes} B ${why}`, bytes);
    }
    const heap = new WasmHeap(createSharedMemory(), {
      heapBase: ALIGN,
      maxBytes: size,
      discard: this.opts.discard,
      hugePages: this.opts.hugePages,
    });
    this.heaps.push(heap);
    return (this.heaps.length - 1) * REGION_SPAN + heap.alloc(bytes);
  }

  free(addr: number): void {
    this.heapOf(addr).free(offsetOf(addr));
  }

  retire(addr: number): void {
    this.heapOf(addr).retire(offsetOf(addr));
  }

  shrink(addr: number, bytes: number): void {
    this.heapOf(addr).shrink(offsetOf(addr), bytes);
  }

  sizeOf(addr: number): number | undefined {
    return this.heaps[regionOf(addr)]?.sizeOf(offsetOf(addr));
  }

  /** A transient view of `n` bytes at `addr` (use at once). */
  u8At(addr: number, n: number): Uint8Array {
    return this.heapOf(addr).views.u8At(offsetOf(addr), n);
  }

  write(addr: number, src: ArrayBufferView): void {
    this.heapOf(addr).views.write(offsetOf(addr), src);
  }

  /** Pins every region past 0 (the main heap is pinned by the pool itself). */
  pin(): PinToken[] {
    return this.heaps.slice(1).map((h) => h.pin());
  }

  unpin(tokens: PinToken[]): void {
    for (const [i, t] of tokens.entries()) this.heaps[i + 1].unpin(t);
  }

  /** Gives back what the regions past 0 freed (pool.ts, when idle). */
  discardWhenIdle(): void {
    for (const heap of this.heaps.slice(1)) heap.discardWhenIdle();
  }

  /** The bounds of the memories there are (what each may grow to), the main memory's included. */
  get reservedBytes(): number {
    return this.heaps.reduce((n, h) => n + h.maxBytes, 0);
  }

  get bytesInUse(): number {
    return this.heaps.reduce((n, h) => n + h.bytesInUse, 0);
  }

  /** Bytes images may still take (as alloc() places them): room in the memories there are, and in those the bound leaves. */
  get bytesAvailable(): number {
    if (this.oneMemoryOnly) return this.main.bytesAvailable;
    const spare = Math.max(0, this.maxBytes - this.reservedBytes);
    const mainRoom = Math.min(this.mainShareLeft, this.main.bytesAvailable);
    return mainRoom + this.heaps.slice(1).reduce((n, h) => n + h.bytesAvailable, 0) + spare;
  }

  /** No region was made and the bound leaves room for none: every image goes to the main memory, as far as it goes. */
  private get oneMemoryOnly(): boolean {
    return this.heaps.length === 1 && this.maxBytes <= this.reservedBytes;
  }

  /** Bytes of images the main memory may still take under its share (mainImageBytes, counting all it holds). */
  private get mainShareLeft(): number {
    return Math.max(0, this.mainImageBytes - this.main.bytesInUse);
  }
}
