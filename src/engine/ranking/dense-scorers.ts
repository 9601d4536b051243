// The dense features of a search: the cosine of the question's dense encoding with a passage's, and
// with the centroid of the passage's document (memoised per document; in a very long document, of
// the passages around it: SearchCorpus.docWindow, whose centroids a thread remembers:
// window-centroids.ts). Without an encoder both are 0.
// Worker side; encodes the question once, into the search's dense scratch block.
import { cosineI8, DenseEncoder, type DenseTables } from '../model/index.js';
import { type SearchCorpus, windowKey } from './corpus.js';
import { windowCentroid } from './window-centroids.js';

export interface DenseScorers {
  dense: (row: number) => number;
  docDense: (row: number) => number;
}

/** The dense scorers of a question (term ids `ids`) over the corpus; `scratch` holds denseScratchBytes(dim). */
export function denseScorers(c: SearchCorpus, tables: DenseTables | undefined, scratch: number, ids: Uint32Array): DenseScorers {
  if (!tables) return { dense: () => 0, docDense: () => 0 };
  const qv = new Int8Array(tables.dim);
  const qs = new DenseEncoder(c.kernels, tables, scratch).encode(ids, qv);
  const docs = new Map<number, number>();
  return {
    dense: (row) => {
      const [v, sc] = c.vector(row);
      return cosineI8(qv, qs, v, sc);
    },
    docDense: (row) => {
      const [first, count] = c.docWindow(row);
      const key = windowKey(first, count);
      let cos = docs.get(key);
      if (cos === undefined) {
        const { sum, norm2 } = windowCentroid(c, first, count, qv.length);
        let dot = 0;
        for (let i = 0; i < qv.length; i++) dot += sum[i] * qv[i] * qs;
        cos = norm2 > 0 ? dot / Math.sqrt(norm2) : 0;
        docs.set(key, cos);
      }
      return cos;
    },
  };
}
