// Entry point of the engine kernels (build/kernels.wasm).
// Invariants: kernels take raw byte offsets into the imported shared memory plus
// lengths, allocate nothing, hold no static data (so instantiating the module in
// every worker never rewrites shared memory) and never trap on inputs that the
// TypeScript wrappers in src/engine/runtime/kernels.ts accept.

export { dot_f32_rows, dot_i8_gather, dot_i8_rows, gemv_f32 } from './dot';
export { pool_f32, pool_i8 } from './pooling';
export {
  bm25_accumulate,
  bm25_accumulate_marked,
  bm25_accumulate_rows,
  bm25_accumulate_rows_coded,
  bm25_accumulate_touch,
  copy_rows_f32,
  copy_rows_u8,
  gather_f32,
  mask_dead,
  mask_rows,
  put_back_rows,
  sum_rows_f32,
  zero_rows,
} from './sparse';
export { topk, topk_keyed, topk_push, topk_sort } from './topk';
export { axpy_f32, copy_bytes, count_above, fill_bytes, histogram_f32, l2_normalize, max_diff_f32, max_f32, quantize_i8 } from './vector';

// First byte past the module's static data: the allocator starts at or above it.
export function heap_base(): usize {
  return __heap_base;
}
