// Loading and instantiating the compiled kernels (build/kernels.wasm).
// Invariants: the module imports exactly one shared memory (env.memory) and
// nothing else, so it cannot call back into JS, abort or keep per-thread state
// in memory; it exports every kernel listed in KernelExports. Instantiation is
// synchronous so workers can do it once at module load.

import { readFile } from 'node:fs/promises';
import { KernelModuleError } from './errors.js';
import type { KernelExports } from './types.js';

const KERNEL_NAMES: readonly (keyof KernelExports)[] = [
  'heap_base',
  'dot_i8_rows',
  'dot_i8_gather',
  'dot_f32_rows',
  'gemv_f32',
  'topk',
  'topk_keyed',
  'topk_push',
  'topk_sort',
  'pool_f32',
  'pool_i8',
  'l2_normalize',
  'quantize_i8',
  'axpy_f32',
  'fill_bytes',
  'copy_bytes',
  'count_above',
  'max_f32',
  'histogram_f32',
  'max_diff_f32',
  'bm25_accumulate',
  'bm25_accumulate_touch',
  'bm25_accumulate_marked',
  'bm25_accumulate_rows',
  'bm25_accumulate_rows_coded',
  'copy_rows_f32',
  'copy_rows_u8',
  'gather_f32',
  'mask_dead',
  'mask_rows',
  'put_back_rows',
  'sum_rows_f32',
  'zero_rows',
];

/** build/kernels.wasm, found from both src/engine (tsx, tests) and dist/engine. */
export const DEFAULT_KERNELS_URL = new URL('../../../build/kernels.wasm', import.meta.url);

/** Compiles the kernels and checks their imports and exports. */
export async function compileKernels(source: URL | string = DEFAULT_KERNELS_URL): Promise<WebAssembly.Module> {
  let bytes: Buffer;
  try {
    bytes = await readFile(source);
  } catch (cause) {
    throw new KernelModuleError(`cannot read kernels at ${String(source)} (run \`npm run build:wasm\`)`, { cause });
  }
  let module: WebAssembly.Module;
  try {
    module = await WebAssembly.compile(bytes);
  } catch (cause) {
    throw new KernelModuleError(`kernels at ${String(source)} do not compile: ${(cause as Error).message}`, { cause });
  }
  verifyModule(module);
  return module;
}

export function verifyModule(module: WebAssembly.Module): void {
  const imports = WebAssembly.Module.imports(module);
  const onlyMemory = imports.length === 1 && imports[0].module === 'env' && imports[0].name === 'memory' && imports[0].kind === 'memory';
  if (!onlyMemory) {
    const list = imports.map((i) => `${i.module}.${i.name} (${i.kind})`).join(', ');
    throw new KernelModuleError(`kernels must import only env.memory, found: ${list}`);
  }
  const exported = new Set(
    WebAssembly.Module.exports(module)
      .filter((e) => e.kind === 'function')
      .map((e) => e.name),
  );
  const missing = KERNEL_NAMES.filter((n) => !exported.has(n));
  if (missing.length) throw new KernelModuleError(`kernels lack exports: ${missing.join(', ')} (rebuild with \`npm run build:wasm\`)`);
}

/** Instantiates the kernels on a shared memory (any thread). */
export function instantiateRaw(module: WebAssembly.Module, memory: WebAssembly.Memory): KernelExports {
  if (!(memory.buffer instanceof SharedArrayBuffer)) throw new KernelModuleError('kernels need a shared WebAssembly.Memory');
  try {
    const instance = new WebAssembly.Instance(module, { env: { memory } });
    return instance.exports as unknown as KernelExports;
  } catch (cause) {
    throw new KernelModuleError(`cannot instantiate kernels: ${(cause as Error).message}`, { cause });
  }
}
