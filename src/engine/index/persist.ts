// A store index's state as one stream of bytes, and back (store-index.ts persist / restore), so a
// store reopens by reading its segments instead of building them again from every document's
// encoding. The stream: a head (magic, format, the JSON's byte length), the JSON header (the model
// that built the segments, the live statistics, each segment's sizes, the document table's
// scalars), then the arrays in a fixed order: for each segment its image block, its dead flags and
// its six per-row arrays; then the document table's arrays (TABLE_ARRAYS order). Invariants: what
// writeIndex writes, readIndex reads back in the same order; a stream
// of another magic or format reads as no header (the caller builds the index as before), but for
// the format before segments coded their terms (FORMAT_UNCODED), whose images are upgraded as they
// are read (segment/upgrade.ts); a short stream throws (the source's reader does). The document
// table's arrays are read with room to grow (tableRoom).
import { Buffer } from 'node:buffer';
import { DOC_TABLE } from '../params.js';
import { upgradeImage } from '../segment/index.js';
import { type BlockSpace, lengthsBlock, rowBlockBytes, writeTieKeys } from './segment-blocks.js';
import type { DocTableParts, IndexHeader, IndexSink, IndexSource, IndexState, Segment } from './types.js';

const MAGIC = 0x58495653; // 'SVIX'
const FORMAT = 2;
/** The format whose segment images held a u32 per term (SEG1): read, each image upgraded. */
const FORMAT_UNCODED = 1;

/** The document table's arrays, in stream order, with their element types. */
const TABLE_ARRAYS = [
  ['bytes', Uint8Array],
  ['buckets', Int32Array],
  ['alive', Uint8Array],
  ['hash', Uint32Array],
  ['at', Uint32Array],
  ['idLen', Uint32Array],
  ['metaLen', Uint32Array],
  ['version', Uint32Array],
  ['first', Uint32Array],
  ['count', Uint32Array],
  ['segIndex', Int32Array],
] as const;

type TypedArray = Uint8Array | Int32Array | Uint32Array | Float32Array;

/** The bytes of a typed array (a view, not a copy). */
function bytesOf(a: TypedArray): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Reads `n` elements of `type` from the stream into a new array of `length` (at least n; the rest zero). */
function readArray<T extends TypedArray>(read: IndexSource, type: new (n: number) => T, n: number, length = n): T {
  const a = new type(length);
  read(bytesOf(a).subarray(0, n * a.BYTES_PER_ELEMENT));
  return a;
}

async function writeHeader(sink: IndexSink, header: IndexHeader): Promise<void> {
  const json = Buffer.from(JSON.stringify(header));
  const head = new Uint32Array([MAGIC, FORMAT, json.length]);
  await sink(bytesOf(head));
  await sink(json);
}

/** The header and the stream's format, or undefined when the stream is of another magic or of a format not read. */
function readHeader(read: IndexSource): { header: IndexHeader; format: number } | undefined {
  const head = readArray(read, Uint32Array, 3);
  if (head[0] !== MAGIC || (head[1] !== FORMAT && head[1] !== FORMAT_UNCODED)) return undefined;
  const json = new Uint8Array(head[2]);
  read(json);
  return {
    header: JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8')) as IndexHeader,
    format: head[1],
  };
}

/** How many elements each table array has, from the table's scalars. */
function tableLength(name: (typeof TABLE_ARRAYS)[number][0], t: IndexHeader['table']): number {
  if (name === 'bytes') return t.used;
  if (name === 'buckets') return t.buckets;
  return t.high;
}

/**
 * How long an array is read into: the buffer and columns with room for DOC_TABLE.slack times their
 * content, so that the table takes the writes after a restore in place (doc-table.ts restoreParts)
 * rather than copying itself whole at the first; the room's pages take no memory until written.
 */
function tableRoom(name: (typeof TABLE_ARRAYS)[number][0], length: number): number {
  return name === 'buckets' ? length : Math.ceil(length * DOC_TABLE.slack);
}

const ROW_ARRAYS = ['rowSlot', 'rowVersion', 'rowStart', 'rowEnd', 'blen', 'tlen'] as const;

/** A turn of the event loop for whatever waits on it (a read of a large store yields between its parts). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Bytes of a segment image's block the stream carries at a time (a view of the memory, taken afresh for each). */
const CHUNK = 8 * 2 ** 20;

/**
 * Writes an index's state: `model` is the fingerprint of the model that built its segments. The
 * caller keeps the blocks of `state.segments` where they are and readable until it resolves (the
 * heap pinned), and `table`'s arrays unchanged (copies).
 */
export async function writeIndex(
  sink: IndexSink,
  { heap, images }: BlockSpace,
  model: number,
  state: IndexState,
  table: DocTableParts,
): Promise<void> {
  const blocks = state.segments.map((s) => images.sizeOf(s.base) ?? 0);
  await writeHeader(sink, {
    model,
    nextVersion: state.nextVersion,
    liveRows: state.liveRows,
    liveBody: state.liveBody,
    liveTitle: state.liveTitle,
    segments: state.segments.map((s, i) => ({ nRows: s.nRows, liveRows: s.liveRows, block: blocks[i] })),
    table: { ...table.scalars, buckets: table.arrays.buckets.length },
  });
  for (const [i, s] of state.segments.entries()) {
    for (let at = 0; at < blocks[i]; at += CHUNK) await sink(images.u8At(s.base + at, Math.min(CHUNK, blocks[i] - at)).slice());
    await sink(heap.views.u8At(s.dead, rowBlockBytes(s.nRows)[0]).slice());
    for (const name of ROW_ARRAYS) await sink(bytesOf(s[name]));
  }
  for (const [name] of TABLE_ARRAYS) await sink(bytesOf(table.arrays[name]));
}

