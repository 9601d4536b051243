// Stage 2 of the native reader: in the best sentences, every span of 1..MAX_SPAN words that does not
// start or end with an edge-stop word gets SPAN_NAMES features (its sentence's score and rank,
// length, shape: year, number, month, capitalised, currency, percent, parentheses; whether it cuts a
// name or a number; distance to and windowed coverage of question terms; wh-type x shape) and
// HASH_FEATURES hashed lexical conjunctions (wh-type or head word x the span's words, its
// neighbours and the words between it and the nearest question term: surface patterns such as
// "directed by X"). Invariants: shared by training and serving; a span costs O(its length) and
// allocates nothing beyond one closure.

import {
  F_COMMA_AFTER,
  F_COMMA_BEFORE,
  F_CURRENCY,
  F_MONTH,
  F_PAREN_AFTER,
  F_PAREN_BEFORE,
  F_PERCENT,
  F_YEAR,
  G_COMMA,
  G_PAREN,
  G_QUOTE,
  type ReadContext,
  W_CAP,
  W_NUM,
  W_OTHER_DIGIT,
} from './reader-context.js';
import type { Sink } from './reader-sentences.js';
import { QTYPES } from './text-units.js';

export const MAX_SPAN = 7;

const SPAN_BASE = [
  'sent_rel',
  'sent_prob',
  'sent_rank0',
  'sent_rank1',
  'sent_rank2',
  'q_frac',
  'q_any',
  'cap_frac',
  'num_frac',
  'first_cap',
  'all_cap',
  'sent_initial',
  'has_digit',
  'is_year',
  'has_month',
  'percent_after',
  'currency_before',
  'gap_comma',
  'gap_paren',
  'gap_quote',
  'in_parens',
  'comma_before',
  'comma_after',
  'd_log',
  'd1',
  'no_q_sent',
  'win3',
  'win6',
  'win12',
  'left3',
  'right3',
  'q_before',
  'q_after',
  's_cov',
  'p_rank0',
  'prev_cap',
  'next_cap',
  'prev_num',
  'next_num',
  ...Array.from({ length: MAX_SPAN }, (_, i) => `len${i + 1}`),
];
const SPAN_SHAPES = ['digit', 'year', 'month', 'cap', 'allcap', 'percent', 'currency', 'len1', 'len_ge4', 'in_parens'];
export const SPAN_NAMES = [...SPAN_BASE, ...QTYPES.flatMap((q) => SPAN_SHAPES.map((s) => `${q}*${s}`))];
export const HASH_FEATURES = [
  'qtype*last',
  'qtype*first',
  'qtype*prev',
  'qtype*next',
  'head*last',
  'head*shape',
  'head*prev',
  'qtype*shape',
  'qtype*left_gap',
  'qtype*left_term_gap',
  'qtype*right_gap',
  'qtype*right_term_gap',
];
/** Words between a span and its nearest question term that still make a surface pattern ("directed by X"). */
const PATTERN_GAP = 3;
const SB = Object.fromEntries(SPAN_BASE.map((n, i) => [n, i])) as Record<string, number>;
/** Calls fn(s, e) for every candidate span [s, e) of words in sentence `si`. */
export function forEachSpan(ctx: ReadContext, si: number, fn: (s: number, e: number) => void): void {
  const { p: pi, a, b } = ctx.sents[si];
  const edge = ctx.passages[pi].edge;
  for (let s = a; s < b; s++) {
    if (edge[s]) continue;
    const last = Math.min(b, s + MAX_SPAN);
    for (let e = s + 1; e <= last; e++) if (!edge[e - 1]) fn(s, e);
  }
}

