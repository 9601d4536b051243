// The hops of the multi-hop search and their features (worker side), shared by serving and training
// so both see exactly the same candidates and feature values. Hop 1 scores every row with BM25 over
// the question's terms (body + title fields) and builds a pool: the best rows plus the rows of the
// titles the question names. A later hop reads a passage p: p's rare terms (title line, capitalised
// words, other words, weighted) are scanned and added to the question's scores (the query update),
// and the titles p names become link candidates. Feature definitions: hop1-features.ts, hop2-features.ts.
// Every scan marks the rows it touches and lists them; reductions over a score buffer (top-k, maxima,
// rank histograms) run over those rows only when they are few (touched-rows.ts), and with a scan
// budget common terms only add to rows the rare ones touched (scan-budget.ts: the approximate scan).
// A later hop scans into s2 / mark2, copied from hop 1's s / mark once per search, and puts back the
// rows it listed when it ends, so that it costs what it touched rather than the store's size. Hop 1's
// scan, over every row or (clean scratch) the rows it listed only: question-scan.ts.
// A hop's candidates are bounded whatever the store: at most HOPS.hitTitles / HOPS.linkTitles named
// titles (params.ts). Rows of equal score are taken in the corpus's tie order (SearchCorpus.tieOrder:
// by document id, never by where a row lies), so that what a search returns does not depend on the
// order documents were ingested in, on merges or on a rebuild.
import type { DenseTables, ExpansionParams } from '../model/index.js';
import { HOPS, SCAN } from '../params.js';
import { FLAG_CAPITALISED, FLAG_STOP, termId, tokenize } from '../text/index.js';
import { bestRows, runsInTieOrder } from './best-rows.js';
import { bm25 } from './bm25.js';
import { type SearchCorpus, windowKey } from './corpus.js';
import { denseScorers } from './dense-scorers.js';
import { heldBy, presence, qcovOf } from './features-common.js';
import { h1Features } from './hop1-features.js';
import { h2Features } from './hop2-features.js';
import { bestMentions, titleHits } from './phrases.js';
import { answerKind } from './question.js';
import { QuestionScan, type ScratchMode } from './question-scan.js';
import { restrictedTerms } from './scan-budget.js';
import { TouchedRows } from './touched-rows.js';
import type { Candidates, Expansion, HopBuffers, HopNext, Query, RowSetBuffers, TitleHit } from './types.js';

export class Searcher {
  constructor(
    readonly c: SearchCorpus,
    readonly stop: ReadonlySet<string>,
    readonly buf: HopBuffers,
    /** learned weights of question terms (term id -> weight; absent terms weigh 1) */
    readonly theta: ReadonlyMap<number, number> = new Map(),
    /** the dense encoder's tables, when the model has one */
    readonly denseTables?: DenseTables,
    /** postings a scan reads in full before it prunes common terms (see SCAN.approximateRows); 0: exact scans */
    readonly scanBudget = 0,
    /** how hop 1 treats the buffers (question-scan.ts): 'fill' every row, 'clean' or 'dirty' the rows it lists */
    scratch: ScratchMode = 'fill',
  ) {
    this.question = new QuestionScan(c, buf, scratch);
    this.rowSet = { idx: buf.idx, g: buf.g, g2: buf.g2 };
  }

  /** Hop 1's scan of the question: the rows it marked (listed first in buf.idx), and the scratch's state. */
  private readonly question: QuestionScan;
  /** The touched-row list and gather buffers, one object for every TouchedRows of the search (it records what g holds). */
  private readonly rowSet: RowSetBuffers;

  private readonly links = new Map<number, Map<number, TitleHit>>();

  /** Titles a row's passage names after its title line, other than its own (memoised). */
  private linksOf(row: number): Map<number, TitleHit> {
    let hits = this.links.get(row);
    if (!hits) {
      const { terms, flags } = this.c.seq(row);
      hits = titleHits(this.c, terms, flags, this.c.titleLineLength(row), this.c.titleKey(row));
      this.links.set(row, hits);
    }
    return hits;
  }

  /**
   * The first `count` rows of the touched-row list (the list must not change while in use); a later
   * hop's (`later`) reads hop 1's s at hop 1's rows as gathered once (QuestionScan.known).
   */
  private touched(count: number, later = false): TouchedRows {
    return new TouchedRows(this.c.kernels, this.c.totalRows, this.rowSet, count, later ? this.question.known() : undefined);
  }

  /** Hop 1's best rows (after query()), best first, at most k. */
  topOfQuery(k: number): Array<[number, number]> {
    return this.top(this.touched(this.question.marked), this.buf.s, k);
  }

