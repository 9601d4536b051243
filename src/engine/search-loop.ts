// The multi-hop loop (worker side). Hop 1 scores every row against the query; each later hop
// extends the best chains with passages found from what was read (the read passage's title and
// named entities added to the query, and titles it mentions), never re-reading a document already
// in the chain. Chains are ranked by the sum of their normalised hop scores; results are the
// passages of the best chains, deduplicated by document, with the hop that found each.
import { FLAG_CAPITALISED, FLAG_STOP, termId } from './analyze.js';
import type { ModelDescriptor } from './model.js';
import type { SearchCorpus } from './search-corpus.js';
import { tokenize } from './tokenize.js';

export const TOPK_MAX = 256;

export type Why =
  | { kind: 'query'; words: string[] }
  | { kind: 'expansion'; fromRow: number; fromHop: number; positions: number[] }
  | { kind: 'link'; fromRow: number; fromHop: number; positions: number[] };

export interface LoopHit {
  row: number;
  score: number;
  hop: number;
}

export interface LoopOutput {
  hits: LoopHit[];
  hopsUsed: number;
  confidence: number;
  steps: Array<{ hop: number; row: number; why: Why }>;
}

export interface Buffers {
  s1: number;
  s2: number;
  s3: number;
  topIdx: number;
  topScores: number;
  query: number;
}

interface Chain {
  rows: number[];
  score: number;
  whys: Why[];
}

const BEAM = 5;
const EXPAND = 10;

function topRows(c: SearchCorpus, scores: number, k: number, buf: Buffers): Array<[number, number]> {
  const n = c.kernels.topk(scores, c.totalRows, Math.min(k, TOPK_MAX), buf.topIdx, buf.topScores);
  const idx = c.kernels.views.readU32(buf.topIdx, n);
  const sc = c.kernels.views.readF32(buf.topScores, n);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) if (sc[i] > 0) out.push([idx[i], sc[i]]);
  return out;
}

/** The document of a global row: rows of one document share it. */
function docKey(c: SearchCorpus, row: number): string {
  const [si, r] = c.locate(row);
  return `${si}:${c.segs[si].docOf(r)}`;
}

export function runLoop(c: SearchCorpus, model: ModelDescriptor, task: { query: string; maxHops: number; maxResults: number }, buf: Buffers): LoopOutput {
  const k = c.kernels;
  const stop = new Set(model.params.stop);
  const qTokens = tokenize(task.query);
  const qForms = [...new Set(qTokens.forms.filter((f) => !stop.has(f)))];
  const qTerms = qForms.map(termId);
  const qSet = new Set(qTerms);
  const N = c.totalRows;
  k.views.fill(buf.s1, N * 4, 0);
  c.accumulate(qTerms, qTerms.map(() => 1), buf.s1);
  c.mask(buf.s1);
  const hop1 = topRows(c, buf.s1, Math.max(BEAM, task.maxResults), buf);
  if (hop1.length === 0) return { hits: [], hopsUsed: 1, confidence: 0, steps: [] };
  const max1 = hop1[0][1];
  const matchWords = (row: number) => {
    const [si, r] = c.locate(row);
    const seq = new Set(c.segs[si].seq(r).terms);
    return qForms.filter((_, i) => seq.has(qTerms[i])).slice(0, 5);
  };
  const chains: Chain[] = hop1.map(([row, s]) => ({ rows: [row], score: s / max1, whys: [{ kind: 'query', words: matchWords(row) }] }));
  let hopsUsed = 1;
  let frontier = chains.slice(0, BEAM);
  for (let hop = 2; hop <= task.maxHops; hop++) {
    const next: Chain[] = [];
    for (const chain of frontier) {
      const p = chain.rows[chain.rows.length - 1];
      const [si, r] = c.locate(p);
      const seg = c.segs[si];
      const { terms, flags } = seg.seq(r);
      const title = new Set(seg.title(r));
      const exp = new Map<number, { w: number; pos: number }>();
      for (let i = 0; i < terms.length; i++) {
        const t = terms[i];
        if (qSet.has(t) || (flags[i] & FLAG_STOP) !== 0 || title.has(t)) continue;
        const w = (flags[i] & FLAG_CAPITALISED) !== 0 ? 1 : 0.2;
        if (w > (exp.get(t)?.w ?? 0) && c.df(t) < 0.05 * c.stats.rows + 2) exp.set(t, { w, pos: i });
      }
      const picked = [...exp.entries()].sort((a, b) => b[1].w * c.idf(b[0]) - a[1].w * c.idf(a[0])).slice(0, 16);
      k.views.write(buf.s2, k.views.f32At(buf.s1, N));
      c.accumulate(picked.map(([t]) => t), picked.map(([, v]) => v.w), buf.s2);
      const seen = new Set(chain.rows.map((x) => docKey(c, x)));
      const cands = topRows(c, buf.s2, EXPAND + chain.rows.length + 4, buf).filter(([row]) => !seen.has(docKey(c, row)));
      const max2 = cands[0]?.[1] ?? 1;
      for (const [row, s] of cands.slice(0, EXPAND)) {
        next.push({
          rows: [...chain.rows, row],
          score: chain.score + s / max2,
          whys: [...chain.whys, { kind: 'expansion', fromRow: p, fromHop: chain.rows.length, positions: picked.slice(0, 4).map(([, v]) => v.pos) }],
        });
      }
    }
    if (next.length === 0) break;
    next.sort((a, b) => b.score - a.score);
    chains.push(...next);
    frontier = next.slice(0, BEAM);
    hopsUsed = hop;
    if (hop >= 2) break;
  }
  chains.sort((a, b) => b.score / b.rows.length - a.score / a.rows.length || b.rows.length - a.rows.length);
  const hits: LoopHit[] = [];
  const steps: LoopOutput['steps'] = [];
  const taken = new Set<string>();
  for (const ch of [...chains].sort((a, b) => b.score - a.score)) {
    ch.rows.forEach((row, i) => {
      const key = docKey(c, row);
      if (hits.length >= task.maxResults || taken.has(key)) return;
      taken.add(key);
      hits.push({ row, score: ch.score, hop: i + 1 });
      if (steps.length < hopsUsed && !steps.some((s) => s.hop === i + 1)) steps.push({ hop: i + 1, row, why: ch.whys[i] });
    });
    if (hits.length >= task.maxResults) break;
  }
  steps.sort((a, b) => a.hop - b.hop);
  const confidence = 1 / (1 + Math.exp(-(2 * (max1 > 0 ? 1 : 0) - 1)));
  return { hits, hopsUsed: Math.max(1, ...hits.map((h) => h.hop)), confidence, steps };
}
