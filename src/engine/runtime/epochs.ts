// Epoch-based deferred reclamation (quiescent-state style, single thread).
// Invariants: a pin taken at dispatch records the current epoch; retiring an
// item stamps it with the current epoch and then advances the epoch, so every
// task pinned before the retire holds an epoch <= the stamp and every later one
// a greater epoch. An item is handed back only when no pin with epoch <= its
// stamp is outstanding. Pins are released exactly once.

export class PinToken {
  released = false;
  constructor(readonly epoch: number) {}
}

export class EpochTracker<T> {
  private epoch = 0;
  // epoch -> outstanding pins; keys are inserted in increasing order, so the
  // first key is the oldest pinned epoch.
  private readonly pins = new Map<number, number>();
  private readonly retired: { item: T; stamp: number }[] = [];
  private pinCount = 0;

  get outstandingPins(): number {
    return this.pinCount;
  }
  get pendingItems(): number {
    return this.retired.length;
  }
  get currentEpoch(): number {
    return this.epoch;
  }

  pin(): PinToken {
    this.pins.set(this.epoch, (this.pins.get(this.epoch) ?? 0) + 1);
    this.pinCount++;
    return new PinToken(this.epoch);
  }

  /** Releases a pin; returns the items that became reclaimable. */
  unpin(token: PinToken): T[] {
    if (token.released) throw new Error(`pin token of epoch ${token.epoch} released twice`);
    token.released = true;
    const n = this.pins.get(token.epoch) ?? 0;
    if (n <= 1) this.pins.delete(token.epoch);
    else this.pins.set(token.epoch, n - 1);
    this.pinCount--;
    return this.collect();
  }

  /** Queues an item; returns the items (possibly including it) now reclaimable. */
  retire(item: T): T[] {
    this.retired.push({ item, stamp: this.epoch });
    this.epoch++;
    return this.collect();
  }

  private collect(): T[] {
    if (this.retired.length === 0) return [];
    let oldest = Infinity;
    for (const e of this.pins.keys()) {
      oldest = e;
      break;
    }
    // Stamps are non-decreasing along `retired`, so reclaimable items form a prefix.
    let i = 0;
    while (i < this.retired.length && this.retired[i].stamp < oldest) i++;
    return this.retired.splice(0, i).map((r) => r.item);
  }
}