/**
 * A block for each segment's image (`allocated` lists them as they are taken), taken before any is
 * read and the largest first, a first fit in decreasing size over the regions (runtime/regions.ts).
 * In stream order, a store at the engine memory's bound could need a region more than the store
 * the snapshot was taken from (two small images sharing one region, then two large ones a region
 * each, where each large one had room beside a small one).
 */
function imageBlocks(images: BlockSpace['images'], segments: IndexHeader['segments'], allocated: number[]): number[] {
  const order = segments.map((_, i) => i).sort((a, b) => segments[b].block - segments[a].block || a - b);
  const bases = new Array<number>(segments.length);
  for (const i of order) {
    bases[i] = images.alloc(segments[i].block);
    allocated.push(bases[i]);
  }
  return bases;
}

/**
 * Reads a segment image of FORMAT_UNCODED (`bytes`, its block) into a buffer of its own, and
 * places it upgraded in a block of `images` (listed in `allocated`); returns the block.
 */
function readUpgraded(read: IndexSource, images: BlockSpace['images'], bytes: number, allocated: number[]): number {
  const old = new Uint8Array(bytes);
  read(old);
  let base = -1;
  upgradeImage(old, (size) => {
    base = images.alloc(size);
    allocated.push(base);
    return images.u8At(base, size);
  });
  return base;
}

/**
 * Reads an index's state into newly allocated blocks of `space` (each segment's tie keys derived
 * from the document table's id hashes, not stored); undefined (nothing read past the
 * header, nothing allocated) when the stream is of another format or was built by another model.
 * `upgraded`: the stream was of FORMAT_UNCODED, its images upgraded as read, each in a block taken
 * as it came (not the largest first). On a failure (a short stream, no room, an image that does
 * not upgrade) every block it allocated is freed and the error thrown. It yields to the event loop
 * after each segment and each table array (a large store's read takes seconds), and takes a fresh
 * view of the memory for every read.
 */
export async function readIndex(
  read: IndexSource,
  space: BlockSpace,
  model: number,
  newSegmentId: () => number,
): Promise<{ state: IndexState; table: DocTableParts; upgraded: boolean } | undefined> {
  const got = readHeader(read);
  if (!got || got.header.model !== model) return undefined;
  const { header } = got;
  const upgraded = got.format === FORMAT_UNCODED;
  const { heap, images } = space;
  const allocated: number[] = [];
  const imagesAllocated: number[] = [];
  const block = (bytes: number) => {
    const ptr = heap.alloc(bytes);
    allocated.push(ptr);
    read(heap.views.u8At(ptr, bytes));
    return ptr;
  };
  try {
    const bases = upgraded ? [] : imageBlocks(images, header.segments, imagesAllocated);
    const segments: Segment[] = [];
    for (const [i, { nRows, liveRows, block: bytes }] of header.segments.entries()) {
      await nextTurn();
      const [deadBytes, keyBytes] = rowBlockBytes(nRows);
      let base: number;
      if (upgraded) base = readUpgraded(read, images, bytes, imagesAllocated);
      else {
        base = bases[i];
        read(images.u8At(base, bytes));
      }
      const dead = block(deadBytes);
      // the tie keys are not written: derived below from the table's id hashes
      const keys = heap.alloc(keyBytes);
      allocated.push(keys);
      const u32 = () => readArray(read, Uint32Array, nRows);
      const [rowSlot, rowVersion, rowStart, rowEnd] = [u32(), u32(), u32(), u32()];
      const [blen, tlen] = [readArray(read, Float32Array, nRows), readArray(read, Float32Array, nRows)];
      const lens = lengthsBlock(heap, base, blen, tlen);
      if (lens) allocated.push(lens);
      segments.push({
        id: newSegmentId(),
        base,
        dead,
        keys,
        lens,
        deadShared: false,
        nRows,
        liveRows,
        rowSlot,
        rowVersion,
        rowStart,
        rowEnd,
        blen,
        tlen,
      });
    }
    const { buckets: _, ...scalars } = header.table;
    const arrays: Record<string, TypedArray> = {};
    for (const [name, type] of TABLE_ARRAYS) {
      await nextTurn();
      const length = tableLength(name, header.table);
      arrays[name] = readArray(read, type as new (n: number) => TypedArray, length, tableRoom(name, length));
    }
    const table = { scalars, arrays: arrays as DocTableParts['arrays'] };
    for (const seg of segments) writeTieKeys(heap, seg, (slot) => table.arrays.hash[slot]);
    const { nextVersion, liveRows, liveBody, liveTitle } = header;
    return { state: { nextVersion, liveRows, liveBody, liveTitle, segments }, table, upgraded };
  } catch (err) {
    for (const ptr of allocated) heap.free(ptr);
    for (const addr of imagesAllocated) images.free(addr);
    throw err;
  }
}
