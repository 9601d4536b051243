// The dense encoder (src/engine/model/dense-encoder.ts) against a plain reference of its term list:
// each vocabulary row once, in first-seen order, its weight times its count, unknown terms dropped,
// at most MAX_TERMS terms read; then the same kernels. Encoders of the same tables share one array
// of places on a thread, so encodes one after another, by one encoder or by several, must each
// answer as if alone.
import t from 'tap';
import { defaultModelUri } from '../src/config.js';
import { createEngineRuntime } from '../src/engine/index.js';
import { DenseEncoder, denseScratchBytes, loadModel, MAX_TERMS, readModelFolder } from '../src/engine/model/index.js';
import { rng } from './helpers/engine.js';

const runtime = await createEngineRuntime();
const { descriptor } = loadModel(readModelFolder(defaultModelUri()), runtime.heap);
const tables = descriptor.dense!;
const k = runtime.kernels;
const vocab = k.views.u32At(tables.vocab, tables.size).slice();
const weights = k.views.f32At(tables.weights, tables.size).slice();
const rows = new Map<number, number>(Array.from(vocab, (v, i) => [v, i]));

/** The encoding by the reference term list, through the same kernels. */
function reference(terms: number[], scratch: number): [Int8Array, number] {
  const at = new Map<number, number>();
  const ids: number[] = [];
  const ws: number[] = [];
  for (const term of terms.slice(0, MAX_TERMS)) {
    const r = rows.get(term);
    if (r === undefined) continue;
    const j = at.get(r);
    if (j !== undefined) ws[j] += weights[r];
    else {
      at.set(r, ids.length);
      ids.push(r);
      ws.push(weights[r]);
    }
  }
  const out = new Int8Array(tables.dim);
  if (!ids.length) return [out, 0];
  const idsPtr = scratch;
  const wsPtr = idsPtr + MAX_TERMS * 4;
  const vecPtr = wsPtr + MAX_TERMS * 4;
  const qPtr = vecPtr + tables.dim * 4;
  k.views.write(idsPtr, Uint32Array.from(ids));
  k.views.write(wsPtr, Float32Array.from(ws));
  k.poolI8(tables.table, tables.scales, tables.size, tables.dim, idsPtr, wsPtr, ids.length, vecPtr);
  if (k.l2Normalize(vecPtr, tables.dim) === 0) return [out, 0];
  const scale = k.quantizeI8(vecPtr, tables.dim, qPtr);
  out.set(k.views.i8At(qPtr, tables.dim));
  return [out, scale];
}

t.test('encodings equal the reference, encode after encode, across encoders', async (t) => {
  const scratch = runtime.heap.alloc(denseScratchBytes(tables.dim));
  const refScratch = runtime.heap.alloc(denseScratchBytes(tables.dim));
  const r = rng(5);
  const known = () => vocab[Math.floor(r() * vocab.length)];
  const some = (n: number, repeat: number) => Array.from({ length: n }, (_, i) => (i % repeat === 0 && i ? 0 : known()));
  const texts: number[][] = [
    [],
    [0xfffffff0, 0xfffffff1],
    [vocab[3], vocab[3], vocab[3], vocab[7]],
    some(40, 1000),
    some(MAX_TERMS + 500, 1000),
  ];
  // a text whose terms repeat: each repeat of a term adds its weight again
  const base = some(30, 1000);
  texts.push([...base, ...base.slice(0, 10), 0xfffffff2, ...base.slice(5, 20)]);
  const one = new DenseEncoder(k, tables, scratch);
  const other = new DenseEncoder(k, tables, scratch);
  for (let round = 0; round < 2; round++) {
    for (const [i, terms] of texts.entries()) {
      const out = new Int8Array(tables.dim);
      const scale = (i % 2 ? other : one).encode(terms, out);
      const [want, wantScale] = reference(terms, refScratch);
      t.same([...out], [...want], `round ${round}, text ${i}: the vector`);
      t.equal(scale, wantScale, `round ${round}, text ${i}: the scale`);
    }
  }
});
