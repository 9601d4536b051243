// Typed views over the shared WebAssembly memory, valid across growth.
// Invariants: views are rebuilt whenever the memory's byte length changed
// (growth from any thread) or the heap moved to another memory (rebind), so callers
// never see a stale, shorter buffer or a memory no longer in use; every
// span is bounds-checked (safe integer, non-negative, element-aligned, inside
// the memory) before it is touched, raising KernelBoundsError otherwise.

import { KernelBoundsError } from './errors.js';

/** Largest element count accepted for an i32 kernel length parameter. */
export const MAX_I32 = 0x7fffffff;

export class MemoryViews {
  private len = -1;
  private bytes!: Uint8Array;
  private ints8!: Int8Array;
  private uints32!: Uint32Array;
  private floats32!: Float32Array;

  constructor(private mem: WebAssembly.Memory) {
    this.sync();
  }

  get memory(): WebAssembly.Memory {
    return this.mem;
  }

  /** Points the views at another memory (the heap's relocation): views taken before are stale. */
  rebind(memory: WebAssembly.Memory): void {
    this.mem = memory;
    this.len = -1;
    this.sync();
  }

  private sync(): void {
    const buf = this.memory.buffer;
    if (buf.byteLength === this.len) return;
    this.len = buf.byteLength;
    this.bytes = new Uint8Array(buf);
    this.ints8 = new Int8Array(buf);
    this.uints32 = new Uint32Array(buf);
    this.floats32 = new Float32Array(buf);
  }

  /** Current size of the memory in bytes (refreshed). */
  get byteLength(): number {
    this.sync();
    return this.len;
  }

  get u8(): Uint8Array {
    this.sync();
    return this.bytes;
  }
  get i8(): Int8Array {
    this.sync();
    return this.ints8;
  }
  get u32(): Uint32Array {
    this.sync();
    return this.uints32;
  }
  get f32(): Float32Array {
    this.sync();
    return this.floats32;
  }

  /** Makes sure the views cover `end` bytes, refreshing from the memory when another thread grew it. */
  private covers(end: number): boolean {
    if (end <= this.len) return true;
    this.sync();
    if (end <= this.len) return true;
    this.memory.grow(0);
    this.sync();
    return end <= this.len;
  }

  /**
   * Checks that `count` elements of `elemBytes` bytes at byte offset `ptr` lie in
   * memory; `what` names the argument in the error message.
   */
  check(what: string, ptr: number, count: number, elemBytes: number): void {
    if (!Number.isSafeInteger(ptr) || ptr < 0) {
      throw new KernelBoundsError(`${what}: pointer must be a non-negative integer byte offset, got ${ptr}`);
    }
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new KernelBoundsError(`${what}: length must be a non-negative integer, got ${count}`);
    }
    if (ptr % elemBytes !== 0) {
      throw new KernelBoundsError(`${what}: pointer ${ptr} is not ${elemBytes}-byte aligned`);
    }
    const end = ptr + count * elemBytes;
    if (!this.covers(end)) {
      throw new KernelBoundsError(`${what}: [${ptr}, ${end}) is outside memory of ${this.len} bytes`);
    }
  }

  /** Copies a typed array (any element type) into memory at `ptr`. */
  write(ptr: number, src: ArrayBufferView): void {
    this.check('write', ptr, src.byteLength, 1);
    this.bytes.set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength), ptr);
  }

  /**
   * Sets `bytes` bytes at `ptr` to `value`. The whole words of the span are filled through the
   * 32-bit view: over shared memory a byte view's fill stores byte by byte, four times slower.
   */
  fill(ptr: number, bytes: number, value = 0): void {
    this.check('fill', ptr, bytes, 1);
    const end = ptr + bytes;
    const lo = Math.min(Math.ceil(ptr / 4) * 4, end);
    const hi = Math.max(Math.floor(end / 4) * 4, lo);
    this.bytes.fill(value, ptr, lo);
    this.uints32.fill(((value & 255) * 0x01010101) >>> 0, lo >>> 2, hi >>> 2);
    this.bytes.fill(value, hi, end);
  }

  /** Transient views (invalid once memory grows): use at once, do not keep. */
  f32At(ptr: number, n: number): Float32Array {
    this.check('f32At', ptr, n, 4);
    return this.floats32.subarray(ptr >>> 2, (ptr >>> 2) + n);
  }

  u32At(ptr: number, n: number): Uint32Array {
    this.check('u32At', ptr, n, 4);
    return this.uints32.subarray(ptr >>> 2, (ptr >>> 2) + n);
  }

  i8At(ptr: number, n: number): Int8Array {
    this.check('i8At', ptr, n, 1);
    return this.ints8.subarray(ptr, ptr + n);
  }

  u8At(ptr: number, n: number): Uint8Array {
    this.check('u8At', ptr, n, 1);
    return this.bytes.subarray(ptr, ptr + n);
  }

  /** Copies out of shared memory (safe to keep and to post to another thread). */
  readF32(ptr: number, n: number): Float32Array {
    return this.f32At(ptr, n).slice();
  }

  readU32(ptr: number, n: number): Uint32Array {
    return this.u32At(ptr, n).slice();
  }
}
