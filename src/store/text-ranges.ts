// Reading a range of a document's text (UTF-16 offsets, as JavaScript's slice and the engine's
// passage offsets count) from its stored UTF-8 bytes without decoding the whole text: a search
// lists passages of a document that may be tens of megabytes (a book), and decoding all of it for
// each search cost tens of milliseconds. Invariants: `sliceUtf8(bytes, start, end, marks)` equals
// `bytes.toString('utf8').slice(start, end)` for every valid UTF-8 text and every range (a range that
// starts or ends inside a surrogate pair is decoded whole, as slice would cut it); marks are
// computed from the bytes alone, so a mark set is valid for exactly the bytes it was made from.

/** A mark every this many UTF-16 units: a range scans at most this far from the mark before it. */
export const MARK_UNITS = 1 << 12;
/** A text of at most this many bytes is decoded whole to read a range of it (as fast as marking it). */
export const WHOLE_TEXT_BYTES = 1 << 16;
/** Large texts whose marks a store remembers (those read last), each about 8 bytes per MARK_UNITS of text. */
export const MARKED_TEXTS = 256;
/**
 * Bytes of large texts a store keeps beside their marks (those read last, whole texts only): reading
 * a text of megabytes from LMDB copies all of it into a new buffer, for each search that lists it.
 */
export const KEPT_TEXT_BYTES = 32 << 20;

/**
 * Marks of a UTF-8 text: pairs (UTF-16 units before, byte offset) at the first character boundary at
 * or past each multiple of MARK_UNITS, from (0, 0).
 */
export function utf8Marks(bytes: Uint8Array): Uint32Array {
  const out: number[] = [0, 0];
  let units = 0;
  let next = MARK_UNITS;
  for (let i = 0; i < bytes.length; ) {
    const len = charBytes(bytes[i]);
    units += len === 4 ? 2 : 1;
    i += len;
    if (units >= next && i < bytes.length) {
      out.push(units, i);
      next = (Math.floor(units / MARK_UNITS) + 1) * MARK_UNITS;
    }
  }
  return Uint32Array.from(out);
}

/** Bytes of the UTF-8 character a lead byte opens (a stray continuation byte counts as one). */
function charBytes(lead: number): number {
  return lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

/**
 * Byte offset of UTF-16 offset `at`, scanning from the last mark at or before it; -1 when `at` falls
 * inside a surrogate pair. Past the end: the byte length.
 */
function byteOffset(bytes: Uint8Array, marks: Uint32Array, at: number): number {
  let lo = 0;
  let hi = marks.length / 2 - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (marks[2 * mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  let units = marks[2 * lo];
  let i = marks[2 * lo + 1];
  while (units < at && i < bytes.length) {
    const len = charBytes(bytes[i]);
    units += len === 4 ? 2 : 1;
    i += len;
  }
  return units > at ? -1 : i;
}

/** `bytes` decoded, then sliced from `start` to `end` (UTF-16 offsets, 0 <= start <= end). */
export function sliceUtf8(bytes: Buffer, start: number, end: number, marks: Uint32Array): string {
  const from = byteOffset(bytes, marks, start);
  const to = byteOffset(bytes, marks, end);
  if (from < 0 || to < 0) return bytes.toString('utf8').slice(start, end);
  return bytes.toString('utf8', from, Math.max(from, to));
}
