// The model at run time. `loadModel` takes a model folder read and verified by folder.ts, places its
// weight tables in the shared memory and returns a ModelDescriptor: plain data (parameters and
// table pointers) that every worker receives once, at start. Invariants: the tables are written
// before any worker starts and never change afterwards; the fingerprint identifies name@version
// and is stamped into every document encoding made with this model.

import type { WasmHeap } from '../runtime/index.js';
import { hash32 } from '../text/index.js';
import type { LoadedModel, LoadedModelFolder, ModelDescriptor, ModelParams } from './types.js';

/** Files of the dense encoder in a model folder. */
export const DENSE_FILES = {
  vocab: 'dense-vocab.u32',
  table: 'dense-table.i8',
  scales: 'dense-scales.f32',
  weights: 'dense-weights.f32',
} as const;

export function modelFingerprint(name: string, version: string): number {
  return hash32(`${name}@${version}`);
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
  const descriptor: ModelDescriptor = { name, version, fingerprint: modelFingerprint(name, version), params };
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
