// L-BFGS for small smooth objectives (the scorers and calibrators of the model have tens of
// parameters). Two-loop recursion over the last `memory` steps, backtracking line search with the
// Armijo condition; stops when the gradient norm or the relative decrease is tiny, or after
// `maxIter` iterations. Deterministic: same objective and start, same result.

export type Objective = (w: Float64Array) => { f: number; g: Float64Array };

export interface LbfgsOptions {
  maxIter?: number;
  memory?: number;
  tol?: number;
}

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

export function minimize(fn: Objective, w0: Float64Array, opts: LbfgsOptions = {}): Float64Array {
  const maxIter = opts.maxIter ?? 500;
  const m = opts.memory ?? 10;
  const tol = opts.tol ?? 1e-7;
  let w = Float64Array.from(w0);
  let { f, g } = fn(w);
  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const rho: number[] = [];
  for (let it = 0; it < maxIter; it++) {
    if (Math.sqrt(dot(g, g)) < tol) break;
    // two-loop recursion: d = -H g
    const q = Float64Array.from(g);
    const alpha: number[] = [];
    for (let i = S.length - 1; i >= 0; i--) {
      alpha[i] = rho[i] * dot(S[i], q);
      for (let j = 0; j < q.length; j++) q[j] -= alpha[i] * Y[i][j];
    }
    const gamma = S.length
      ? dot(S[S.length - 1], Y[Y.length - 1]) / dot(Y[Y.length - 1], Y[Y.length - 1])
      : 1 / Math.max(1, Math.sqrt(dot(g, g)));
    for (let j = 0; j < q.length; j++) q[j] *= gamma;
    for (let i = 0; i < S.length; i++) {
      const beta = rho[i] * dot(Y[i], q);
      for (let j = 0; j < q.length; j++) q[j] += S[i][j] * (alpha[i] - beta);
    }
    const d = q.map((v) => -v);
    let slope = dot(g, d);
    if (slope >= 0) {
      // not a descent direction: restart from steepest descent
      S.length = Y.length = rho.length = 0;
      for (let j = 0; j < d.length; j++) d[j] = -g[j];
      slope = dot(g, d);
    }
    let step = 1;
    let next = w;
    let res = { f, g };
    for (let ls = 0; ls < 40; ls++) {
      next = w.map((v, j) => v + step * d[j]);
      res = fn(next);
      if (Number.isFinite(res.f) && res.f <= f + 1e-4 * step * slope) break;
      step *= 0.5;
    }
    if (!(res.f <= f)) break;
    const s = next.map((v, j) => v - w[j]);
    const y = res.g.map((v, j) => v - g[j]);
    const sy = dot(s, y);
    if (sy > 1e-12) {
      S.push(s);
      Y.push(y);
      rho.push(1 / sy);
      if (S.length > m) {
        S.shift();
        Y.shift();
        rho.shift();
      }
    }
    const decrease = f - res.f;
    w = next;
    f = res.f;
    g = res.g;
    if (decrease <= tol * Math.max(1, Math.abs(f))) break;
  }
  return w;
}
