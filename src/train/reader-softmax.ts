// A listwise softmax over groups of sparse candidates, for the native reader (src/answer/): the
// same objective as fitSoftmax in learners.ts (maximise Σ_q log Σ_pos e^{w·x} / Σ_all e^{w·x}
// minus an L2 penalty, here optionally larger for a tail of the weights, e.g. hashed features;
// L-BFGS from zero) on feature vectors held in flat typed arrays, so hundreds of thousands of
// weights and millions of candidates fit in memory. Deterministic.
import { minimize } from './lbfgs.js';

/** Candidates in groups, built incrementally: f() adds a feature, endCandidate() closes one, endGroup() keeps or drops the group. */
export class SparseGroups {
  idx = new Int32Array(1 << 20);
  val = new Float32Array(1 << 20);
  nnz = 0;
  /** candidate c spans idx[candStart[c] .. candStart[c + 1]) */
  candStart: number[] = [0];
  pos: boolean[] = [];
  /** group g spans candidates groupStart[g] .. groupStart[g + 1] */
  groupStart: number[] = [0];

  f(index: number, value: number): void {
    if (this.nnz === this.idx.length) {
      const idx = new Int32Array(this.idx.length * 2);
      idx.set(this.idx);
      const val = new Float32Array(this.val.length * 2);
      val.set(this.val);
      this.idx = idx;
      this.val = val;
    }
    this.idx[this.nnz] = index;
    this.val[this.nnz++] = value;
  }

  endCandidate(positive: boolean): void {
    this.candStart.push(this.nnz);
    this.pos.push(positive);
  }

  /** Keeps the candidates since the last group as a group, or drops them (keep = false). */
  endGroup(keep: boolean): void {
    const first = this.groupStart[this.groupStart.length - 1];
    if (keep && this.pos.length > first) {
      this.groupStart.push(this.pos.length);
      return;
    }
    this.pos.length = first;
    this.candStart.length = first + 1;
    this.nnz = this.candStart[first];
  }

  get groups(): number {
    return this.groupStart.length - 1;
  }

  get candidates(): number {
    return this.pos.length;
  }
}

/** `l2` is one penalty for every weight, or [penalty of weights below `from`, `from`, penalty from there on]. */
export function fitSparseSoftmax(data: SparseGroups, dim: number, l2: number | [number, number, number], maxIter = 300): Float64Array {
  const pen = new Float64Array(dim);
  const [low, from, high] = typeof l2 === 'number' ? [l2, dim, l2] : l2;
  for (let j = 0; j < dim; j++) pen[j] = j < from ? low : high;
  const { idx, val, candStart, pos, groupStart } = data;
  const G = data.groups;
  const z = new Float64Array(data.candidates);
  return minimize(
    (w) => {
      const grad = new Float64Array(dim);
      let f = 0;
      for (let g = 0; g < G; g++) {
        const c0 = groupStart[g];
        const c1 = groupStart[g + 1];
        let mx = -Infinity;
        for (let c = c0; c < c1; c++) {
          let s = 0;
          for (let k = candStart[c]; k < candStart[c + 1]; k++) s += w[idx[k]] * val[k];
          z[c] = s;
          if (s > mx) mx = s;
        }
        let all = 0;
        let p = 0;
        for (let c = c0; c < c1; c++) {
          const e = Math.exp(z[c] - mx);
          z[c] = e;
          all += e;
          if (pos[c]) p += e;
        }
        f -= Math.log(p / all);
        for (let c = c0; c < c1; c++) {
          const coef = z[c] / all - (pos[c] ? z[c] / p : 0);
          if (coef === 0) continue;
          for (let k = candStart[c]; k < candStart[c + 1]; k++) grad[idx[k]] += coef * val[k];
        }
      }
      let reg = 0;
      for (let j = 0; j < dim; j++) {
        reg += pen[j] * w[j] * w[j];
        grad[j] = grad[j] / G + 2 * pen[j] * w[j];
      }
      return { f: f / G + reg, g: grad };
    },
    new Float64Array(dim),
    { maxIter },
  );
}
