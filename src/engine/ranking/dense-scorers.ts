// The dense features of a search: the cosine of the question's dense encoding with a passage's, and
// with the centroid of the passage's document (memoised per document; in a very long document, of
// the passages around it: SearchCorpus.docWindow). Without an encoder both are 0.
// Worker side; encodes the question once, into the search's dense scratch block.
import { cosineI8, DenseEncoder, type DenseTables } from '../model/index.js';
import type { SearchCorpus } from './corpus.js';

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
      let cos = docs.get(first);
      if (cos === undefined) {
        const centroid = new Float64Array(qv.length);
        for (let r = first; r < first + count; r++) {
          const [v, sc] = c.vector(r);
          for (let i = 0; i < v.length; i++) centroid[i] += v[i] * sc;
        }
        let dot = 0;
        let norm = 0;
        for (let i = 0; i < qv.length; i++) {
          dot += centroid[i] * qv[i] * qs;
          norm += centroid[i] * centroid[i];
        }
        cos = norm > 0 ? dot / Math.sqrt(norm) : 0;
        docs.set(first, cos);
      }
      return cos;
    },
  };
}
