// BM25 term saturation, the one TypeScript copy: what a term adds to a text's score for its count
// `tf` in a text of `len` terms, where texts average `avg` terms. The kernels (assembly/) compute the
// same expression over postings; features use this one for whole documents and single sentences,
// with the model's lexical parameters. Pure.

/** tf·(k1 + 1) / (tf + k1·(1 − b + b·len/avg)); multiply by the term's idf (and weight) to score. */
export function bm25(tf: number, len: number, avg: number, k1: number, b: number): number {
  return (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / avg));
}
