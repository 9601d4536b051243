// A full garbage collection of the calling thread's isolate, on request: what frees a relocated
// memory (memory.ts relocate), since V8 does not count a shared memory's pages as pressure that
// would start one by itself. Invariant: the first call exposes V8's `gc` to the process (the flag
// is process-wide, so workers created afterwards find it as a global); it changes nothing else.
import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | undefined;

/** Runs a full collection of this thread's heap. */
export function collectGarbage(): void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = (globalThis.gc as (() => void) | undefined) ?? (vm.runInNewContext('gc') as () => void);
  }
  collect();
}
