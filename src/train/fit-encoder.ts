// Trains the dense encoder from random initialisation: one embedding row and one non-negative weight
// per vocabulary term (weights start at the term's idf); a text is the normalised weighted sum of its
// terms' rows. Loss: symmetric in-batch InfoNCE (temperature tau) over batches of SQuAD question ->
// paragraph pairs (article-grouped, so other paragraphs of the article are hard negatives) and
// self-supervised wiki-pool pairs; Adam on the rows and weights a batch touches, learning rate warmed
// up then decayed linearly to 10%. The batch products run in the WASM kernels (pool, dot). Output:
// the vocabulary (sorted term ids), int8 rows with scales, and the weights, as model files.

import type { EngineRuntime } from '../engine/index.js';
import { DENSE_FILES, type DenseParams } from '../engine/index.js';
import type { EncoderCorpus } from './encoder-data.js';
import { mulberry32 } from './learners.js';

export interface EncoderHyper {
  dim: number;
  minCount: number;
  maxVocab: number;
  steps: number;
  batchSquad: number;
  batchSelf: number;
  group: number;
  tau: number;
  lr: number;
  lrWeights: number;
  initScale: number;
  selfTitle: number;
  ictKeep: number;
  warmup: number;
}

type Pair = [Uint32Array, Uint32Array];

/** Vocabulary (terms seen at least minCount times, most frequent first, capped) and its idf. */
function vocabulary(c: EncoderCorpus, h: EncoderHyper): { terms: number[]; idf: Float32Array } {
  const count = new Map<number, number>();
  const df = new Map<number, number>();
  let docs = 0;
  const add = (seq: Uint32Array, isDoc: boolean) => {
    for (const t of seq) count.set(t, (count.get(t) ?? 0) + 1);
    if (isDoc) {
      docs++;
      for (const t of new Set(seq)) df.set(t, (df.get(t) ?? 0) + 1);
    }
  };
  c.paragraphs.forEach((p, i) => {
    add(p, true);
    for (const q of c.questions[i]) add(q, false);
  });
  for (const d of c.pool) {
    add(d.title, false);
    const all = new Uint32Array(d.sentences.reduce((n, s) => n + s.length, 0));
    let o = 0;
    for (const s of d.sentences) {
      all.set(s, o);
      o += s.length;
    }
    add(all, true);
  }
  const terms = [...count]
    .filter(([, n]) => n >= h.minCount)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, h.maxVocab)
    .map(([t]) => t);
  const idf = Float32Array.from(terms, (t) => Math.log((docs + 1) / ((df.get(t) ?? 0) + 1)));
  return { terms, idf };
}

/** Deterministic streams of training pairs. */
class Pairs {
  private squad: Pair[] = [];
  private self: Pair[] = [];
  constructor(
    private readonly c: EncoderCorpus,
    private readonly h: EncoderHyper,
    private readonly rand: () => number,
  ) {}

  private shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(this.rand() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  }

  private refillSquad(): void {
    const byArticle = new Map<number, number[]>();
    for (const p of this.shuffle(this.c.paragraphs.map((_, i) => i))) {
      if (!this.c.questions[p].length) continue;
      byArticle.set(this.c.article[p], [...(byArticle.get(this.c.article[p]) ?? []), p]);
    }
    const chunks: number[][] = [];
    for (const ps of byArticle.values()) for (let i = 0; i < ps.length; i += this.h.group) chunks.push(ps.slice(i, i + this.h.group));
    for (const chunk of this.shuffle(chunks)) {
      for (const p of chunk) {
        const qs = this.c.questions[p];
        this.squad.push([qs[Math.floor(this.rand() * qs.length)], this.c.paragraphs[p]]);
      }
    }
  }

  private refillSelf(): void {
    for (const i of this.shuffle(this.c.pool.map((_, j) => j))) {
      const d = this.c.pool[i];
      const all = () => Uint32Array.from(d.sentences.flatMap((s) => [...s]));
      if (this.rand() < this.h.selfTitle && d.title.length) this.self.push([d.title, all()]);
      else if (d.sentences.length >= 2) {
        const k = Math.floor(this.rand() * d.sentences.length);
        const rest = d.sentences.filter((_, j) => j !== k || this.rand() < this.h.ictKeep).flatMap((s) => [...s]);
        this.self.push([d.sentences[k], Uint32Array.from(rest)]);
      }
    }
  }

