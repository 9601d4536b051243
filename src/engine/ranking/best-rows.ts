// Rows by score, ties kept in the corpus's tie order (SearchCorpus.tieOrder): the best k of a list
// whose rows come in tie order (a title's rows: CorpusTitles.rows), and a top-k list's runs of equal
// scores put in tie order. Pure functions over rows and scores; they allocate only their output.
/** `list` (best first) with each run of equal scores put in `tie` order. */
export function runsInTieOrder(list: Array<[number, number]>, tie: (a: number, b: number) => number): Array<[number, number]> {
  for (let i = 0, j = 1; i < list.length; i = j++) {
    while (j < list.length && list[j][1] === list[i][1]) j++;
    if (j - i > 1) list.splice(i, j - i, ...list.slice(i, j).sort((a, b) => tie(a[0], b[0])));
  }
  return list;
}

/**
 * The `k` rows of `rows` with the highest scores, best first, ties to the first in `rows` (a title's
 * rows come in tie order: CorpusTitles.rows); O(rows · k), one score read a row.
 */
export function bestRows(rows: readonly number[], score: Float32Array, k: number): number[] {
  const out: number[] = [];
  for (const r of rows) {
    let i = out.length;
    while (i > 0 && score[out[i - 1]] < score[r]) i--;
    if (i < k) {
      out.splice(i, 0, r);
      if (out.length > k) out.pop();
    }
  }
  return out;
}
