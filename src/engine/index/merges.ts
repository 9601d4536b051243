// The background merges of one store index's segments (main thread): tiered after each write
// (segment/ mergePlan), and once the store has seen no write for SEGMENTS.idleMs its smallest
// segments into one (a search pays per segment for every term and title it looks up; a bulk load
// or a restart leaves many). Invariants: one merge at a time per index; a merge never takes the
// room searches need (MEMORY.headroomBytes), and its result, written in place in a block of its
// sources' size, is handed to the index (MergeHost.installMerged) or its block freed; nothing
// starts once the index is closed. A merge the worker pool has no room for (PoolBusyError) is tried
// again from a timer, never from the failed task's callbacks: those run before any reply of the
// pool's workers can come in, so a retry there fails again at once, forever, and the main thread
// spins without ever serving a request (what a server whose queue was full did). A merge skipped
// for room is logged once: the same plan, due again after every later write, is skipped quietly.
import { MEMORY, SEGMENTS } from '../params.js';
import { PoolBusyError } from '../runtime/index.js';
import { type MergeSource, mergePlan, type PlacedSegment } from '../segment/index.js';
import { placedBlocks, type SegmentBlocks } from './segment-blocks.js';
import type { EngineContext, Segment } from './types.js';

/** What the merges read of their index, and how they hand it a merged segment. */
export interface MergeHost {
  readonly ctx: EngineContext;
  closed(): boolean;
  segments(): Segment[];
  installMerged(plan: Segment[], built: PlacedSegment, rowSource: Uint32Array, blocks: SegmentBlocks): void;
}

export class SegmentMerges {
  private merging = false;
  private idleTimer?: ReturnType<typeof setTimeout>;
  private idleDue = false;
  private retryTimer?: ReturnType<typeof setTimeout>;
  /** The segments of the last merge skipped for room (their ids), so that it is logged once. */
  private skipped?: string;

  /** `whenIdle: false`: no idle merge (training needs a fixed layout); the tiered ones still run. */
  constructor(
    private readonly host: MergeHost,
    private readonly whenIdle: boolean,
  ) {}

  /** Whether a merge is running. */
  get running(): boolean {
    return this.merging;
  }

  /** No merge running and none due: the segments stay as they are until the next write. */
  get settled(): boolean {
    return !this.merging && !this.idleDue && this.retryTimer === undefined;
  }

  /** After a write that added segments: a tiered merge if one is due, and the idle clock restarted. */
  afterWrite(): void {
    this.maybeMerge();
    this.armIdle();
  }

  /** Restarts the idle clock (after each write): the idle merge runs SEGMENTS.idleMs after the last one. */
  armIdle(): void {
    if (!this.whenIdle || this.host.closed()) return;
    clearTimeout(this.idleTimer);
    this.idleDue = true;
    this.idleTimer = setTimeout(() => {
      this.idleDue = false;
      this.idleMerge();
    }, SEGMENTS.idleMs);
    this.idleTimer.unref?.();
  }

  /** Stops the idle clock and any retry (the index closes). */
  stop(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  /** A tiered merge the pool was too busy for, tried again in SEGMENTS.busyRetryMs (see the header). */
  private retryLater(): void {
    if (this.host.closed() || this.retryTimer !== undefined) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.maybeMerge();
    }, SEGMENTS.busyRetryMs);
    this.retryTimer.unref?.();
  }

  /**
   * Merges the smallest segments, up to SEGMENTS.idleMergeRows rows in all, into one (after any merge
   * running now), when the others hold at least 1/SEGMENTS.idleMergeRatio of the largest's rows: a
   * trickle of small writes is not folded into a big segment each time (at most
   * SEGMENTS.idleMergeRatio rows rewritten per row written, per size step), and the merge's memory
   * stays bounded however large the store.
   */
  private idleMerge(): void {
    if (this.host.closed()) return;
    if (this.merging) {
      this.armIdle();
      return;
    }
    const segments = this.host.segments();
    const small: Segment[] = [];
    let rows = 0;
    for (const seg of [...segments].sort((a, b) => a.nRows - b.nRows)) {
      if (rows + seg.nRows > SEGMENTS.idleMergeRows) break;
      small.push(seg);
      rows += seg.nRows;
    }
    if (small.length < 2) return;
    const largest = small[small.length - 1].nRows;
    // in list order (oldest first), as the tiered merges keep it
    if (SEGMENTS.idleMergeRatio * (rows - largest) >= largest)
      this.start(
        segments.filter((seg) => small.includes(seg)),
        'idle',
      );
  }

  /** Merges small segments in the background when there are too many (segment/merge-policy.ts). */
  private maybeMerge(): void {
    if (this.merging || this.host.closed()) return;
    const plan = mergePlan(this.host.segments());
    if (plan) this.start(plan, 'tiered');
  }

  private start(plan: Segment[], kind: 'tiered' | 'idle'): void {
    const { ctx } = this.host;
    // a merge never takes the room searches need (its result is at most its sources' size): at the
    // memory's bound the segments stay as they are until writes or deletes change the plan
    const bytes = plan.reduce((a, seg) => a + (ctx.images.sizeOf(seg.base) ?? 0), 0);
    if (ctx.images.bytesAvailable - bytes < MEMORY.headroomBytes) {
      this.skip(plan, 'segment merge skipped: the engine memory is nearly full', { bytes });
      return;
    }
    // the merged image is written in place, in a block of its sources' size (never larger: merge
    // drops rows, it adds none), cut to the image once written; its pages are written only as far
    // as the image goes
    let into: number | undefined;
    try {
      into = ctx.images.alloc(bytes);
    } catch (err) {
      this.skip(plan, 'segment merge skipped: no block for its result', { bytes, err: String(err) });
      return;
    }
    this.merging = true;
    const sources: MergeSource[] = plan.map((s) => ({
      base: s.base,
      dead: s.dead,
      nRows: s.nRows,
      rowStart: s.rowStart,
      rowEnd: s.rowEnd,
      rowSlot: s.rowSlot,
    }));
    let outcome: 'merged' | 'busy' | 'failed' = 'merged';
    ctx
      .mergeSegments(sources, { ptr: into, bytes })
      .then(({ placed, rowSource }) => {
        const blocks = placedBlocks(ctx, into as number, placed);
        into = undefined; // the segment's now
        this.host.installMerged(plan, placed, rowSource, blocks);
      })
      .catch((err) => {
        if (into !== undefined) ctx.images.free(into);
        outcome = err instanceof PoolBusyError ? 'busy' : 'failed';
        if (outcome === 'failed') ctx.log('segment merge failed', { err: String(err) });
      })
      .finally(() => {
        this.merging = false;
        // merged: the next merge due; no room in the pool: the same again later; failed: the next
        // write or idle merge tries again (a failure that repeats never runs in a loop)
        if (outcome === 'merged') this.maybeMerge();
        else if (outcome === 'busy' && kind === 'idle') this.armIdle();
        else if (outcome === 'busy') this.retryLater();
      });
  }

  /**
   * Logs a merge skipped for room, unless it is the merge skipped last: a top tier whose merged
   * image no block can hold is planned again after every write that fills no lower tier.
   */
  private skip(plan: Segment[], msg: string, fields: Record<string, unknown>): void {
    const key = plan.map((seg) => seg.id).join(',');
    if (key !== this.skipped) this.host.ctx.log(msg, { ...fields, segments: plan.length });
    this.skipped = key;
  }
}
