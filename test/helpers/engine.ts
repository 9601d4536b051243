// Shared helpers of the engine tests: seeded random inputs, an arena of heap
// blocks holding typed arrays, tolerance checks and typed-error assertions.

import type { Test } from 'tap';
import type { EngineRuntime } from '../../src/engine/runtime/index.js';

/** mulberry32: small deterministic PRNG in [0, 1) (the one training uses). */
export { mulberry32 as rng } from '../../src/train/learners.js';

export function randI8(r: () => number, n: number): Int8Array {
  const a = new Int8Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.floor(r() * 256) - 128;
  return a;
}

export function randF32(r: () => number, n: number, scale = 1): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = (r() * 2 - 1) * scale;
  return a;
}

/** Heap blocks of one test case, freed together. */
export class Arena {
  private readonly ptrs: number[] = [];
  constructor(readonly rt: EngineRuntime) {}

  alloc(bytes: number): number {
    const p = this.rt.heap.alloc(bytes);
    this.ptrs.push(p);
    return p;
  }

  put(a: ArrayBufferView): number {
    const p = this.alloc(a.byteLength);
    this.rt.heap.views.write(p, a);
    return p;
  }

  f32(p: number, n: number): Float32Array {
    return this.rt.heap.views.readF32(p, n);
  }
  u32(p: number, n: number): Uint32Array {
    return this.rt.heap.views.readU32(p, n);
  }
  u8(p: number, n: number): Uint8Array {
    return this.rt.heap.views.u8At(p, n).slice();
  }
  i8(p: number, n: number): Int8Array {
    return this.rt.heap.views.i8At(p, n).slice();
  }

  freeAll(): void {
    for (const p of this.ptrs.splice(0)) this.rt.heap.free(p);
  }
}

/** Element-wise |got - want| <= abs + rel * scale[i] (scale defaults to |want|). */
export function near(
  t: Test,
  got: ArrayLike<number>,
  want: ArrayLike<number>,
  rel: number,
  abs: number,
  msg: string,
  scale?: ArrayLike<number>,
): void {
  t.equal(got.length, want.length, `${msg}: length`);
  let worst = -1;
  for (let i = 0; i < want.length; i++) {
    const tol = abs + rel * (scale ? scale[i] : Math.abs(want[i]));
    if (!(Math.abs(got[i] - want[i]) <= tol)) {
      worst = i;
      break;
    }
  }
  t.equal(worst, -1, worst < 0 ? msg : `${msg}: [${worst}] got ${got[worst]} want ${want[worst]}`);
}

type ErrorClass = abstract new (...args: never[]) => Error;

export function throwsTyped(t: Test, fn: () => unknown, cls: ErrorClass, code: string, msg: string): void {
  const err = t.throws(fn, msg);
  t.ok(err instanceof cls, `${msg}: is ${cls.name}`);
  t.equal((err as { code?: string }).code, code, `${msg}: code ${code}`);
}

export async function rejectsTyped(t: Test, p: Promise<unknown>, cls: ErrorClass, code: string, msg: string): Promise<void> {
  let err: unknown;
  try {
    await p;
  } catch (e) {
    err = e;
  }
  t.ok(err instanceof cls, `${msg}: rejects with ${cls.name} (got ${String(err)})`);
  t.equal((err as { code?: string } | undefined)?.code, code, `${msg}: code ${code}`);
}
