// Minimal PNG encoding of raw 8-bit pixels (gray, RGB or RGBA), for page images taken out of a PDF
// and sent to the vision model. Invariants: output is a valid PNG (signature, IHDR, one zlib IDAT,
// IEND, each chunk with its CRC-32); rows use filter 0; nothing but node:zlib is used.
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const COLOR_TYPE: Record<number, number> = { 1: 0, 3: 2, 4: 6 };

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** PNG bytes of a width x height image with `channels` 8-bit samples per pixel, row-major. */
export function encodePng(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: 1 | 3 | 4): Buffer {
  const row = width * channels;
  if (pixels.length < row * height) throw new Error(`image data holds ${pixels.length} bytes, not ${row * height}`);
  const raw = Buffer.alloc((row + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (row + 1)] = 0;
    raw.set(pixels.subarray(y * row, (y + 1) * row), y * (row + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = COLOR_TYPE[channels];
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
