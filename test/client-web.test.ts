// The client's Web-platform helpers where a browser page is not a secure context (plain http from
// another host: no crypto.randomUUID, no crypto.subtle, only crypto.getRandomValues): random ids are
// still version 4 UUIDs and sha256Hex still gives node:crypto's digest, from the plain TypeScript
// SHA-256, which matches node:crypto on every padding boundary, multi-byte text and random input.
import { createHash, getRandomValues, randomBytes } from 'node:crypto';
import t from 'tap';
import { sha256 } from '../src/client/sha256.js';
import { randomId, sha256Hex } from '../src/client/web.js';

const node = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

t.test('sha256 is node:crypto on every length around the padding boundaries', async (t) => {
  for (const n of [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 70_000]) {
    const b = new Uint8Array(randomBytes(n));
    t.equal(hex(sha256(b)), node(b), `${n} bytes`);
  }
  t.equal(
    hex(sha256(new TextEncoder().encode('abc'))),
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    'FIPS 180-4 example',
  );
});

t.test('outside a secure context: getRandomValues and the plain SHA-256', async (t) => {
  const real = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
  Object.defineProperty(globalThis, 'crypto', { value: { getRandomValues }, configurable: true });
  t.teardown(() => Object.defineProperty(globalThis, 'crypto', real));
  const ids = new Set(Array.from({ length: 200 }, () => randomId()));
  t.equal(ids.size, 200, 'distinct');
  t.ok(
    [...ids].every((id) => UUID4.test(id)),
    'version 4 UUIDs',
  );
  for (const s of ['', 'Lisbon', 'é 漢字 🦀\n'.repeat(40)])
    t.equal(await sha256Hex(s), node(new TextEncoder().encode(s)), JSON.stringify(s.slice(0, 12)));
});

t.test('in a secure context: Web Crypto, the same digest', async (t) => {
  t.ok(UUID4.test(randomId()));
  t.equal(await sha256Hex('Lisbon'), node(new TextEncoder().encode('Lisbon')));
});