  batch(): Pair[] {
    while (this.squad.length < this.h.batchSquad) this.refillSquad();
    while (this.self.length < this.h.batchSelf) this.refillSelf();
    return [...this.squad.splice(0, this.h.batchSquad), ...this.self.splice(0, this.h.batchSelf)];
  }
}

export interface TrainedEncoder {
  params: DenseParams;
  files: Map<string, Uint8Array>;
  loss: number;
}

export function fitEncoder(c: EncoderCorpus, h: EncoderHyper, seed: number, rt: EngineRuntime, log: (m: string) => void): TrainedEncoder {
  const rand = mulberry32(seed);
  const { terms, idf } = vocabulary(c, h);
  const V = terms.length;
  const d = h.dim;
  const rowOf = new Map(terms.map((t, i) => [t, i]));
  log(`encoder: vocabulary of ${V} terms, ${c.paragraphs.length} SQuAD paragraphs, ${c.pool.length} pool documents`);
  const heap = rt.heap;
  const k = rt.kernels;
  const E = heap.alloc(V * d * 4);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const e0 = k.views.f32At(E, V * d);
  for (let i = 0; i < V * d; i++) e0[i] = gauss() * h.initScale;
  const s = Float32Array.from(idf, (v) => Math.max(v, 0));
  const mE = new Float32Array(V * d);
  const vE = new Float32Array(V * d);
  const mS = new Float32Array(V);
  const vS = new Float32Array(V);
  const pairs = new Pairs(c, h, rand);
  const B = h.batchSquad + h.batchSelf;
  const maxTerms = 4096;
  const scratch = heap.alloc(2 * B * d * 4 + 2 * B * d * 4 + maxTerms * 8 + B * 4 * 2 + B * 4);
  const R = scratch; // 2B x d (queries then passages)
  const dX = R + 2 * B * d * 4; // 2B x d
  const idsPtr = dX + 2 * B * d * 4;
  const wsPtr = idsPtr + maxTerms * 4;
  const seqPtr = wsPtr + maxTerms * 4; // 0..B-1, for pooling rows of X
  const rowW = seqPtr + B * 4;
  k.views.write(
    seqPtr,
    Uint32Array.from({ length: B }, (_, i) => i),
  );
  let adamT = 0;
  let recent = 0;
  const started = performance.now();
  for (let step = 1; step <= h.steps; step++) {
    const batch = pairs.batch();
    const texts = [...batch.map((p) => p[0]), ...batch.map((p) => p[1])];
    // encode: per text its (row, count) entries, R = Σ count·s·E[row], X = R / |R|
    const entries: Array<[Uint32Array, Float32Array]> = texts.map((t) => {
      const cnt = new Map<number, number>();
      for (const term of t.subarray(0, maxTerms)) {
        const r = rowOf.get(term);
        if (r !== undefined) cnt.set(r, (cnt.get(r) ?? 0) + 1);
      }
      return [Uint32Array.from(cnt.keys()), Float32Array.from(cnt.values())];
    });
    const norms = new Float32Array(2 * B);
    entries.forEach(([rows, cnt], i) => {
      k.views.write(idsPtr, rows);
      k.views.write(
        wsPtr,
        cnt.map((n, j) => n * s[rows[j]]),
      );
      k.poolF32(E, V, d, idsPtr, wsPtr, rows.length, R + i * d * 4);
      norms[i] = Math.max(k.l2Normalize(R + i * d * 4, d), 1e-6);
    });
    // scores S = Xq Xp^T / tau, symmetric InfoNCE, dS
    const Xp = R + B * d * 4;
    const S = new Float32Array(B * B);
    for (let i = 0; i < B; i++) {
      k.dotF32Rows(Xp, B, d, R + i * d * 4, 1 / h.tau, 0, rowW);
      S.set(k.views.f32At(rowW, B), i * B);
    }
    const dS = new Float32Array(B * B);
    let loss = 0;
    for (let dir = 0; dir < 2; dir++) {
      for (let i = 0; i < B; i++) {
        const at = (j: number) => (dir === 0 ? i * B + j : j * B + i);
        let mx = -Infinity;
        for (let j = 0; j < B; j++) mx = Math.max(mx, S[at(j)]);
        let z = 0;
        for (let j = 0; j < B; j++) z += Math.exp(S[at(j)] - mx);
        loss -= (S[at(i)] - mx - Math.log(z)) / (2 * B);
        for (let j = 0; j < B; j++) dS[at(j)] += (Math.exp(S[at(j)] - mx) / z - (i === j ? 1 : 0)) / (2 * B);
      }
    }
    recent += loss;
    // dXq[i] = Σ_j dS[i,j] Xp[j] / tau ; dXp[j] = Σ_i dS[i,j] Xq[i] / tau
    for (let i = 0; i < B; i++) {
      k.views.write(
        wsPtr,
        dS.subarray(i * B, i * B + B).map((v) => v / h.tau),
      );
      k.poolF32(Xp, B, d, seqPtr, wsPtr, B, dX + i * d * 4);
      const col = new Float32Array(B);
      for (let j = 0; j < B; j++) col[j] = dS[j * B + i] / h.tau;
      k.views.write(wsPtr, col);
      k.poolF32(R, B, d, seqPtr, wsPtr, B, dX + (B + i) * d * 4);
    }
    // back through the normalisation, then to the rows and weights
    const X = k.views.f32At(R, 2 * B * d);
    const G = k.views.f32At(dX, 2 * B * d);
    const gE = new Map<number, Float32Array>();
    const gS = new Map<number, number>();
    const e = k.views.f32At(E, V * d);
    for (let i = 0; i < 2 * B; i++) {
      const o = i * d;
      let dot = 0;
      for (let j = 0; j < d; j++) dot += G[o + j] * X[o + j];
      const dR = new Float32Array(d);
      for (let j = 0; j < d; j++) dR[j] = (G[o + j] - dot * X[o + j]) / norms[i];
      const [rows, cnt] = entries[i];
      rows.forEach((r, m) => {
        let g = gE.get(r);
        if (!g) {
          g = new Float32Array(d);
          gE.set(r, g);
        }
        const w = cnt[m] * s[r];
        let ds = 0;
        for (let j = 0; j < d; j++) {
          g[j] += w * dR[j];
          ds += dR[j] * e[r * d + j];
        }
        gS.set(r, (gS.get(r) ?? 0) + cnt[m] * ds);
      });
    }
    // Adam, warm-up then linear decay to 10%
    adamT++;
    const sched = Math.min(1, step / Math.max(1, h.warmup)) * (1 - (0.9 * step) / h.steps);
    const b1 = 0.9;
    const b2 = 0.999;
    const corr = Math.sqrt(1 - b2 ** adamT) / (1 - b1 ** adamT);
    for (const [r, g] of gE) {
      for (let j = 0; j < d; j++) {
        const x = r * d + j;
        mE[x] = b1 * mE[x] + (1 - b1) * g[j];
        vE[x] = b2 * vE[x] + (1 - b2) * g[j] * g[j];
        e[x] -= (h.lr * sched * corr * mE[x]) / (Math.sqrt(vE[x]) + 1e-8);
      }
    }
    for (const [r, g] of gS) {
      mS[r] = b1 * mS[r] + (1 - b1) * g;
      vS[r] = b2 * vS[r] + (1 - b2) * g * g;
      s[r] = Math.max(0, s[r] - (h.lrWeights * sched * corr * mS[r]) / (Math.sqrt(vS[r]) + 1e-8));
    }
    if (step % 100 === 0) {
      log(`encoder step ${step}/${h.steps}: loss ${(recent / 100).toFixed(4)} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      recent = 0;
    }
  }
  // files: rows sorted by term id, int8 with a scale per row
  const order = terms.map((_, i) => i).sort((a, b) => terms[a] - terms[b]);
  const vocab = Uint32Array.from(order, (i) => terms[i]);
  const table = new Int8Array(V * d);
  const scales = new Float32Array(V);
  const weights = Float32Array.from(order, (i) => s[i]);
  const e = k.views.f32At(E, V * d);
  order.forEach((src, dst) => {
    let mx = 0;
    for (let j = 0; j < d; j++) mx = Math.max(mx, Math.abs(e[src * d + j]));
    const scale = mx / 127 || 1;
    scales[dst] = mx / 127;
    for (let j = 0; j < d; j++) table[dst * d + j] = Math.round(e[src * d + j] / scale);
  });
  heap.free(scratch);
  heap.free(E);
  const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return {
    params: { dim: d, size: V },
    files: new Map([
      [DENSE_FILES.vocab, bytes(vocab)],
      [DENSE_FILES.table, bytes(table)],
      [DENSE_FILES.scales, bytes(scales)],
      [DENSE_FILES.weights, bytes(weights)],
    ]),
    loss: recent,
  };
}
