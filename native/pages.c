// svc's one native helper: gives memory back to the system, in two calls, and advises huge pages.
// discard(view, start, end) tells the kernel that the whole pages inside [start, end) of `view`
// (a typed array over the memory's buffer) are no longer needed (madvise MADV_DONTNEED on Linux):
// they stop counting in the process's RSS, and read as zeros when next touched. Returns the bytes
// given back (0 where the system has no such call). The caller guarantees that no thread reads or
// writes the range meanwhile (runtime/page-discard.ts, memory.ts discardIdle: free blocks only).
// reduceHeap() collects the calling thread's V8 heap and shrinks it to what is live, its young
// generation included (heap.cc); returns whether it could (runtime/collect.ts HeapCompaction).
// hugePages(view, start, end, on) asks the kernel to back the whole 2 MiB pages inside [start, end)
// with huge pages (madvise MADV_HUGEPAGE; MADV_NOHUGEPAGE when `on` is false): fewer TLB misses for
// a block read at scattered rows (memory.ts: a block of MEMORY.hugePagesFrom bytes or more).
// Returns the bytes advised (0 where the system has no such call).
#include <node_api.h>
#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

/** The typed array and range of a call (view, start, end, ...); NULL after throwing. */
static void *range_args(napi_env env, napi_value *argv, size_t argc, size_t need, const char *usage, double *start, double *end) {
  napi_typedarray_type type;
  size_t length, offset;
  void *data;
  napi_value buffer;
  if (argc < need || napi_get_typedarray_info(env, argv[0], &type, &length, &data, &buffer, &offset) != napi_ok ||
      type != napi_uint8_array) {
    napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  if (napi_get_value_double(env, argv[1], start) != napi_ok || napi_get_value_double(env, argv[2], end) != napi_ok ||
      !(*start >= 0) || !(*end >= *start) || *end > (double)length) {
    napi_throw_range_error(env, NULL, usage);
    return NULL;
  }
  return data;
}

static napi_value discard(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  const char *usage = "discard(view: Uint8Array, start, end), 0 <= start <= end <= view.length";
  double start, end;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  void *data = range_args(env, argv, argc, 3, usage, &start, &end);
  if (data == NULL) return NULL;
  double given = 0;
#if defined(__linux__)
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t from = ((uintptr_t)data + (uintptr_t)start + page - 1) & ~(page - 1);
  uintptr_t to = ((uintptr_t)data + (uintptr_t)end) & ~(page - 1);
  if (to > from && madvise((void *)from, to - from, MADV_DONTNEED) == 0) given = (double)(to - from);
#endif
  napi_value result;
  napi_create_double(env, given, &result);
  return result;
}

#define HUGE_PAGE_BYTES ((uintptr_t)2 << 20)

static napi_value huge_pages(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  const char *usage = "hugePages(view: Uint8Array, start, end, on), 0 <= start <= end <= view.length";
  double start, end;
  bool on = false;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  void *data = range_args(env, argv, argc, 4, usage, &start, &end);
  if (data == NULL) return NULL;
  if (napi_get_value_bool(env, argv[3], &on) != napi_ok) {
    napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  double advised = 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  uintptr_t from = ((uintptr_t)data + (uintptr_t)start + HUGE_PAGE_BYTES - 1) & ~(HUGE_PAGE_BYTES - 1);
  uintptr_t to = ((uintptr_t)data + (uintptr_t)end) & ~(HUGE_PAGE_BYTES - 1);
  if (to > from && madvise((void *)from, to - from, on ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) == 0) advised = (double)(to - from);
#else
  (void)on;
#endif
  napi_value result;
  napi_create_double(env, advised, &result);
  return result;
}

int svc_reduce_heap(void);

static napi_value reduce_heap(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  napi_get_boolean(env, svc_reduce_heap() != 0, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "discard", NAPI_AUTO_LENGTH, discard, NULL, &fn);
  napi_set_named_property(env, exports, "discard", fn);
  napi_create_function(env, "reduceHeap", NAPI_AUTO_LENGTH, reduce_heap, NULL, &fn);
  napi_set_named_property(env, exports, "reduceHeap", fn);
  napi_create_function(env, "hugePages", NAPI_AUTO_LENGTH, huge_pages, NULL, &fn);
  napi_set_named_property(env, exports, "hugePages", fn);
  return exports;
}