  /**
   * Rows of `scores` with a positive score, best first (at most k), equal scores in tie order;
   * `rows` are the rows the scan touched. The kernels break ties by row: when the cut falls inside a
   * run of equal scores, the run is fetched whole (as far as the buffers hold) before the cut is made.
   */
  top(rows: TouchedRows, scores: number, k: number): Array<[number, number]> {
    const { topIdx, topScores, topCap } = this.buf;
    if (k <= 0) return [];
    let want = Math.min(k + 1, topCap);
    let out = rows.top(scores, want, topIdx, topScores);
    const tiedAtCut = () => out.length === want && want < topCap && out[k - 1][1] > 0 && out[want - 1][1] === out[k - 1][1];
    while (tiedAtCut()) {
      want = Math.min(2 * want, topCap);
      out = rows.top(scores, want, topIdx, topScores);
    }
    return runsInTieOrder(
      out.filter(([, v]) => v > 0),
      this.tie,
    ).slice(0, k);
  }

  /** The corpus's order of rows of equal score. */
  private readonly tie = (a: number, b: number) => this.c.tieOrder(a, b);

  /** A view of a score buffer; shared memory never moves, so it stays valid for the task. */
  private scoresOf(ptr: number): Float32Array {
    return this.c.kernels.views.f32At(ptr, this.c.totalRows);
  }

  /**
   * rank(row): how many rows score above it, capped at HOPS.rankCap: exact for the rows of `exact`
   * (the top of the scan, best first), estimated beyond them from a histogram of the scores
   * (SCAN.histBins bins over [0, max]; rows are spread evenly within a bin). The histogram is taken
   * now when `eager` (the gather buffers are then free for the next scan), else at the first
   * estimate, while `ptr` and the list still hold this scan.
   */
  private ranker(
    rows: TouchedRows,
    ptr: number,
    scores: Float32Array,
    exact: Array<[number, number]>,
    max: number,
    eager = false,
  ): (row: number) => number {
    const known = new Map(exact.map(([row], i) => [row, i]));
    const kk = this.c.kernels;
    const bins = SCAN.histBins;
    const counts = () => {
      rows.histogram(ptr, max, bins, this.buf.hist);
      const h = kk.views.u32At(this.buf.hist, bins);
      const a = new Float64Array(bins + 1);
      for (let b = bins - 1; b >= 0; b--) a[b] = a[b + 1] + h[b];
      return a;
    };
    let above = eager ? counts() : undefined;
    return (row) => {
      const r = known.get(row);
      if (r !== undefined) return r;
      above ??= counts();
      const v = scores[row];
      if (!(v > 0)) return Math.min(above[0], HOPS.rankCap);
      const pos = Math.min((v / max) * bins, bins - 1e-9);
      const b = Math.floor(pos);
      const est = above[b + 1] + (above[b] - above[b + 1]) * (b + 1 - pos);
      return Math.min(Math.max(Math.round(est), exact.length), HOPS.rankCap);
    };
  }

  /**
   * docScore(row): BM25 of the row's whole document (term counts summed over its passages, length
   * normalised by the average document; in a very long document, the row's section or the passages
   * around it: SearchCorpus.docWindow) over the best such score among the documents of the question's top
   * rows; memoised.
   */
  private docScorer(qt: number[], qw: number[], top: Array<[number, number]>): (row: number) => number {
    const c = this.c;
    const memo = new Map<number, number>();
    const { k1, b } = c.lexical;
    const raw = (row: number) => {
      const [first, count] = c.docWindow(row);
      const key = windowKey(first, count);
      let v = memo.get(key);
      if (v !== undefined) return v;
      const len = c.bodyLength(first, count);
      v = 0;
      for (let i = 0; i < qt.length; i++) {
        const tf = c.termCount(qt[i], first, count);
        if (tf) v += qw[i] * c.idf(qt[i]) * bm25(tf, len, c.stats.avgDoc, k1, b);
      }
      memo.set(key, v);
      return v;
    };
    let max = 0;
    return (row) => {
      if (!max) max = Math.max(1e-6, ...top.slice(0, HOPS.pool).map(([r]) => raw(r)));
      return raw(row) / max;
    };
  }

  /** Which question terms a row holds, memoised per query. */
  private presenceOf(qt: number[], qindex: Map<number, number>): (row: number) => Uint8Array {
    const memo = new Map<number, Uint8Array>();
    return (row) => {
      let m = memo.get(row);
      if (!m) {
        m = presence(qt, qindex, this.c.seq(row).terms);
        memo.set(row, m);
      }
      return m;
    };
  }

  private max(rows: TouchedRows, ptr: number): number {
    return Math.max(rows.max(ptr), 1e-6);
  }

