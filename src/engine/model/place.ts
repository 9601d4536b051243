// The model at run time. `loadModel` takes a model folder read and verified by folder.ts, places its
// weight tables in the shared memory and returns a ModelDescriptor: plain data (parameters and
// table pointers) that every worker receives once, at start. Invariants: the tables are written
// before any worker starts and never change afterwards; `encoder` identifies what makes a
// document's encoding (the stop words, the dense parameters and the dense encoder's files, never the
// ranking), and the fingerprint, derived from it, is stamped into every encoding made with this
// model: two models that share it (a release that changed only ranking) read each other's encodings.

import { createHash } from 'node:crypto';
import type { WasmHeap } from '../runtime/index.js';
import type { LoadedModel, LoadedModelFolder, ModelDescriptor, ModelParams } from './types.js';

/** Files of the dense encoder in a model folder. */
export const DENSE_FILES = {
  vocab: 'dense-vocab.u32',
  table: 'dense-table.i8',
  scales: 'dense-scales.f32',
  weights: 'dense-weights.f32',
} as const;

/** Version of what `encoderId` hashes: bump it when something else comes to shape an encoding. */
const ENCODER_ID_FORMAT = 'svc-encoder/1';

/**
 * The identity of a model's encoder: a hex hash of everything of the model an encoding depends on
 * (the stop words, the dense parameters, the bytes of the dense encoder's files). The text analysis'
 * code is identified apart (analyzerId), the encoding's byte format by its magic (segment/encoding.ts).
 */
export function encoderId(params: ModelParams, files: ReadonlyMap<string, Uint8Array>): string {
  const h = createHash('sha256');
  h.update(JSON.stringify([ENCODER_ID_FORMAT, params.stop, params.dense ?? null]));
  if (params.dense)
    for (const file of Object.values(DENSE_FILES)) {
      const f = files.get(file);
      h.update(`\n${file}:${f?.byteLength ?? -1}\n`);
      if (f) h.update(f);
    }
  return h.digest('hex').slice(0, 16);
}

/** The u32 stamped into encodings: the first 32 bits of the encoder's identity. */
export function encoderFingerprint(encoder: string): number {
  return Number.parseInt(encoder.slice(0, 8), 16) >>> 0;
}

function place(heap: WasmHeap, buf: Uint8Array): number {
  const ptr = heap.alloc(buf.byteLength);
  heap.views.write(ptr, buf);
  return ptr;
}

export function loadModel({ manifest, files }: LoadedModelFolder, heap: WasmHeap): LoadedModel {
  return { manifest, descriptor: placeModel(manifest.name, manifest.version, manifest.params, files, heap) };
}

/** Places a model's tables (files by name) in the shared memory and describes it. */
export function placeModel(
  name: string,
  version: string,
  params: ModelParams,
  files: Map<string, Uint8Array>,
  heap: WasmHeap,
): ModelDescriptor {
  const encoder = encoderId(params, files);
  const descriptor: ModelDescriptor = { name, version, encoder, fingerprint: encoderFingerprint(encoder), params };
  if (params.dense) {
    const d = params.dense;
    const need = (file: string, bytes: number) => {
      const f = files.get(file);
      if (!f || f.byteLength !== bytes) throw new Error(`model ${name}@${version}: ${file} must be ${bytes} bytes`);
      return f;
    };
    descriptor.dense = {
      dim: d.dim,
      size: d.size,
      vocab: place(heap, need(DENSE_FILES.vocab, d.size * 4)),
      table: place(heap, need(DENSE_FILES.table, d.size * d.dim)),
      scales: place(heap, need(DENSE_FILES.scales, d.size * 4)),
      weights: place(heap, need(DENSE_FILES.weights, d.size * 4)),
    };
  }
  return descriptor;
}
