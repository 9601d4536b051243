// svc's native helper (native/pages.c and heap.cc, built by `npm run build:native`), loaded once per
// thread: `discard` drops pages of a WebAssembly memory (page-discard.ts checks it before the heap
// uses it), `reduceHeap` shrinks the calling thread's V8 heap to what is live (collect.ts),
// `hugePages` asks for huge pages under a large block (memory.ts). The
// helper is optional: where it is not built, callers get the reason and do without it.
import { createRequire } from 'node:module';
import type { HugePages, PageDiscard } from './types.js';

const HELPER = '../../../native/build/Release/pages.node';

export interface NativeHelper {
  discard: PageDiscard;
  /** the calling thread's heap collected and shrunk, its young generation included; false when it could not be (absent from a helper built before it) */
  reduceHeap?: () => boolean;
  /** huge pages under a range of a memory, or no longer (absent from a helper built before it) */
  hugePages?: HugePages;
}

let loaded: { helper?: NativeHelper; why: string } | undefined;

/** The helper, or undefined with the reason it could not be loaded (`why`). */
export function nativeHelper(): { helper?: NativeHelper; why: string } {
  loaded ??= load();
  return loaded;
}

function load(): { helper?: NativeHelper; why: string } {
  try {
    const helper = createRequire(import.meta.url)(HELPER) as Partial<NativeHelper>;
    if (typeof helper.discard !== 'function') return { why: 'the native helper is out of date (npm run build:native)' };
    return { helper: helper as NativeHelper, why: 'loaded' };
  } catch (err) {
    return { why: `the native helper is not built (npm run build:native): ${(err as Error).message.split('\n')[0]}` };
  }
}
