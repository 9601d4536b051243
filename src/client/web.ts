// What the client needs beyond fetch, from the Web platform only (globalThis.crypto, TextEncoder),
// so that it runs unchanged in Node 20+, browsers and edge runtimes: no Node built-in is imported
// anywhere in the client (a test bundles it for the browser and fails on any). A browser page that
// is not a secure context (plain http from another host) has crypto.getRandomValues but neither
// crypto.randomUUID nor crypto.subtle: ids and digests then come from getRandomValues and sha256.ts.
import { sha256 } from './sha256.js';

/** A random (version 4) UUID. */
export function randomId(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = hexOf(b);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Bytes of `s` in UTF-8, without encoding it. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The SHA-256 of `s`'s UTF-8 bytes, as lower-case hex. */
export async function sha256Hex(s: string): Promise<string> {
  const bytes = new TextEncoder().encode(s);
  const subtle = globalThis.crypto.subtle;
  return hexOf(subtle ? new Uint8Array(await subtle.digest('SHA-256', bytes)) : sha256(bytes));
}
