// A listwise softmax over groups of sparse candidates, for the native reader (src/answer/): the
// same objective as fitSoftmax in learners.ts (maximise Σ_q log Σ_pos e^{w·x} / Σ_all e^{w·x}
// minus an L2 penalty, here optionally larger for a tail of the weights, e.g. hashed features;
// L-BFGS from zero) on feature vectors held in flat typed arrays, so hundreds of thousands of
// weights and millions of candidates fit in memory. Deterministic.
import { minimize } from './lbfgs.js';

/** `a` itself while it holds `need` elements, else a copy of it twice as long (or longer). */
function room<T extends Int32Array | Float32Array | Uint8Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const bigger = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2));
  bigger.set(a);
  return bigger;
}

/**
 * Candidates in groups, built incrementally: f() adds a feature, endCandidate() closes one,
 * endGroup() keeps or drops the group. Everything is held in flat typed arrays that double when full.
 */
export class SparseGroups {
  idx = new Int32Array(1 << 20);
  val = new Float32Array(1 << 20);
  nnz = 0;
  /** candidate c spans idx[candStart[c] .. candStart[c + 1]) */
  candStart = new Int32Array(1 << 16);
  /** 1 where candidate c is a positive */
  pos = new Uint8Array(1 << 16);
  /** group g spans candidates groupStart[g] .. groupStart[g + 1] */
  groupStart = new Int32Array(1 << 12);
  private nCand = 0;
  private nGroup = 0;

  f(index: number, value: number): void {
    if (this.nnz === this.idx.length) {
      this.idx = room(this.idx, this.nnz + 1);
      this.val = room(this.val, this.nnz + 1);
    }
    this.idx[this.nnz] = index;
    this.val[this.nnz++] = value;
  }

  endCandidate(positive: boolean): void {
    this.candStart = room(this.candStart, this.nCand + 2);
    this.pos = room(this.pos, this.nCand + 1);
    this.pos[this.nCand++] = positive ? 1 : 0;
    this.candStart[this.nCand] = this.nnz;
  }

  /** Keeps the candidates since the last group as a group, or drops them (keep = false). */
  endGroup(keep: boolean): void {
    const first = this.groupStart[this.nGroup];
    if (keep && this.nCand > first) {
      this.groupStart = room(this.groupStart, this.nGroup + 2);
      this.groupStart[++this.nGroup] = this.nCand;
      return;
    }
    this.nCand = first;
    this.nnz = this.candStart[first];
  }

  get groups(): number {
    return this.nGroup;
  }

  get candidates(): number {
    return this.nCand;
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
        let k = candStart[c0];
        for (let c = c0; c < c1; c++) {
          let s = 0;
          const end = candStart[c + 1];
          for (; k < end; k++) s += w[idx[k]] * val[k];
          z[c] = s;
          if (s > mx) mx = s;
        }
        let all = 0;
        let p = 0;
        for (let c = c0; c < c1; c++) {
          const e = Math.exp(z[c] - mx);
          z[c] = e;
          all += e;
          if (pos[c] !== 0) p += e;
        }
        f -= Math.log(p / all);
        k = candStart[c0];
        for (let c = c0; c < c1; c++) {
          const coef = z[c] / all - (pos[c] !== 0 ? z[c] / p : 0);
          const end = candStart[c + 1];
          if (coef === 0) {
            k = end;
            continue;
          }
          for (; k < end; k++) grad[idx[k]] += coef * val[k];
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
