// A full garbage collection of the calling thread's isolate, on request: what frees a relocated
// memory (memory.ts relocate), since V8 does not count a shared memory's pages as pressure that
// would start one by itself; and, repeated, what gives back the old-space pages a busy spell left
// emptied but committed (HeapCompaction), with the young generation shrunk as well where the native
// helper is built (native-helper.ts reduceHeap). Invariant: the first call exposes V8's `gc` to the
// process (the flag is process-wide, so workers created afterwards find it as a global); it changes
// nothing else.
import v8 from 'node:v8';
import vm from 'node:vm';
import { MEMORY } from '../params.js';
import { nativeHelper } from './native-helper.js';

let collect: (() => void) | undefined;

/** Runs a full collection of this thread's heap. */
export function collectGarbage(): void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = (globalThis.gc as (() => void) | undefined) ?? (vm.runInNewContext('gc') as () => void);
  }
  collect();
}

/**
 * A full collection of this thread's heap that also gives back what V8 keeps for a busy spell:
 * its young generation, at the size the last spell grew it to (MEMORY.compact.shrinkYoung), and
 * every fragmented page, with the native helper; a plain full collection without it.
 */
export function reduceHeap(): void {
  if (MEMORY.compact.shrinkYoung && nativeHelper().helper?.reduceHeap?.()) return;
  collectGarbage();
}

/** The bytes this thread's heap holds committed (V8's total heap size): resident once written. */
export function committedHeapBytes(): number {
  return v8.getHeapStatistics().total_heap_size;
}

/**
 * Full collections of this thread's heap, one per step, until its committed size falls by less than
 * MEMORY.compact.minGainBytes (at most MEMORY.compact.maxRounds): a collection evacuates only some
 * of the fragmented old-space pages, so after an ingest one collection leaves most of the pages its
 * garbage emptied committed (resident) beside the few objects still on them. A caller may stop
 * between steps (the main thread yields to its event loop there, and stops when work arrives).
 */
export class HeapCompaction {
  private readonly before = committedHeapBytes();
  private last = this.before;
  private rounds = 0;

  /** One full collection (reduceHeap); whether another is worth running. */
  step(): boolean {
    reduceHeap();
    const now = committedHeapBytes();
    const gain = this.last - now;
    this.last = now;
    this.rounds++;
    return gain >= MEMORY.compact.minGainBytes && this.rounds < MEMORY.compact.maxRounds;
  }

  /** Bytes given back to the system so far: the heap's committed size before, less now. */
  get given(): number {
    return Math.max(0, this.before - this.last);
  }
}

/** Every step of a HeapCompaction at once (a worker's); returns the bytes given back. */
export function compactHeap(): number {
  const c = new HeapCompaction();
  while (c.step());
  return c.given;
}

/**
 * The steps of a HeapCompaction with the event loop let run between them (the main thread's), up to
 * the first after which `stop` holds; resolves to the bytes given back.
 */
export async function compactHeapBetween(stop: () => boolean): Promise<number> {
  const c = new HeapCompaction();
  while (c.step()) {
    await new Promise((r) => setImmediate(r));
    if (stop()) break;
  }
  return c.given;
}