function mix(a: number, field: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul((b + Math.imul(field, 0x27d4eb2f)) | 0, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

/** Features of span [s, e) in sentence `si`; hashed features land at SPAN_NAMES.length + (hash & mask). */
export function spanFeatures(ctx: ReadContext, si: number, s: number, e: number, hashMask: number, sink: Sink): void {
  const sent = ctx.sents[si];
  const p = ctx.passages[sent.p];
  const { a, b } = sent;
  const len = e - s;
  const put = (i: number, v: number) => {
    if (v !== 0) sink.f(i, v);
  };
  put(SB.sent_rel, sent.logit - ctx.maxLogit);
  put(SB.sent_prob, sent.prob);
  if (sent.rank < 3) sink.f(SB.sent_rank0 + sent.rank, 1);
  let caps = 0;
  let nums = 0;
  let month = 0;
  let gaps = 0;
  for (let i = s; i < e; i++) {
    if (p.wc[i] === W_CAP) caps++;
    else if (p.wc[i] === W_NUM) nums++;
    month |= p.flag[i] & F_MONTH;
    if (i > s) gaps |= p.gap[i];
  }
  const qIn = p.qCnt[e] - p.qCnt[s];
  put(SB.q_frac, qIn / len);
  put(SB.q_any, qIn > 0 ? 1 : 0);
  put(SB.cap_frac, caps / len);
  put(SB.num_frac, nums / len);
  const firstCap = p.wc[s] === W_CAP ? 1 : 0;
  const allCap = caps === len ? 1 : 0;
  const digit = nums > 0 || p.wc[s] === W_OTHER_DIGIT ? 1 : 0;
  const year = p.flag[e - 1] & F_YEAR ? 1 : 0;
  const percent = p.flag[e - 1] & F_PERCENT ? 1 : 0;
  const currency = p.flag[s] & F_CURRENCY ? 1 : 0;
  const parens = p.flag[s] & F_PAREN_BEFORE && p.flag[e - 1] & F_PAREN_AFTER ? 1 : 0;
  put(SB.first_cap, firstCap);
  put(SB.all_cap, allCap);
  put(SB.sent_initial, s === a ? 1 : 0);
  put(SB.has_digit, digit);
  put(SB.is_year, year);
  put(SB.has_month, month ? 1 : 0);
  put(SB.percent_after, percent);
  put(SB.currency_before, currency);
  put(SB.gap_comma, gaps & G_COMMA ? 1 : 0);
  put(SB.gap_paren, gaps & G_PAREN ? 1 : 0);
  put(SB.gap_quote, gaps & G_QUOTE ? 1 : 0);
  put(SB.in_parens, parens);
  put(SB.comma_before, p.flag[s] & F_COMMA_BEFORE ? 1 : 0);
  put(SB.comma_after, p.flag[e - 1] & F_COMMA_AFTER ? 1 : 0);
  // distance to, and coverage of, question terms around the span within its sentence
  const lq = s > a ? p.lastQ[s - 1] : -1;
  const nq = p.nextQ[e];
  const d = Math.min(lq >= a ? s - lq : Infinity, nq < b ? nq - e + 1 : Infinity);
  if (d === Infinity) put(SB.no_q_sent, qIn > 0 ? 0 : 1);
  else {
    put(SB.d_log, Math.log1p(d));
    put(SB.d1, d === 1 ? 1 : 0);
  }
  const W = ctx.q.weight;
  const win = (l: number, r: number) => (p.qSum[s] - p.qSum[Math.max(a, s - l)] + p.qSum[Math.min(b, e + r)] - p.qSum[e]) / W;
  put(SB.win3, win(3, 3));
  put(SB.win6, win(6, 6));
  put(SB.win12, win(12, 12));
  put(SB.left3, win(3, 0));
  put(SB.right3, win(0, 3));
  put(SB.q_before, s > a && p.qIdf[s - 1] > 0 ? 1 : 0);
  put(SB.q_after, e < b && p.qIdf[e] > 0 ? 1 : 0);
  put(SB.s_cov, sent.cov);
  put(SB.p_rank0, sent.p === 0 ? 1 : 0);
  // does the span cut a run of capitalised words or numbers?
  put(SB.prev_cap, s > a + 1 && p.wc[s - 1] === W_CAP ? 1 : 0);
  put(SB.next_cap, e < b && p.wc[e] === W_CAP ? 1 : 0);
  put(SB.prev_num, s > a && p.wc[s - 1] === W_NUM ? 1 : 0);
  put(SB.next_num, e < b && p.wc[e] === W_NUM ? 1 : 0);
  sink.f(SB.len1 + len - 1, 1);
  const base = SPAN_BASE.length + ctx.q.qtype * SPAN_SHAPES.length;
  put(base, digit);
  put(base + 1, year);
  put(base + 2, month ? 1 : 0);
  put(base + 3, firstCap);
  put(base + 4, allCap);
  put(base + 5, percent);
  put(base + 6, currency);
  put(base + 7, len === 1 ? 1 : 0);
  put(base + 8, len >= 4 ? 1 : 0);
  put(base + 9, parens);
  // hashed lexical conjunctions
  const off = SPAN_NAMES.length;
  const qt = ctx.q.qtype + 1;
  const hh = ctx.headHash;
  let shape = Math.min(len, 4);
  for (let i = s; i < Math.min(e, s + 4); i++) shape = shape * 4 + p.wc[i];
  const prevW = s > a ? p.hl[s - 1] : 1;
  const nextW = e < b ? p.hl[e] : 2;
  sink.f(off + (mix(p.hs[e - 1], 1, qt) & hashMask), 1);
  sink.f(off + (mix(p.hl[s], 2, qt) & hashMask), 1);
  sink.f(off + (mix(prevW, 3, qt) & hashMask), 1);
  sink.f(off + (mix(nextW, 4, qt) & hashMask), 1);
  sink.f(off + (mix(p.hs[e - 1], 5, hh) & hashMask), 1);
  sink.f(off + (mix(shape, 6, hh) & hashMask), 1);
  sink.f(off + (mix(prevW, 7, hh) & hashMask), 1);
  sink.f(off + (mix(shape, 8, qt) & hashMask), 1);
  // surface patterns: the words between the span and the nearest question term on each side
  if (lq >= a && s - lq - 1 <= PATTERN_GAP) {
    let g = 7;
    for (let i = lq + 1; i < s; i++) g = mix(g, 0, p.hl[i]);
    sink.f(off + (mix(g, 9, qt) & hashMask), 1);
    sink.f(off + (mix(g ^ p.hs[lq], 10, qt) & hashMask), 1);
  }
  if (nq < b && nq - e <= PATTERN_GAP) {
    let g = 11;
    for (let i = e; i < nq; i++) g = mix(g, 0, p.hl[i]);
    sink.f(off + (mix(g, 11, qt) & hashMask), 1);
    sink.f(off + (mix(g ^ p.hs[nq], 12, qt) & hashMask), 1);
  }
}
