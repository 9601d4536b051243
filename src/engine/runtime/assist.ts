// One task's work spread over the pool's idle workers: a board of job slots in a shared buffer
// (made by the pool, handed to every worker in workerData). A worker running a task posts a job (a
// registered kind, a payload of numbers, n units) and runs its units itself; every other worker
// listens to the board between its tasks (Atomics.waitAsync) and, when idle, joins an open job: each
// unit goes to whichever thread claims it first (an atomic counter), so a job ends as fast with no
// helper as it would have run alone, and a busy worker never holds another up.
// Invariants: a job's payload is written before its slot opens and read only while the slot is
// open; a helper joins only on the heap generation and regions the job names (else it leaves the
// job to its owner); the owner returns only once every unit ran and every helper left the slot, so
// nothing a unit writes outlives the owner's call; a unit runs exactly once, in a lane of its own
// (0: the owner; a helper's lane names its own scratch); a failed unit fails the owner's call.
import { WORKERS } from '../params.js';
import type { AssistKind, AssistUnit, OpContext } from './op-registry.js';

/** A worker's kernels and regions as they are now, with their heap generation (adopt.ts WorkerKernels). */
export type CurrentContext = () => { gen: number; ctx: OpContext } | undefined;

const kinds: AssistUnit[] = [];
const kindIds = new Map<string, number>();

function kindOf(name: string): number {
  const kind = kindIds.get(name);
  if (kind === undefined) throw new Error(`assist kind "${name}" is not registered`);
  return kind;
}

/** The payload of the jobs a thread runs alone (reused: a scan of a search runs several). */
let alonePayload = new Float64Array(1024);

/** Runs units 0..n-1 of `kind` on this thread alone, on a payload of its own (no board: a main thread's search). */
export function runAlone(ctx: OpContext, { unit }: AssistKind, n: number, size: number, write: (payload: Float64Array) => void): void {
  if (alonePayload.length < size) alonePayload = new Float64Array(Math.max(size, 2 * alonePayload.length));
  const payload = alonePayload;
  write(payload);
  for (let i = 0; i < n; i++) unit(ctx, payload, i, 0);
}

/** Registers a kind of job (in every worker, in the same order: worker.ts). */
export function registerAssist({ name, unit }: AssistKind): void {
  if (kindIds.has(name)) throw new Error(`assist kind "${name}" is already registered`);
  kindIds.set(name, kinds.length);
  kinds.push(unit);
}

// the board's words: a wake counter, the jobs opened and the units helpers ran, then each slot's header
const WAKE = 0;
const OPENED = 1;
const HELPED = 2;
const HEADER = 16;
const FREE = 0,
  WRITING = 1,
  OPEN = 2,
  CLOSING = 3;
const STATE = 0,
  NEXT = 1,
  DONE = 2,
  ACTIVE = 3,
  LANES = 4,
  UNITS = 5,
  KIND = 6,
  GEN = 7,
  REGIONS = 8,
  FAILED = 9;

/** What a board's buffer counts: the jobs opened on it, and the units of theirs a helper ran. */
export function assistCounts(buffer: SharedArrayBuffer): { jobs: number; helped: number } {
  const w = new Int32Array(buffer, 0, HEADER);
  return { jobs: Atomics.load(w, OPENED), helped: Atomics.load(w, HELPED) };
}

/** A board's shared buffer: WORKERS.assist.slots slots of payloadWords numbers each. */
export function createAssistBuffer(): SharedArrayBuffer {
  const { slots, payloadWords } = WORKERS.assist;
  return new SharedArrayBuffer(4 * HEADER * (slots + 1) + 8 * payloadWords * slots);
}