  /** Analyses the question and runs hop 1's scan. */
  query(text: string): Query {
    const c = this.c;
    const tk = tokenize(text);
    const ids = Uint32Array.from(tk.forms, termId);
    const caps = Array.from(tk.forms, (_, i) => {
      const ch = text[tk.start[i]];
      return /[0-9]/.test(ch) || (ch !== ch.toLowerCase() && ch === ch.toUpperCase());
    });
    const stops = tk.forms.map((f) => this.stop.has(f));
    const breaks = tk.forms.map((_, i) => i > 0 && /[(,]/.test(text.slice(tk.end[i - 1], tk.start[i])));
    const qt = [...new Set(Array.from(ids).filter((_, i) => !stops[i]))];
    const qidf = qt.map((t) => c.idf(t));
    const qw = qt.map((t) => this.theta.get(t) ?? 1);
    this.question.scan(qt, qw, restrictedTerms(c, qt, this.scanBudget));
    const touched = this.touched(this.question.marked);
    const order = this.top(touched, this.buf.s, HOPS.topTake);
    const flags = Uint8Array.from(caps, (v) => (v ? FLAG_CAPITALISED : 0));
    const hits = titleHits(c, ids, flags, 0);
    const s = this.scoresOf(this.buf.s);
    const sMax = this.max(touched, this.buf.s);
    const qindex = new Map(qt.map((t, i) => [t, i]));
    const weightOf = (t: number) => (this.theta.get(t) ?? 1) * c.idf(t);
    const content = Array.from(ids).filter((_, i) => !stops[i]);
    const bigrams = new Map<string, number>();
    for (let i = 1; i < content.length; i++)
      bigrams.set(`${content[i - 1]}:${content[i]}`, (weightOf(content[i - 1]) + weightOf(content[i])) / 2);
    const capTerms = new Map<number, number>();
    ids.forEach((t, i) => {
      if (i > 0 && caps[i] && !stops[i]) capTerms.set(t, weightOf(t));
    });
    return {
      text,
      forms: tk.forms,
      ids,
      caps,
      stops,
      breaks,
      qt,
      qidf,
      qset: new Set(qt),
      qindex,
      present: this.presenceOf(qt, qindex),
      qidfSum: Math.max(
        qidf.reduce((a, b) => a + b, 0),
        1e-6,
      ),
      hits,
      order: order.map(([row]) => row),
      rankOf: this.ranker(touched, this.buf.s, s, order, sMax, true),
      sMax: [sMax, this.max(touched, this.buf.sBody), this.max(touched, this.buf.sTitle)],
      s,
      sBody: this.scoresOf(this.buf.sBody),
      sTitle: this.scoresOf(this.buf.sTitle),
      mentions: new Map(),
      titleSizes: new Map(),
      f1: new Map(),
      qw,
      bigrams,
      capTerms,
      asks: answerKind(text),
      allTerms: new Set(ids),
      docScore: this.docScorer(qt, qw, order),
      ...denseScorers(c, this.denseTables, this.buf.dense, ids),
    };
  }

  /** Ends the search's use of the buffers; whether they are clean for its layout (question-scan.ts). */
  end(): boolean {
    return this.question.end();
  }

  /** Hop-1 pool (best rows by s, plus the best rows of every title the question names) and features. */
  hop1(q: Query): Candidates {
    const rows = q.order.slice(0, HOPS.pool);
    const seen = new Set(rows);
    for (const titleKey of bestMentions(q.hits, HOPS.hitTitles)) {
      for (const r of bestRows(this.c.titles.rows(titleKey), q.s, HOPS.hitPerTitle)) {
        if (!seen.has(r) && q.s[r] > 0) {
          seen.add(r);
          rows.push(r);
        }
      }
    }
    return { rows, features: rows.map((r) => h1Features(this.c, q, r)) };
  }

  hop1Features(q: Query, row: number): Float64Array {
    return h1Features(this.c, q, row);
  }

  /** The expansion of a read passage: its rare terms, weighted by where they occur. */
  expansion(q: Query, p: number, x: ExpansionParams): Expansion {
    const c = this.c;
    const { terms, flags } = c.seq(p);
    const nt = c.titleLineLength(p);
    const best = new Map<number, [number, number]>();
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i];
      if (flags[i] & FLAG_STOP || q.qset.has(t)) continue;
      const a = i < nt ? x.a_title : flags[i] & FLAG_CAPITALISED ? x.a_cap : x.a_body;
      if (a > (best.get(t)?.[0] ?? 0)) best.set(t, [a, i]);
    }
    const limit = x.dfmax * c.stats.rows;
    const picked = [...best]
      .filter(([t]) => c.df(t) <= limit)
      .map(([t, [a, pos]]) => ({ t, a, pos, v: a * c.idf(t) }))
      .sort((u, v) => v.v - u.v || u.t - v.t)
      .slice(0, x.M);
    return { terms: picked.map((e) => e.t), weights: picked.map((e) => e.a), positions: picked.map((e) => e.pos) };
  }

  /**
   * Candidates to extend a chain whose passages are `reads` (last = the passage read now), with
   * their hop features H2 (hop2-features.ts). `beam` holds the hop-1 beam rows (hop 2) or
   * is empty (hop 3); `earlier` are the titles named by passages read before the last one.
   */
  hopNext(q: Query, reads: number[], beam: ReadonlySet<number>, x: ExpansionParams): HopNext {
    return this.hopNexts(q, [reads], beam, x)[0];
  }

  /**
   * hopNext of each chain of `chains`, in order. Chains that end at the same passage (a stage's beam
   * may extend several chains through one document) share its scan: its expansion depends on the
   * question and that passage only.
   */
  hopNexts(q: Query, chains: readonly number[][], beam: ReadonlySet<number>, x: ExpansionParams): HopNext[] {
    const out: HopNext[] = [];
    const byLast = new Map<number, number[]>();
    for (const [i, reads] of chains.entries()) {
      const p = reads[reads.length - 1];
      const same = byLast.get(p);
      if (same) same.push(i);
      else byLast.set(p, [i]);
    }
    for (const [p, same] of byLast) {
      const exp = this.expansion(q, p, x);
      // s2 = s + e: the question's scores plus the scan of the read passage's terms (e = s2 - s); only
      // the listed rows differ from s and mark, and are put back (question-scan.ts)
      const listed = this.question.scanLater(exp.terms, exp.weights, restrictedTerms(this.c, exp.terms, this.scanBudget));
      const touched = this.touched(listed, true);
      try {
        for (const i of same) out[i] = this.nextCandidates(q, chains[i], beam, exp, touched);
      } finally {
        this.question.putBack(listed, touched.gatheredAt(this.buf.s2));
      }
    }
    return out;
  }

  /** hopNext's candidates and features, once the read passage's scan is in s2 and `touched`. */
  private nextCandidates(q: Query, reads: number[], beam: ReadonlySet<number>, exp: Expansion, touched: TouchedRows): HopNext {
    const c = this.c;
    const p = reads[reads.length - 1];
    const s2 = this.scoresOf(this.buf.s2);
    const s = q.s;
    const readDocs = new Set(reads.map((r) => c.docOf(r)));
    let take: number = HOPS.topTake;
    let order2 = this.top(touched, this.buf.s2, take);
    while (
      order2.length === take &&
      order2.filter(([r]) => !readDocs.has(c.docOf(r))).length < HOPS.nextCandidates &&
      take < HOPS.rankCap
    ) {
      take = Math.min(HOPS.topTakeGrowth * take, HOPS.rankCap);
      order2 = this.top(touched, this.buf.s2, take);
    }
    const rows: number[] = [];
    const have = new Set<number>();
    /** A candidate needs some evidence: a score from the question or the read passage, or a link from it. */
    const add = (r: number, linked = false) => {
      if (!have.has(r) && !readDocs.has(c.docOf(r)) && (s2[r] > 0 || (linked && s2[r] > -Infinity))) {
        have.add(r);
        rows.push(r);
      }
    };
    for (const [r] of order2) {
      if (rows.length >= HOPS.nextCandidates) break;
      add(r);
    }
    const pSeq = c.seq(p);
    const pSkip = c.titleLineLength(p);
    const links = this.linksOf(p);
    for (const titleKey of bestMentions(links, HOPS.linkTitles))
      for (const r of bestRows(c.titles.rows(titleKey), s2, HOPS.linkPerTitle)) add(r, true);
    for (const r of q.order.slice(0, HOPS.questionCandidates)) add(r);
    const earlier = new Set<number>();
    for (const r of reads.slice(0, -1)) for (const k of this.linksOf(r).keys()) earlier.add(k);
    const readPresent = heldBy(q, reads);
    const s2Max = this.max(touched, this.buf.s2);
    const ctx = {
      reads,
      links,
      earlier,
      beam,
      e: (row: number) => s2[row] - s[row],
      eMax: Math.max(touched.maxDiff(this.buf.s2, this.buf.s), 1e-6),
      s2,
      s2Max,
      rank2Of: this.ranker(touched, this.buf.s2, s2, order2, s2Max),
      p,
      pTerms: new Set(pSeq.terms),
      pBodyLength: Math.max(pSeq.terms.length - pSkip, 1),
      pTitle: c.title(p),
      pBaseLen: c.baseLenOf(p),
      pTitleKey: c.titleKey(p),
      readPresent,
      readQcov: qcovOf(q, readPresent),
    };
    return { rows, features: rows.map((r) => h2Features(c, q, ctx, r)), expansion: exp.positions, links };
  }
}
