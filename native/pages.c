// svc's one native helper: gives memory back to the system, in two calls.
// discard(view, start, end) tells the kernel that the whole pages inside [start, end) of `view`
// (a typed array over the memory's buffer) are no longer needed (madvise MADV_DONTNEED on Linux):
// they stop counting in the process's RSS, and read as zeros when next touched. Returns the bytes
// given back (0 where the system has no such call). The caller guarantees that no thread reads or
// writes the range meanwhile (runtime/page-discard.ts, memory.ts discardIdle: free blocks only).
// reduceHeap() collects the calling thread's V8 heap and shrinks it to what is live, its young
// generation included (heap.cc); returns whether it could (runtime/collect.ts HeapCompaction).
#include <node_api.h>
#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

static napi_value discard(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3) {
    napi_throw_type_error(env, NULL, "discard(view, start, end)");
    return NULL;
  }
  napi_typedarray_type type;
  size_t length, offset;
  void *data;
  napi_value buffer;
  if (napi_get_typedarray_info(env, argv[0], &type, &length, &data, &buffer, &offset) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, NULL, "discard: view must be a Uint8Array");
    return NULL;
  }
  double start, end;
  if (napi_get_value_double(env, argv[1], &start) != napi_ok || napi_get_value_double(env, argv[2], &end) != napi_ok ||
      !(start >= 0) || !(end >= start) || end > (double)length) {
    napi_throw_range_error(env, NULL, "discard: need 0 <= start <= end <= view.length");
    return NULL;
  }
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
  return exports;
}
