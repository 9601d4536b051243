// The native helper that gives free pages of the engine's memory back to the system
// (native/pages.c, built by `npm run build:native`): WebAssembly memory never shrinks, but its pages
// can be dropped, and a dropped page costs nothing until it is written again. Loaded once, and used
// only after a check on a small memory of its own (a page written, given back, read as zero), so a
// helper that is missing, built for another platform or without effect leaves the engine as it was
// without it (its memory given back by relocation: memory.ts relocate).
// Invariant: only the heap calls it, and only on free ranges (memory.ts discardIdle).
import { nativeHelper } from './native-helper.js';
import type { PageDiscard } from './types.js';

/** The size of the pages the helper drops (the system's; 4 KiB on the platforms it is built for). */
export const DISCARD_PAGE_BYTES = 4096;

let loaded: { discard?: PageDiscard; why: string } | undefined;

/** The helper, or undefined with the reason (`why`) when it is not there or does not work here. */
export function pageDiscard(): { discard?: PageDiscard; why: string } {
  loaded ??= load();
  return loaded;
}

function load(): { discard?: PageDiscard; why: string } {
  const { helper, why } = nativeHelper();
  if (!helper) return { why };
  const { discard } = helper;
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  const u8 = new Uint8Array(memory.buffer);
  u8.fill(1);
  const given = discard(u8, DISCARD_PAGE_BYTES, 2 * DISCARD_PAGE_BYTES);
  const works =
    given === DISCARD_PAGE_BYTES && u8[DISCARD_PAGE_BYTES] === 0 && u8[DISCARD_PAGE_BYTES - 1] === 1 && u8[2 * DISCARD_PAGE_BYTES] === 1;
  if (!works) return { why: `the native helper has no effect on this platform (${process.platform})` };
  return { discard, why: 'free pages given back in place' };
}