export class AssistBoard {
  private readonly words: Int32Array;
  private readonly payloads: Float64Array[] = [];
  private readonly slots: number;
  private listening = false;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly current: CurrentContext,
  ) {
    const { slots, payloadWords } = WORKERS.assist;
    this.slots = slots;
    this.words = new Int32Array(buffer, 0, HEADER * (slots + 1));
    for (let s = 0; s < slots; s++)
      this.payloads.push(new Float64Array(buffer, 4 * HEADER * (slots + 1) + 8 * payloadWords * s, payloadWords));
  }

  /**
   * Runs units 0..n-1 of `kind` (its payload of `size` numbers written by `write`) on this thread
   * and on whichever idle workers join; returns when all ran. With no free slot, a payload past a
   * slot's or fewer than two units, this thread runs them all (the same work, alone).
   */
  spread(job: AssistKind, n: number, size: number, write: (payload: Float64Array) => void): void {
    const now = this.current();
    if (!now) throw new Error(`assist: no task runs on this thread to run "${job.name}"`);
    const kind = kindOf(job.name);
    const slot = n >= 2 && size <= WORKERS.assist.payloadWords ? this.acquire() : -1;
    if (slot < 0) {
      runAlone(now.ctx, job, n, size, write);
      return;
    }
    try {
      write(this.payloads[slot]);
    } catch (err) {
      Atomics.store(this.words, this.at(slot, STATE), FREE);
      throw err;
    }
    const w = this.words;
    const h = (f: number) => this.at(slot, f);
    for (const [f, v] of [
      [NEXT, 0],
      [DONE, 0],
      [LANES, 1],
      [UNITS, n],
      [KIND, kind],
      [GEN, now.gen],
      [REGIONS, now.ctx.regions.length],
      [FAILED, 0],
    ] as const)
      Atomics.store(w, h(f), v);
    Atomics.store(w, h(STATE), OPEN);
    Atomics.add(w, OPENED, 1);
    Atomics.add(w, WAKE, 1);
    Atomics.notify(w, WAKE);
    let failure: unknown;
    try {
      this.work(slot, now.ctx, 0);
    } catch (err) {
      failure = err;
      this.drain(slot);
    }
    this.close(slot);
    if (failure !== undefined) throw failure;
    if (Atomics.load(w, h(FAILED)) !== 0) throw new Error('assist: a unit failed in a helper worker');
  }

  /** Between tasks, joins the jobs other workers open (a worker calls it once). */
  listen(): void {
    if (this.listening) return;
    this.listening = true;
    const loop = (): void => {
      for (;;) {
        const seen = Atomics.load(this.words, WAKE);
        this.helpOpen();
        const wait = Atomics.waitAsync(this.words, WAKE, seen);
        if (wait.async) {
          wait.value.then(loop);
          return;
        }
      }
    };
    loop();
  }

  private at(slot: number, field: number): number {
    return HEADER * (slot + 1) + field;
  }

  private acquire(): number {
    for (let s = 0; s < this.slots; s++) if (Atomics.compareExchange(this.words, this.at(s, STATE), FREE, WRITING) === FREE) return s;
    return -1;
  }

  /** Claims and runs the slot's units until none is left; returns how many it ran. */
  private work(slot: number, ctx: OpContext, lane: number): number {
    const w = this.words;
    const n = Atomics.load(w, this.at(slot, UNITS));
    const unit = kinds[Atomics.load(w, this.at(slot, KIND))];
    const payload = this.payloads[slot];
    let ran = 0;
    for (let i = Atomics.add(w, this.at(slot, NEXT), 1); i < n; i = Atomics.add(w, this.at(slot, NEXT), 1)) {
      try {
        unit(ctx, payload, i, lane);
      } finally {
        ran++;
        Atomics.add(w, this.at(slot, DONE), 1);
        Atomics.notify(w, this.at(slot, DONE));
      }
    }
    return ran;
  }

  /** Owner, after one of its units failed: claims what is left without running it (the task fails anyway). */
  private drain(slot: number): void {
    const w = this.words;
    const n = Atomics.load(w, this.at(slot, UNITS));
    while (Atomics.add(w, this.at(slot, NEXT), 1) < n) Atomics.add(w, this.at(slot, DONE), 1);
  }

  /** Owner: waits for every unit and every helper, then frees the slot (a helper that stops answering fails the task and keeps the slot). */
  private close(slot: number): void {
    const w = this.words;
    const n = Atomics.load(w, this.at(slot, UNITS));
    this.waitFor(slot, DONE, (v) => v >= n);
    Atomics.store(w, this.at(slot, STATE), CLOSING);
    this.waitFor(slot, ACTIVE, (v) => v === 0);
    Atomics.store(w, this.at(slot, STATE), FREE);
  }

  private waitFor(slot: number, field: number, ok: (v: number) => boolean): void {
    const i = this.at(slot, field);
    const until = performance.now() + WORKERS.assist.stallMs;
    for (let v = Atomics.load(this.words, i); !ok(v); v = Atomics.load(this.words, i)) {
      if (performance.now() > until) throw new Error(`assist: a helper worker stopped answering (slot ${slot})`);
      Atomics.wait(this.words, i, v, WORKERS.assist.stallMs);
    }
  }

  /** Helper: joins every open job this thread can run (same heap generation, every region viewed). */
  private helpOpen(): void {
    const w = this.words;
    for (let s = 0; s < this.slots; s++) {
      if (Atomics.load(w, this.at(s, STATE)) !== OPEN) continue;
      Atomics.add(w, this.at(s, ACTIVE), 1);
      try {
        // the slot cannot close (nor open another job) while ACTIVE counts this thread
        const now = this.current();
        if (Atomics.load(w, this.at(s, STATE)) !== OPEN || !now) continue;
        if (now.gen !== Atomics.load(w, this.at(s, GEN)) || now.ctx.regions.length < Atomics.load(w, this.at(s, REGIONS))) continue;
        const lane = Atomics.add(w, this.at(s, LANES), 1);
        if (lane >= WORKERS.assist.lanes) continue;
        try {
          Atomics.add(w, HELPED, this.work(s, now.ctx, lane));
        } catch {
          Atomics.store(w, this.at(s, FAILED), 1);
        }
      } finally {
        Atomics.sub(w, this.at(s, ACTIVE), 1);
        Atomics.notify(w, this.at(s, ACTIVE));
      }
    }
  }
}
