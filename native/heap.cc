// The calling thread's V8 heap made as small as V8 can make it: a memory-pressure notification on
// the thread's own isolate runs, before it returns, one or two full collections that compact every
// fragmented page and shrink the young generation to its least (a plain full collection, as `gc()`
// runs it, leaves the young generation at the size the last busy spell grew it to: tens of MiB per
// thread, resident). The level is back to none when it returns. Then, with glibc, malloc_trim
// gives back the free pages of every malloc arena (what the collection freed: the buffers behind
// the garbage's typed arrays, among others), which glibc otherwise keeps for later allocations.
// Returns 0 when the thread has no isolate (never, called from JavaScript).
#include <v8.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

extern "C" int svc_reduce_heap(void) {
  v8::Isolate *isolate = v8::Isolate::GetCurrent();
  if (isolate == nullptr) return 0;
  isolate->MemoryPressureNotification(v8::MemoryPressureLevel::kCritical);
  isolate->MemoryPressureNotification(v8::MemoryPressureLevel::kNone);
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  return 1;
}
