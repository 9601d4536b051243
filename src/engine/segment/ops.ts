// Worker ops that build index segments: `build` from persisted document encodings (opening a
// store) and `merge` from live rows of existing segments. A build returns a BuiltSegment whose
// buffers are fresh, so they move to the main thread (the `*Moves` functions name them) rather than
// being copied; a merge writes its image in place, in the block of shared memory the main thread
// set aside for it (at most its sources' size), so that no copy of the largest images exists.

import { type OpContext, offsetOf, regionOf } from '../runtime/index.js';
import { buildSegment } from './build.js';
import { decodeBlob } from './encoding.js';
import type { BuildArgs, BuiltSegment, EncodeResult, MergeArgs, MergeResult, SegmentDoc } from './types.js';
import { SegmentView } from './view.js';

export function buildOp(_ctx: OpContext, a: BuildArgs): BuiltSegment {
  return buildSegment({ docs: a.blobs.map((blob) => segmentDocOf(blob, a.fingerprint)), dim: a.dim });
}

/** What a segment is built from for a stored encoding. */
export function segmentDocOf(blob: Uint8Array, fingerprint: number): SegmentDoc {
  return decodeBlob(blob, fingerprint);
}

/**
 * Merges the live documents of its sources, read from them as the build reads each (twice): no
 * object per row of the merged segment is held at once, which for the largest merges was most of a
 * worker's memory while they ran.
 */
export function mergeOp(ctx: OpContext, a: MergeArgs): MergeResult {
  const views = a.sources.map((src) => new SegmentView(ctx.regions[regionOf(src.base)], offsetOf(src.base)));
  // the live documents, in order: their source, first row and rows
  const docSource: number[] = [];
  const docFirst: number[] = [];
  const docRows: number[] = [];
  let rows = 0;
  a.sources.forEach((src, si) => {
    const dead = ctx.kernels.views.u8At(src.dead, src.nRows).slice();
    let r = 0;
    while (r < src.nRows) {
      const first = r;
      while (r < src.nRows && src.rowSlot[r] === src.rowSlot[first]) r++;
      if (dead[first]) continue;
      docSource.push(si);
      docFirst.push(first);
      docRows.push(r - first);
      rows += r - first;
    }
  });
  const rowSource = new Uint32Array(rows);
  for (let i = 0, at = 0; i < docSource.length; i++) {
    for (let k = 0; k < docRows[i]; k++) rowSource[at++] = ((docSource[i] << 24) | (docFirst[i] + k)) >>> 0;
  }
  const read = (i: number): SegmentDoc => {
    const src = a.sources[docSource[i]];
    return views[docSource[i]].readDoc(docFirst[i], docRows[i], src.rowStart, src.rowEnd);
  };
  const into = ctx.regions[regionOf(a.into.ptr)].u8At(offsetOf(a.into.ptr), a.into.bytes);
  return { placed: buildSegment({ docs: { count: docSource.length, rows, read }, dim: a.dim }, into), rowSource };
}

/** The buffers of a built segment (each array has its own). */
export const builtMoves = (b: BuiltSegment): ArrayBufferLike[] => [
  b.image,
  b.rowDoc.buffer,
  b.rowStart.buffer,
  b.rowEnd.buffer,
  b.blen.buffer,
  b.tlen.buffer,
];

export const mergeMoves = ({ placed: p, rowSource }: MergeResult): ArrayBufferLike[] => [
  p.rowDoc.buffer,
  p.rowStart.buffer,
  p.rowEnd.buffer,
  p.blen.buffer,
  p.tlen.buffer,
  rowSource.buffer,
];

/** An encode's segment and every document's encoding (each made by encodeBlob on its own buffer). */
export const encodeMoves = (r: EncodeResult): ArrayBufferLike[] => [...builtMoves(r.built), ...r.docs.map((d) => d.blob.buffer)];
