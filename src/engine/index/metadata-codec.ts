// A document's flat metadata as bytes (doc-table.ts keeps them in one buffer per store, not as an
// object and strings per document). An encoding is a run of entries: the key's number in this
// codec's dictionary (varint), a tag, and the value: false, true, an integer in [0, 2^31) or
// (-2^31, 0) as a varint of its magnitude, any other number as 8 bytes of float64, a string as its
// UTF-8 length (varint) and bytes. Invariants: decode(encode(m)) has m's keys in m's order with the
// same values (-0 reads back as 0, which every filter compares as equal to it; strings are
// well-formed Unicode, as the API requires: a lone surrogate would read back as U+FFFD); a key's
// number never changes once given; valueAt reads one key's value without decoding the others.
import { Buffer } from 'node:buffer';
import type { Metadata, MetadataValue } from '../types.js';

const FALSE = 0;
const TRUE = 1;
const UINT = 2;
const NEG = 3;
const FLOAT = 4;
const STRING = 5;

const INT_LIMIT = 2 ** 31;

/** A growable byte buffer an encoding is written into. */
export class ByteWriter {
  buf = Buffer.alloc(256);
  pos = 0;

  reset(): void {
    this.pos = 0;
  }

  ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.pos + extra));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  varint(n: number): void {
    this.ensure(5);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.pos++] = n;
  }

  /** UTF-8 bytes of `s`, with no length before them. */
  text(s: string): void {
    this.ensure(Buffer.byteLength(s));
    this.pos += this.buf.write(s, this.pos);
  }

  /** UTF-8 bytes of `s`, after their length. */
  lengthAndText(s: string): void {
    this.varint(Buffer.byteLength(s));
    this.text(s);
  }
}

/** A reader's position, moved past what it read. */
interface Cursor {
  at: number;
}

function readVarint(b: Uint8Array, c: Cursor): number {
  let n = 0;
  let shift = 0;
  for (;;) {
    const x = b[c.at++];
    n += (x & 0x7f) * 2 ** shift;
    if (x < 0x80) return n;
    shift += 7;
  }
}

const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);

export class MetadataCodec {
  private readonly keyIds = new Map<string, number>();
  private readonly keys: string[] = [];

  /** Every key numbered so far, by number (a persisted index keeps them: its bytes name keys by number). */
  get keyList(): readonly string[] {
    return this.keys;
  }

  /** Numbers `keys` as a persisted codec did (the codec must be new). */
  restoreKeys(keys: readonly string[]): void {
    if (this.keys.length) throw new Error('restoreKeys: the codec has numbered keys already');
    for (const key of keys) {
      this.keyIds.set(key, this.keys.length);
      this.keys.push(key);
    }
  }

  /** The number of a key some document holds, or undefined when none ever did. */
  keyId(key: string): number | undefined {
    return this.keyIds.get(key);
  }

  /** Appends the encoding of `m` to `w`. */
  encode(m: Metadata, w: ByteWriter): void {
    for (const key in m) {
      if (!Object.hasOwn(m, key)) continue;
      let id = this.keyIds.get(key);
      if (id === undefined) {
        id = this.keys.length;
        this.keys.push(key);
        this.keyIds.set(key, id);
      }
      w.varint(id);
      const v = m[key];
      w.ensure(1);
      if (typeof v === 'boolean') w.buf[w.pos++] = v ? TRUE : FALSE;
      else if (typeof v === 'string') {
        w.buf[w.pos++] = STRING;
        w.lengthAndText(v);
      } else if (Number.isInteger(v) && v > -INT_LIMIT && v < INT_LIMIT) {
        w.buf[w.pos++] = v < 0 ? NEG : UINT;
        w.varint(Math.abs(v));
      } else {
        w.buf[w.pos++] = FLOAT;
        w.ensure(8);
        f64[0] = v;
        w.buf.set(f64Bytes, w.pos);
        w.pos += 8;
      }
    }
  }

  /** The metadata encoded in b[from, to). */
  decode(b: Buffer, from: number, to: number): Metadata {
    const m: Metadata = {};
    const c = { at: from };
    while (c.at < to) {
      const key = this.keys[readVarint(b, c)];
      const v = readValue(b, c);
      // a key named __proto__ is an own property, as JSON.parse makes it
      if (key === '__proto__') Object.defineProperty(m, key, { value: v, enumerable: true, writable: true, configurable: true });
      else m[key] = v;
    }
    return m;
  }

  /** The value of key number `id` in the metadata encoded in b[from, to), or undefined when it has none. */
  valueAt(b: Buffer, from: number, to: number, id: number): MetadataValue | undefined {
    const c = { at: from };
    while (c.at < to) {
      if (readVarint(b, c) === id) return readValue(b, c);
      skipValue(b, c);
    }
    return undefined;
  }
}

function readValue(b: Buffer, c: Cursor): MetadataValue {
  const tag = b[c.at++];
  switch (tag) {
    case FALSE:
      return false;
    case TRUE:
      return true;
    case UINT:
      return readVarint(b, c);
    case NEG:
      return -readVarint(b, c);
    case FLOAT:
      for (let i = 0; i < 8; i++) f64Bytes[i] = b[c.at + i];
      c.at += 8;
      return f64[0];
    default: {
      const n = readVarint(b, c);
      c.at += n;
      return b.toString('utf8', c.at - n, c.at);
    }
  }
}

function skipValue(b: Uint8Array, c: Cursor): void {
  const tag = b[c.at++];
  if (tag === UINT || tag === NEG) readVarint(b, c);
  else if (tag === FLOAT) c.at += 8;
  else if (tag === STRING) {
    const n = readVarint(b, c);
    c.at += n;
  }
}
