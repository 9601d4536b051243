// Training data of the native reader, from SQuAD-shaped paragraphs: articles (paragraphs as
// PassageWords, term frequencies, each sentence's normalised text), the idf table shipped in
// reader.json (hashed stems, document frequency over paragraphs, quantised to a byte), and per
// question the reading context a search would give: the article's paragraphs ranked by BM25 for the
// question (top PASSAGES), with which sentences hold an answer string. Invariants: deterministic;
// the idf function returned is exactly what NativeReader.idf computes from the table.
import { analyseQuestion, normalizeAnswer, type PassageWords, passageWords, prepare } from '../answer/index.js';
import { hash32 } from '../engine/index.js';
import type { SquadParagraph } from './data.js';

export const IDF_BITS = 18;
export const IDF_SCALE = 20;
export const PASSAGES = 10;

export interface Article {
  paras: SquadParagraph[];
  pw: PassageWords[];
  tf: Array<Map<string, number>>;
  len: number[];
  avg: number;
  /** per paragraph, per sentence: ` normalised text ` */
  norm: string[][];
}

export interface Example {
  art: Article;
  question: string;
  answers: string[];
}

export function buildIdf(articles: Article[]): { table: Uint8Array; unseen: number; idf: (s: string) => number } {
  const df = new Map<string, number>();
  let n = 0;
  for (const a of articles)
    for (const tf of a.tf) {
      n++;
      for (const s of tf.keys()) df.set(s, (df.get(s) ?? 0) + 1);
    }
  const mask = (1 << IDF_BITS) - 1;
  const maxDf = new Uint32Array(mask + 1);
  for (const [s, d] of df) {
    const h = hash32(s) & mask;
    maxDf[h] = Math.max(maxDf[h], d);
  }
  const idfOf = (d: number) => Math.log((n - d + 0.5) / (d + 0.5) + 1);
  const table = new Uint8Array(mask + 1);
  for (let h = 0; h <= mask; h++) if (maxDf[h] > 0) table[h] = Math.max(1, Math.min(255, Math.round(idfOf(maxDf[h]) * IDF_SCALE)));
  const unseen = idfOf(0);
  return { table, unseen, idf: (s) => (table[hash32(s) & mask] || unseen * IDF_SCALE) / IDF_SCALE };
}

export function article(paras: SquadParagraph[]): Article {
  const pw = paras.map((p) => passageWords(p.context));
  const tf = pw.map((p) => {
    const m = new Map<string, number>();
    for (const s of p.w.stem) m.set(s, (m.get(s) ?? 0) + 1);
    return m;
  });
  const len = pw.map((p) => p.w.stem.length);
  const norm = pw.map((p) => p.sents.map(([a, b]) => ` ${normalizeAnswer(p.w.text.slice(p.w.start[a], p.w.end[b - 1]))} `));
  return { paras, pw, tf, len, avg: len.reduce((x, y) => x + y, 0) / Math.max(1, len.length), norm };
}

/** The article's paragraphs ranked by BM25 for the question: indices, best first, at most PASSAGES. */
export function rank(a: Article, question: string, idf: (s: string) => number): number[] {
  const q = analyseQuestion(question, idf);
  const score = a.tf.map((tf, i) => {
    let s = 0;
    for (const [t, w] of q.terms) {
      const f = tf.get(t) ?? 0;
      if (f) s += (w * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * a.len[i]) / a.avg));
    }
    return s;
  });
  return [...score.keys()].sort((x, y) => score[y] - score[x] || x - y).slice(0, PASSAGES);
}

/** The reading context of an example, which of its sentences hold an answer, and the normalised answers. */
export function contextOf(ex: Example, idf: (s: string) => number) {
  const order = rank(ex.art, ex.question, idf);
  const ctx = prepare(
    ex.question,
    order.map((i) => ex.art.pw[i]),
    idf,
  );
  const golds = ex.answers.map((x) => ` ${normalizeAnswer(x)} `).filter((x) => x.trim());
  const sentPos = ctx.sents.map((s) => {
    const pi = order[s.p];
    const k = ex.art.pw[pi].sents.findIndex(([a]) => a === s.a);
    return golds.some((g) => ex.art.norm[pi][k].includes(g));
  });
  return { ctx, sentPos, golds: new Set(golds.map((g) => g.trim())) };
}
