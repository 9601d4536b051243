// Entry point of the engine kernels (build/kernels.wasm).
// Invariants: kernels take raw byte offsets into the imported shared memory plus
// lengths, allocate nothing, hold no static data (so instantiating the module in
// every worker never rewrites shared memory) and never trap on inputs that the
// TypeScript wrappers in src/engine/runtime/kernels.ts accept.

export { dot_i8_rows, dot_i8_gather, dot_f32_rows, gemv_f32 } from './dot';
export { topk, topk_push, topk_sort } from './topk';
export { pool_f32, pool_i8 } from './pooling';
export { l2_normalize, quantize_i8, axpy_f32, count_above, max_f32, histogram_f32, max_diff_f32 } from './vector';
export { bm25_accumulate, bm25_accumulate_touch, bm25_accumulate_marked, marked_indices, gather_f32, mask_dead } from './sparse';

// First byte past the module's static data: the allocator starts at or above it.
export function heap_base(): usize {
  return __heap_base;
}
