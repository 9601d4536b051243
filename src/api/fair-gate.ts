// Fair admission of engine work (searches, ingest encoding) across projects. Invariants: at most
// `slots` requests are in the engine at once; the others wait in one FIFO queue per project, and a
// freed slot goes to the next project in turn (round robin), so a project that sends as much as its
// rate limit allows cannot starve another: each busy project gets an equal share of the engine, an
// idle one is served at its next turn. A project whose queue already holds `queue` requests is
// answered at once with 503 service_unavailable and Retry-After, never left to time out.
import { ApiError } from '../errors.js';

interface Waiter {
  start: () => void;
}

export class FairGate {
  private running = 0;
  /** Projects with waiting requests, in turn order (Map keeps insertion order). */
  private readonly queues = new Map<string, Waiter[]>();

  constructor(
    readonly slots: number,
    readonly queue: number,
  ) {}

  /** Waiting requests of `project` (for tests and logs). */
  waiting(project: string): number {
    return this.queues.get(project)?.length ?? 0;
  }

  async run<T>(project: string, fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots || this.queues.size > 0) {
      const q = this.queues.get(project) ?? [];
      if (q.length >= this.queue) {
        throw new ApiError(
          'service_unavailable',
          `the search workers are saturated (${q.length} requests of project '${project}' are waiting)`,
          { headers: { 'Retry-After': '1' } },
        );
      }
      await new Promise<void>((resolve) => {
        q.push({ start: resolve });
        if (!this.queues.has(project)) this.queues.set(project, q);
      });
    } else {
      this.running++;
    }
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  /** Hands the slot to the first waiter of the next project in turn, or frees it. */
  private release(): void {
    const next = this.queues.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [project, q] = next.value;
    const waiter = q.shift()!;
    this.queues.delete(project);
    if (q.length) this.queues.set(project, q);
    waiter.start();
  }
}

/** Runs the engine part of a request (never an outside call such as an LLM) through the gate of the server, if any. */
export function engineTurn<T>(ctx: { project: string; services: { gate?: FairGate } }, fn: () => Promise<T>): Promise<T> {
  const gate = ctx.services.gate;
  return gate ? gate.run(ctx.project, fn) : fn();
}
