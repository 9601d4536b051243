// Times every kernel call a search makes and counts the bytes it streams, by wrapping the engine's
// WasmKernels (and its memory views' bulk fill/write) in a Proxy. Byte counts follow each kernel's
// contract (e.g. countAbove reads n f32 = 4n B; axpy reads x and y and writes y = 12n B; a BM25
// posting reads the posting and the row length and updates a score = 16 B); kernels not listed
// are timed with 0 bytes. Invariants: the wrapped object behaves exactly like the original (same
// return values, `this` bound to the real kernels); the counters only grow until reset().
import type { WasmKernels } from '../src/engine/runtime/index.js';

type Args = number[];
/** Bytes streamed by a call, from its arguments. */
const BYTES: Record<string, (a: Args) => number> = {
  countAbove: (a) => 4 * a[1],
  maxF32: (a) => 4 * a[1],
  topk: (a) => 4 * a[1],
  topkPush: (a) => 4 * a[1],
  histogramF32: (a) => 4 * a[1],
  maxDiffF32: (a) => 8 * a[2],
  axpyF32: (a) => 12 * a[0],
  fillBytes: (a) => a[1],
  copyBytes: (a) => 2 * a[2],
  maskDead: (a) => 5 * a[1],
  bm25Accumulate: (a) => 16 * a[1],
  dotI8Rows: (a) => a[1] * a[2] + 8 * a[1],
  dotF32Rows: (a) => 4 * a[1] * a[2] + 8 * a[1],
};
const VIEW_BYTES: Record<string, (a: unknown[]) => number> = {
  fill: (a) => Number(a[1]),
  write: (a) => 2 * ((a[1] as ArrayBufferView).byteLength ?? 0),
};

export interface KernelStat {
  calls: number;
  ms: number;
  bytes: number;
}

export class KernelProfile {
  readonly stats = new Map<string, KernelStat>();
  readonly kernels: WasmKernels;

  constructor(real: WasmKernels) {
    const record = (name: string, ms: number, bytes: number) => {
      const s = this.stats.get(name) ?? { calls: 0, ms: 0, bytes: 0 };
      s.calls++;
      s.ms += ms;
      s.bytes += bytes;
      this.stats.set(name, s);
    };
    const wrap = <T extends object>(target: T, table: Record<string, (a: any[]) => number>, prefix: string, all: boolean): T =>
      new Proxy(target, {
        get(t, prop, recv) {
          const v = Reflect.get(t, prop, recv);
          if (typeof v !== 'function' || typeof prop !== 'string' || prop === 'constructor') return v;
          if (!all && !(prop in table)) return v.bind(t);
          return (...args: any[]) => {
            const t0 = performance.now();
            const r = v.apply(t, args);
            record(prefix + prop, performance.now() - t0, table[prop]?.(args) ?? 0);
            return r;
          };
        },
      });
    const views = wrap(real.views, VIEW_BYTES, 'views.', false);
    const kernels = wrap(real, BYTES, '', true);
    this.kernels = new Proxy(kernels, { get: (t, prop, recv) => (prop === 'views' ? views : Reflect.get(t, prop, recv)) });
  }

  reset(): void {
    this.stats.clear();
  }

  totals(): KernelStat {
    let calls = 0,
      ms = 0,
      bytes = 0;
    for (const s of this.stats.values()) {
      calls += s.calls;
      ms += s.ms;
      bytes += s.bytes;
    }
    return { calls, ms, bytes };
  }

  /** Per-call-site averages over `searches` searches, heaviest first. */
  perSearch(searches: number): Array<{ name: string } & KernelStat> {
    return [...this.stats]
      .map(([name, s]) => ({ name, calls: s.calls / searches, ms: s.ms / searches, bytes: s.bytes / searches }))
      .sort((a, b) => b.ms - a.ms);
  }
}
