// What the client needs beyond fetch, from the Web platform only (globalThis.crypto, TextEncoder),
// so that it runs unchanged in Node 20+, browsers and edge runtimes: no Node built-in is imported
// anywhere in the client (a test bundles it for the browser and fails on any).

/** A random UUID (crypto.randomUUID; browsers offer it in secure contexts). */
export function randomId(): string {
  return globalThis.crypto.randomUUID();
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

/** The SHA-256 of `s`'s UTF-8 bytes, as lower-case hex. */
export async function sha256Hex(s: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(s));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
