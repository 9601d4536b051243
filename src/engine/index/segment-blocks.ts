// The shared-memory blocks of a store's segments (main thread): a built segment's image (in the
// engine's regions of images: runtime/regions.ts), its dead flags, its rows' tie keys and, for an
// image past the kernels' memory, its rows' lengths (in the kernels' heap, which every search reads
// them from), allocated all or none (or, for a segment a merge wrote in place, its
// block cut to the image and the flags and keys added), and the blocks set aside for batches not yet
// installed. Invariants: a reservation is whole (every segment of its batch) or absent; one that would leave
// the heap less than MEMORY's headroom (the room searches' scratch and merges need) is refused with
// WasmOutOfMemoryError and holds nothing; a block set aside is freed exactly once, by take()'s
// caller or by release() or clear(); a segment's dead flags that a snapshot handed out change only
// in a copy while a task is in flight (ownDeadFlags).
import { MEMORY } from '../params.js';
import { type ImageSpace, regionOf, type WasmHeap, WasmOutOfMemoryError } from '../runtime/index.js';
import type { BuiltSegment, PlacedSegment } from '../segment/index.js';
import type { EngineContext, Segment } from './types.js';

/** Where a segment's blocks are allocated: its image among the regions, the rest in the heap. */
export interface BlockSpace {
  heap: WasmHeap;
  images: ImageSpace;
}

export interface SegmentBlocks {
  base: number;
  dead: number;
  keys: number;
  /** the rows' lengths in the kernels' memory, for an image past it (Segment.lens); else 0 */
  lens: number;
}

/** Allocates blocks of these sizes, all or none (WasmOutOfMemoryError, nothing held). */
function allocateAll(heap: WasmHeap, bytes: number[]): number[] {
  const got: number[] = [];
  try {
    for (const n of bytes) got.push(heap.alloc(n));
    return got;
  } catch (err) {
    for (const ptr of got) heap.free(ptr);
    throw err;
  }
}

/** The dead flags' and the tie keys' bytes of a segment of `nRows` rows. */
export const rowBlockBytes = (nRows: number) => [Math.max(nRows, 1), 4 * Math.max(nRows, 1)];

/**
 * Writes the tie keys of a segment's rows `from` to `to` (exclusive) as the segment's types.ts says
 * they are: each the hash of its document's id, `hashOf` the row's slot (`rowSlot`, set first).
 */
export function writeTieKeys(
  heap: WasmHeap,
  seg: Pick<Segment, 'keys' | 'nRows' | 'rowSlot'>,
  hashOf: (slot: number) => number,
  from = 0,
  to = seg.nRows,
): void {
  const keys = heap.views.u32At(seg.keys, seg.nRows);
  for (let r = from; r < to; r++) keys[r] = hashOf(seg.rowSlot[r]);
}

/**
 * The lengths block of a segment whose image lies at `base` (Segment.lens): for an image past the
 * kernels' memory, its rows' body then title lengths, written into the heap; else 0.
 */
export function lengthsBlock(heap: WasmHeap, base: number, blen: Float32Array, tlen: Float32Array): number {
  if (regionOf(base) === 0) return 0;
  const lens = heap.alloc(8 * Math.max(blen.length, 1));
  heap.views.write(lens, blen);
  heap.views.write(lens + 4 * blen.length, tlen);
  return lens;
}

/** The blocks a built segment takes, all or none. */
export function allocateBlocks({ heap, images }: BlockSpace, built: BuiltSegment): SegmentBlocks {
  const base = images.alloc(built.image.byteLength);
  let lens = 0;
  try {
    lens = lengthsBlock(heap, base, built.blen, built.tlen);
    const [dead, keys] = allocateAll(heap, rowBlockBytes(built.rowDoc.length));
    return { base, dead, keys, lens };
  } catch (err) {
    images.free(base);
    if (lens) heap.free(lens);
    throw err;
  }
}

/**
 * The blocks of a segment written in place in `ptr` (a merge's): the block cut to the image, the
 * rest given back, and its dead flags and tie keys. Throws WasmOutOfMemoryError when those do not
 * fit; the image's block is then still the caller's.
 */
export function placedBlocks({ heap, images }: BlockSpace, ptr: number, placed: PlacedSegment): SegmentBlocks {
  const lens = lengthsBlock(heap, ptr, placed.blen, placed.tlen);
  let dead: number;
  let keys: number;
  try {
    [dead, keys] = allocateAll(heap, rowBlockBytes(placed.rowDoc.length));
  } catch (err) {
    if (lens) heap.free(lens);
    throw err;
  }
  images.shrink(ptr, placed.bytes);
  return { base: ptr, dead, keys, lens };
}

/**
 * Makes a segment's dead flags its own before a row of it dies: flags a snapshot handed out, while
 * a task is in flight, are copied (the copy is the segment's from now on, the old block retired, so
 * the search reads it unchanged until it finishes). With no room for the copy the flags change in
 * place, and a search in flight may see rows die under it.
 */
export function ownDeadFlags(heap: WasmHeap, seg: Segment, log: EngineContext['log']): void {
  if (!seg.deadShared) return;
  seg.deadShared = false;
  if (!heap.pinned) return;
  const bytes = Math.max(seg.nRows, 1);
  let copy: number;
  try {
    copy = heap.alloc(bytes);
  } catch (err) {
    log('dead flags changed in place: no room for a copy', { bytes, err: String(err) });
    return;
  }
  heap.views.write(copy, heap.views.u8At(seg.dead, bytes));
  heap.retire(seg.dead);
  seg.dead = copy;
}

/** What holds a block: the regions of images or the heap. */
type BlockOwner = Pick<WasmHeap, 'free' | 'retire' | 'sizeOf'>;

/** Where each block of a segment lies: its image among the regions, the rest (lens only when set) in the heap. */
function blocksOf({ heap, images }: BlockSpace, { base, dead, keys, lens }: SegmentBlocks): Array<[BlockOwner, number]> {
  const out: Array<[BlockOwner, number]> = [
    [images, base],
    [heap, dead],
    [heap, keys],
  ];
  if (lens) out.push([heap, lens]);
  return out;
}

export function freeBlocks(space: BlockSpace, blocks: SegmentBlocks): void {
  for (const [where, ptr] of blocksOf(space, blocks)) where.free(ptr);
}

/** Retires a segment's blocks: each freed once no task that may read it is in flight. */
export function retireBlocks(space: BlockSpace, blocks: SegmentBlocks): void {
  for (const [where, ptr] of blocksOf(space, blocks)) where.retire(ptr);
}

/** Bytes a segment's blocks take. */
export function blocksBytes(space: BlockSpace, blocks: SegmentBlocks): number {
  return blocksOf(space, blocks).reduce((n, [where, ptr]) => n + (where.sizeOf(ptr) ?? 0), 0);
}

/** Blocks set aside per batch (keyed by the batch object) until they are taken or released. */
export class Reservations<K> {
  private readonly held = new Map<K, SegmentBlocks[]>();

  constructor(private readonly space: BlockSpace) {}

  /** Sets aside the blocks of `built`'s segments for `key`, or throws WasmOutOfMemoryError holding nothing. */
  reserve(key: K, built: BuiltSegment[]): void {
    const { heap } = this.space;
    const blocks: SegmentBlocks[] = [];
    try {
      for (const b of built) blocks.push(allocateBlocks(this.space, b));
      const headroom = Math.max(MEMORY.headroomBytes, heap.bytesInUse / MEMORY.headroomShare);
      if (heap.bytesAvailable < headroom) {
        throw new WasmOutOfMemoryError(
          `engine memory: the batch would leave ${heap.bytesAvailable} B of ${heap.maxBytes} B, less than the ${Math.round(headroom)} B searches and merges need`,
        );
      }
    } catch (err) {
      for (const b of blocks) freeBlocks(this.space, b);
      throw err;
    }
    this.held.set(key, blocks);
  }

  /** The blocks set aside for `key` (now the caller's), or undefined. */
  take(key: K): SegmentBlocks[] | undefined {
    const blocks = this.held.get(key);
    this.held.delete(key);
    return blocks;
  }

  release(key: K): void {
    for (const b of this.take(key) ?? []) freeBlocks(this.space, b);
  }

  clear(): void {
    for (const key of [...this.held.keys()]) this.release(key);
  }
}
